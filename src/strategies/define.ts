// defineStrategy: how a researcher's module declares a strategy (issue 28 §1), checked the way a built-in one is.
import type { Outcome } from '../records/index.js';
import type { Role } from '../models/types.js';
import type { Strategy, StrategyContext } from './context.js';
import { declareRole, type RoleDeclaration } from './declared-roles.js';
import { STRATEGY_NAME } from './registry.js';

/** The roles a strategy may call: each is a model the run configures (`--<role>-model`) and a prompt in prompts/. */
export const STRATEGY_ROLES: readonly Role[] = ['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate'];

/**
 * A strategy as a module writes it.
 * - `name`: kebab case, 1–40 characters, not a built-in name; it is what `--strategies` and every table use.
 * - `roles`: the roles it calls: built-in ones by name, and roles of its own as declarations (`{ name, component,
 *   prompt, model? }`, see RoleDeclaration). Attribution counts a role's mistakes against its component (decision
 *   0004: planner, executor, replanner; the reporter is the executor's; agent and direct are the single agent's; gate);
 *   a declared role's are read as its declared component's, or `unattributed.no_rule` for component `none`.
 * - `run(ctx)`: the control loop; returns how the episode ended (see the endings the package exports) and never throws
 *   for an expected failure (an exception ends the episode as a harness error, scored as no strategy's failure).
 * - `maxModelCalls`: the most model calls one episode can make before repairs (run checks size a run by it).
 */
export interface StrategyDefinition {
  name: string;
  roles: ReadonlyArray<Role | RoleDeclaration>;
  run(ctx: StrategyContext): Promise<Outcome>;
  maxModelCalls?: number;
}

/**
 * A strategy from its definition, checked: throws a TypeError naming the first problem (a name that is not kebab case,
 * no roles or a role stratbench does not know, a malformed role declaration (see declareRole) or one declared twice,
 * run not a function, maxModelCalls not a positive integer). `roles` of the result: the built-in roles it names;
 * `declaredRoles`: its declarations, settled (modelRolesOf gives the models a run configures for both).
 */
export function defineStrategy(definition: StrategyDefinition): Strategy {
  const { name, roles, run, maxModelCalls } = definition;
  if (typeof name !== 'string' || !STRATEGY_NAME.test(name))
    throw new TypeError(`defineStrategy: name must be lower-case letters, digits and dashes (1–40 characters), got ${JSON.stringify(name)}`);
  if (!Array.isArray(roles) || roles.length === 0) throw new TypeError(`defineStrategy(${name}): roles must list the roles it calls`);
  const builtin = roles.filter((role): role is Role => typeof role === 'string');
  const unknown = builtin.filter((role) => !STRATEGY_ROLES.includes(role));
  if (unknown.length > 0)
    throw new TypeError(
      `defineStrategy(${name}): unknown role(s) ${unknown.join(', ')}; known: ${STRATEGY_ROLES.join(', ')} (declare a role of your own as { name, component, prompt })`,
    );
  const declared = roles.filter((role) => typeof role !== 'string').map((role) => declareRole(role as RoleDeclaration, `defineStrategy(${name})`));
  const twice = declared.map((role) => role.name).find((role, k, all) => all.indexOf(role) !== k);
  if (twice !== undefined) throw new TypeError(`defineStrategy(${name}): role ${twice} is declared twice`);
  if (typeof run !== 'function') throw new TypeError(`defineStrategy(${name}): run must be a function (ctx) => Promise<Outcome>`);
  if (maxModelCalls !== undefined && (!Number.isInteger(maxModelCalls) || maxModelCalls < 1))
    throw new TypeError(`defineStrategy(${name}): maxModelCalls must be a positive integer`);
  return Object.freeze({
    name,
    roles: Object.freeze([...new Set(builtin)]),
    ...(declared.length > 0 ? { declaredRoles: Object.freeze(declared) } : {}),
    run,
    ...(maxModelCalls !== undefined ? { maxModelCalls } : {}),
  });
}
