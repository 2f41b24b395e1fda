// The strategy registry: names as the CLI and results files use them.
import type { Strategy } from './context.js';
import { direct } from './direct.js';
import { react } from './react.js';
import { planUpFront } from './plan-up-front.js';
import { planReplan, planReplanLookup } from './plan-replan.js';
import { gated } from './gated.js';

export const STRATEGIES = {
  direct,
  react,
  'plan-up-front': planUpFront,
  'plan-replan': planReplan,
  'plan-replan-lookup': planReplanLookup,
  gated,
} satisfies Record<string, Strategy>;
export type StrategyName = keyof typeof STRATEGIES;

/** What `--strategies all` runs: the study's four strategies plus the gate. */
export const DEFAULT_STRATEGIES: StrategyName[] = ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'];

export function isStrategyName(name: string): name is StrategyName {
  return Object.hasOwn(STRATEGIES, name);
}

export * from './context.js';
export * from './replies.js';
export * from './plan.js';
export type { PromptSet } from './prompts.js';
export { ContextExceededEnding } from './call-role.js';
