// defineStrategy: how a researcher's module declares a strategy (issue 28 §1), checked the way a built-in one is.
import type { Outcome } from '../records/index.js';
import type { Role } from '../models/types.js';
import type { Strategy, StrategyContext } from './context.js';
import { STRATEGY_NAME } from './registry.js';

/** The roles a strategy may call: each is a model the run configures (`--<role>-model`) and a prompt in prompts/. */
export const STRATEGY_ROLES: readonly Role[] = ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'];

/**
 * A strategy as a module writes it.
 * - `name`: kebab case, 1–40 characters, not a built-in name; it is what `--strategies` and every table use.
 * - `roles`: the roles whose models it calls. Attribution counts a role's mistakes against its component (decision
 *   0004: planner, executor, replanner; the reporter is the executor's; agent and direct are the single agent's; gate).
 * - `run(ctx)`: the control loop; returns how the episode ended (see the endings the package exports) and never throws
 *   for an expected failure (an exception ends the episode as a harness error, scored as no strategy's failure).
 * - `maxModelCalls`: the most model calls one episode can make before repairs (run checks size a run by it).
 */
export interface StrategyDefinition {
  name: string;
  roles: readonly Role[];
  run(ctx: StrategyContext): Promise<Outcome>;
  maxModelCalls?: number;
}

/**
 * A strategy from its definition, checked: throws a TypeError naming the first problem (a name that is not kebab case,
 * no roles or a role stratbench does not know, run not a function, maxModelCalls not a positive integer).
 */
export function defineStrategy(definition: StrategyDefinition): Strategy {
  const { name, roles, run, maxModelCalls } = definition;
  if (typeof name !== 'string' || !STRATEGY_NAME.test(name))
    throw new TypeError(`defineStrategy: name must be lower-case letters, digits and dashes (1–40 characters), got ${JSON.stringify(name)}`);
  if (!Array.isArray(roles) || roles.length === 0) throw new TypeError(`defineStrategy(${name}): roles must list the roles it calls`);
  const unknown = roles.filter((role) => !STRATEGY_ROLES.includes(role));
  if (unknown.length > 0) throw new TypeError(`defineStrategy(${name}): unknown role(s) ${unknown.join(', ')}; known: ${STRATEGY_ROLES.join(', ')}`);
  if (typeof run !== 'function') throw new TypeError(`defineStrategy(${name}): run must be a function (ctx) => Promise<Outcome>`);
  if (maxModelCalls !== undefined && (!Number.isInteger(maxModelCalls) || maxModelCalls < 1))
    throw new TypeError(`defineStrategy(${name}): maxModelCalls must be a positive integer`);
  return Object.freeze({ name, roles: Object.freeze([...new Set(roles)]), run, ...(maxModelCalls !== undefined ? { maxModelCalls } : {}) });
}
