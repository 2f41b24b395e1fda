// The strategy registry: names as the CLI and results files use them.
import type { Strategy } from './context.js';
import { direct } from './direct.js';
import { react } from './react.js';
import { planUpFront } from './plan-up-front.js';
import { planReplan, planReplanLookup } from './plan-replan.js';
import { gated } from './gated.js';
import { registerStrategy, registeredStrategy, registeredStrategyNames } from './registry.js';

export const STRATEGIES = {
  direct,
  react,
  'plan-up-front': planUpFront,
  'plan-replan': planReplan,
  'plan-replan-lookup': planReplanLookup,
  gated,
} satisfies Record<string, Strategy>;
/** A strategy stratbench ships. */
export type BuiltinStrategyName = keyof typeof STRATEGIES;
/** A strategy a run knows: a built-in one or one a `--strategy-module` registered (see registry.ts). */
export type StrategyName = BuiltinStrategyName | (string & {});

/** What `--strategies all` runs: the study's four strategies plus the gate. */
export const DEFAULT_STRATEGIES: StrategyName[] = ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'];

export const isBuiltinStrategy = (name: string): name is BuiltinStrategyName => Object.hasOwn(STRATEGIES, name);

/** Whether a run knows the strategy: built in, or registered by a module. */
export function isStrategyName(name: string): name is StrategyName {
  return isBuiltinStrategy(name) || registeredStrategy(name) !== undefined;
}

/** The strategy of that name, built in or registered; undefined for an unknown name. */
export function strategyByName(name: string): Strategy | undefined {
  return isBuiltinStrategy(name) ? STRATEGIES[name] : registeredStrategy(name);
}

/** Every strategy name a run knows: the built-in ones, then the registered ones. */
export const knownStrategyNames = (): string[] => [...Object.keys(STRATEGIES), ...registeredStrategyNames()];

/** Registers a module's strategy (see registry.ts: throws for a malformed one or a name already taken). */
export const addModuleStrategy = (strategy: Strategy): void => registerStrategy(strategy, Object.keys(STRATEGIES));

export * from './context.js';
export * from './replies.js';
export * from './plan.js';
export type { PromptSet } from './prompts.js';
export { declareRole, declaredComponents, type DeclaredRole, type DeclaredRoleView, type RoleDeclaration } from './declared-roles.js';
export { ContextExceededEnding } from './call-role.js';
export { clearRegisteredStrategies, STRATEGY_NAME } from './registry.js';
