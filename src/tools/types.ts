// The contract every tool follows: zod arguments, a description for models, a side-effect class, a classified result.
import { z } from 'zod';
import type { SideEffect, SimRepo } from '../sim-repo/index.js';

/**
 * How a tool call ended. `lookup_miss`: a read-only call found nothing (missing file, no search hits);
 * `transient_error`: a known retryable pattern (ECONNRESET, ETIMEDOUT); `permission_denied`: the token
 * or the repository root refused it; `failure`: anything else (non-zero exit, edit text not found).
 */
export const ToolStatus = z.enum(['success', 'lookup_miss', 'transient_error', 'permission_denied', 'failure']);
export type ToolStatus = z.infer<typeof ToolStatus>;

export const ToolResult = z.object({
  status: ToolStatus,
  output: z.string().describe('What the tool printed, as a model would see it'),
  exit_code: z.number().int().optional().describe('For run: the shell exit code (127 = unknown command)'),
  duration_ms: z.number().nonnegative().describe('Simulated tool time in ms'),
  side_effect: z.enum(['none', 'reversible', 'irreversible']).describe('What the call actually changed'),
  error_code: z.string().optional().describe('Machine-readable reason, e.g. not_found, ambiguous_match, path_escape'),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const ToolName = z.enum(['read', 'list', 'search', 'edit', 'write', 'run', 'git_log', 'git_show', 'git_diff', 'push']);
export type ToolName = z.infer<typeof ToolName>;

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
