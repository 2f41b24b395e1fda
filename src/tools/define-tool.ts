// Owns the helper that builds a ToolDefinition with argument types inferred from its zod schema.
import type { z } from 'zod';
import type { SideEffect, SimRepo } from '../sim-repo/index.js';
import type { ToolDefinition, ToolName, ToolResult } from './types.js';

/** What a tool file declares; `sideEffectOf` defaults to the declared `sideEffect`. */
export interface ToolSpec<Args extends Record<string, unknown>> {
  name: ToolName;
  description: string;
  args: z.ZodType<Args>;
  sideEffect: SideEffect;
  readOnly: boolean;
  sideEffectOf?: (args: Args, repo: SimRepo) => SideEffect;
  execute: (repo: SimRepo, args: Args) => ToolResult;
}

/** Builds a `ToolDefinition` whose `execute` receives the schema's parsed output. */
export function defineTool<Args extends Record<string, unknown>>(spec: ToolSpec<Args>): ToolDefinition<Args> {
  const declared = spec.sideEffect;
  return {
    name: spec.name,
    description: spec.description,
    args: spec.args,
    sideEffect: declared,
    readOnly: spec.readOnly,
    sideEffectOf: spec.sideEffectOf ?? (() => declared),
    execute: spec.execute,
  };
}
