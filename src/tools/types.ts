// The contract every tool follows: zod arguments, a description for models, a side-effect class, a classified result.
import { z } from 'zod';
import type { SideEffect, SimRepo } from '../sim-repo/index.js';
import { ToolName, ToolStatus } from '../records/index.js';

/** How a tool call ended: defined in records/ (the trace records it). */
export { ToolStatus };

export const ToolResult = z.object({
  status: ToolStatus,
  output: z.string().describe('What the tool printed, as a model would see it'),
  exit_code: z.number().int().optional().describe('For run: the shell exit code (127 = unknown command)'),
  duration_ms: z.number().nonnegative().describe('Simulated tool time in ms'),
  side_effect: z.enum(['none', 'reversible', 'irreversible']).describe('What the call actually changed'),
  error_code: z.string().optional().describe('Machine-readable reason, e.g. not_found, ambiguous_match, path_escape'),
});
export type ToolResult = z.infer<typeof ToolResult>;

/** Defined in records/ (plans, trajectories and traces name tools too). */
export { ToolName };

/** One tool: a name, a model-facing description, a zod argument schema and its side-effect class. */
export interface ToolDefinition<Args = Record<string, unknown>> {
  name: ToolName;
  description: string;
  args: z.ZodType<Args>;
  /** The declared class; `run` resolves per command (a migration is irreversible, a test run is none). */
  sideEffect: SideEffect;
  /** True for tools that only observe (their empty result is a lookup miss, not a failure). */
  readOnly: boolean;
  /** Side-effect class of this particular call, known before it runs. */
  sideEffectOf(args: Args, repo: SimRepo): SideEffect;
  execute(repo: SimRepo, args: Args): ToolResult;
}
