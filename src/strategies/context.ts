// What a strategy receives: the task as the agent sees it, the repo, one model per role, prompts, budgets, trace.
import type { SimRepo } from '../sim-repo/index.js';
import type { ChatModel, ChatOptions, MemoryView, Role } from '../models/types.js';
import type { Trace } from '../trace/trace.js';
import type { Outcome } from '../records/index.js';
import type { PromptSet } from './prompts.js';
import type { DeclaredRole } from './declared-roles.js';

/** The task as an agent may see it: no checks, no trajectories. */
export interface TaskBrief {
  id: string;
  prompt: string;
  memory: MemoryView[];
}

/**
 * Budgets enforced in code. Defaults come from the study in seed 001: ReAct 12 tool calls; plan-and-replan
 * 3 replans and 16 tool calls per episode, a transient error retried once, the same failing call twice stops.
 */
export interface Budgets {
  maxToolCalls: number;
  maxReplans: number;
  transientRetries: number;
  /** How many times the same tool call with the same args may fail before the run stops. */
  repeatedFailureLimit: number;
  /**
   * How many times the same read-only call (read, list, search, git_log, git_show, git_diff) with the same args may
   * run on an unchanged repository before the run stops as `repeated_call` (issue 10: a loop re-reading what it has).
   */
  repeatedReadLimit: number;
}

export const REACT_BUDGETS: Budgets = { maxToolCalls: 12, maxReplans: 0, transientRetries: 0, repeatedFailureLimit: 2, repeatedReadLimit: 3 };
export const PLAN_REPLAN_BUDGETS: Budgets = { maxToolCalls: 16, maxReplans: 3, transientRetries: 1, repeatedFailureLimit: 2, repeatedReadLimit: 3 };
export const PLAN_UP_FRONT_BUDGETS: Budgets = { maxToolCalls: 12, maxReplans: 0, transientRetries: 0, repeatedFailureLimit: 2, repeatedReadLimit: 3 };

/** Strategy switches that are not budgets. */
export interface StrategyOptions {
  /**
   * Keep a failed read-only lookup (missing file, no search hits) as an ordinary result instead of a failed
   * step. Seed 001 ran plan-and-replan both ways; default false (the study's first version).
   */
  lookupMissAsResult: boolean;
  /**
   * Ask a server-backed executor for all steps of a plan wave at once (default true). The replies are traced in step
   * order, so the episode is the same either way; false (benchmarks only) asks one step at a time. Not part of the
   * run's configuration hash for that reason.
   */
  parallelWaves?: boolean;
}

export interface StrategyContext {
  task: TaskBrief;
  repo: SimRepo;
  /** The model serving each role. */
  models: Record<Role, ChatModel>;
  prompts: PromptSet;
  /** Tool descriptions as rendered into prompts. */
  toolDescriptions: string;
  trace: Trace;
  epoch: number;
  chatOptions: (role: Role) => ChatOptions;
  options: StrategyOptions;
  /** The roles the strategy declared beyond the built-in ones (callRole serves them: their model role's model, their prompt). */
  declaredRoles?: readonly DeclaredRole[];
}

/** A control loop. `run` never throws for expected failures; it returns how the episode ended. */
export interface Strategy {
  readonly name: string;
  /** Built-in roles this strategy calls by name (see modelRolesOf for every model it needs). */
  readonly roles: readonly Role[];
  /** Roles it declares beyond the built-in ones (defineStrategy settles them); their calls carry their own name. */
  readonly declaredRoles?: readonly DeclaredRole[];
  run(ctx: StrategyContext): Promise<Outcome>;
  /** The most model calls one episode can make, before reply repairs (run checks size a run by it); built-in ones are known. */
  readonly maxModelCalls?: number;
}

/** The built-in roles whose models a strategy needs: those it calls by name, then those serving its declared roles. */
export const modelRolesOf = (strategy: Strategy): Role[] => [...new Set([...strategy.roles, ...(strategy.declaredRoles ?? []).map((role) => role.model)])];
