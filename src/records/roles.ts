// The vocabulary enums every folder shares: roles, tool names and statuses, side effects.
import { z } from 'zod';

/** Which part of a strategy a model call serves (DESIGN.md, Vocabulary). */
export const ROLES = ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/**
 * What a role a strategy module declares may be called (issue 28 §1): kebab case, 1–40 characters. The trace's
 * model_call events carry it as their `role`; it never equals a built-in role (defineStrategy refuses that).
 */
export const DECLARED_ROLE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** A model_call's role: a built-in one, or the name of a role the strategy module declared (records before declared roles hold built-in ones only). */
export const TraceRole = z.union([Role, z.string().max(40).regex(DECLARED_ROLE_NAME)]);
export type TraceRole = z.infer<typeof TraceRole>;

/**
 * The component a declared role's mistakes count against: a built-in role's name, read by that role's attribution rules
 * (decision 0004: the reporter's are the executor's), or `none` — no rule applies, and a failure resting on the role's
 * output is attributed `unattributed.no_rule` with the role's calls as evidence.
 */
export const RoleComponent = z.enum(['planner', 'executor', 'replanner', 'reporter', 'agent', 'gate', 'none']);
export type RoleComponent = z.infer<typeof RoleComponent>;

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
