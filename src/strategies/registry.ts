// Strategies a run knows besides the built-in ones: those a `--strategy-module` defines (issue 28 §1).
import type { Strategy } from './context.js';

/** What a strategy name may look like: the CLI, result folders and exports carry it (kebab case, 1–40 characters). */
export const STRATEGY_NAME = /^[a-z][a-z0-9-]{0,39}$/;

const registered = new Map<string, Strategy>();

/**
 * Adds a strategy a module defines. Throws a TypeError naming the problem for a malformed strategy (no name matching
 * STRATEGY_NAME, no roles built in or declared, no run function) and an Error for a name a built-in or another module already uses.
 * `builtins`: the names taken by the strategies stratbench ships.
 */
export function registerStrategy(strategy: Strategy, builtins: readonly string[]): void {
  if (typeof strategy?.name !== 'string' || !STRATEGY_NAME.test(strategy.name))
    throw new TypeError(`a strategy needs a name of lower-case letters, digits and dashes (1–40 characters), got ${JSON.stringify(strategy?.name)}`);
  if (!Array.isArray(strategy.roles) || strategy.roles.length + (strategy.declaredRoles?.length ?? 0) === 0)
    throw new TypeError(`strategy ${strategy.name}: roles must list the roles it calls`);
  if (typeof strategy.run !== 'function') throw new TypeError(`strategy ${strategy.name}: run must be a function (ctx) => Promise<Outcome>`);
  if (builtins.includes(strategy.name)) throw new Error(`strategy ${strategy.name}: the name of a built-in strategy`);
  const known = registered.get(strategy.name);
  if (known !== undefined && known !== strategy) throw new Error(`strategy ${strategy.name}: defined by two modules`);
  registered.set(strategy.name, strategy);
}

/** The module strategy of that name, if one was registered. */
export const registeredStrategy = (name: string): Strategy | undefined => registered.get(name);

/** The names of the module strategies registered, in order. */
export const registeredStrategyNames = (): string[] => [...registered.keys()];

/** Forgets every module strategy (tests; a process runs one configuration). */
export function clearRegisteredStrategies(): void {
  registered.clear();
}
