// The vocabulary enums every folder shares: roles, tool names and statuses, side effects.
import { z } from 'zod';

/** Which part of a strategy a model call serves (DESIGN.md, Vocabulary). */
export const ROLES = ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/**
 * How a tool call ended. `lookup_miss`: a read-only call found nothing (missing file, no search hits);
 * `transient_error`: a known retryable pattern (ECONNRESET, ETIMEDOUT); `permission_denied`: the token
 * or the repository root refused it; `failure`: anything else (non-zero exit, edit text not found).
 */
export const ToolStatus = z.enum(['success', 'lookup_miss', 'transient_error', 'permission_denied', 'failure']);
export type ToolStatus = z.infer<typeof ToolStatus>;

/** What a tool call changes: nothing, something `git checkout` undoes, or something it does not (a push, a migration). */
export const SideEffect = z.enum(['none', 'reversible', 'irreversible']);
export type SideEffect = z.infer<typeof SideEffect>;

/** The tools an agent may call (tools/ implements them; plans, trajectories and traces name them). */
export const ToolName = z.enum(['read', 'list', 'search', 'edit', 'write', 'run', 'git_log', 'git_show', 'git_diff', 'push']);
export type ToolName = z.infer<typeof ToolName>;
