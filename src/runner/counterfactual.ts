// Counterfactual attribution: re-run a failed plan-strategy episode with one role played by the fault-free scripted model.
import type { ChatModel, Role } from '../models/types.js';
import { ScriptedModel, type ScriptedTask } from '../models/scripted.js';
import { STRATEGIES, type StrategyName } from '../strategies/index.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';
import { episodeSeed } from './run-suite.js';
import type { EpisodeLine } from '../records/index.js';

/** The roles replaced, in this order (issue 4 §4): the first whose replacement turns the failure into a success is blamed. */
export const COUNTERFACTUAL_ROLES: readonly Role[] = ['planner', 'executor', 'replanner'];

export interface CounterfactualResult {
  task: string;
  strategy: string;
  epoch: number;
  /** The rule-based verdict, `component.mode`, if the episode had one. */
  rules?: string;
  /** Whether the episode succeeded with each role replaced (roles the strategy does not use are absent). */
  replaced: Partial<Record<Role, boolean>>;
  /** The first role whose replacement made the episode succeed; null when none did. */
  counterfactual: Role | null;
  /** Whether the rule-based component equals the counterfactual role (null when either is missing). */
  agrees: boolean | null;
}

export interface CounterfactualReport {
  episodes: CounterfactualResult[];
  /** Episodes where both verdicts exist, and how many of those agree. */
  compared: number;
  agreed: number;
}

/**
 * For each failed (non-error) episode of a plan strategy, re-runs it with one role at a time replaced by the scripted
 * model playing the task's reference (planner, then executor, then replanner), every other role unchanged (with
 * `--cache`, the replaced run's other calls come from the cache wherever the requests are the same). Infrastructure
 * errors in a re-run count as "did not succeed". Never throws for a failing episode.
 */
export async function runCounterfactuals(
  failures: readonly EpisodeLine[],
  tasks: ReadonlyArray<EpisodeTask & ScriptedTask>,
  env: RunEnvironment,
  seed: number,
): Promise<CounterfactualReport> {
  // Plays the reference directly (no naive first): the known-good behaviour of the replaced role.
  const reference = new ScriptedModel(tasks.map((task) => ({ id: task.id, reference: task.reference })));
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const episodes: CounterfactualResult[] = [];
  for (const failure of failures) {
    const strategy = failure.strategy as StrategyName;
    const task = byId.get(failure.task);
    if (!task || !(strategy in STRATEGIES)) continue;
    const roles = COUNTERFACTUAL_ROLES.filter((role) => STRATEGIES[strategy].roles.includes(role));
    if (roles.length === 0) continue; // direct and ReAct: one model does every job, nothing to replace
    const replaced: Partial<Record<Role, boolean>> = {};
    let counterfactual: Role | null = null;
    for (const role of roles) {
      const models: Record<Role, ChatModel> = { ...env.models, [role]: reference };
      const record = await runEpisode({ task, strategy, epoch: failure.epoch, seed: episodeSeed(seed, task.id, strategy, failure.epoch) }, { ...env, models });
      replaced[role] = record.success;
      if (record.success && counterfactual === null) counterfactual = role;
    }
    const component = failure.attribution?.split('.')[0];
    episodes.push({
      task: failure.task,
      strategy,
      epoch: failure.epoch,
      ...(failure.attribution ? { rules: failure.attribution } : {}),
      replaced,
      counterfactual,
      agrees: component === undefined || counterfactual === null ? null : component === counterfactual,
    });
  }
  const compared = episodes.filter((e) => e.agrees !== null);
  return { episodes, compared: compared.length, agreed: compared.filter((e) => e.agrees).length };
}

/** The counterfactual section of the run output. */
export function renderCounterfactuals(report: CounterfactualReport): string {
  const lines = ['', `Counterfactual attribution (${report.episodes.length} failed plan-strategy episode(s); each role replaced by the scripted reference):`];
  for (const e of report.episodes) {
    const tried = Object.entries(e.replaced)
      .map(([role, ok]) => `${role}:${ok ? 'pass' : 'fail'}`)
      .join(' ');
    lines.push(
      `  ${e.strategy.padEnd(18)} ${e.task.padEnd(28)} epoch ${e.epoch}  rules ${e.rules ?? '-'}  counterfactual ${e.counterfactual ?? 'none'}  [${tried}]${e.agrees === null ? '' : e.agrees ? '  agree' : '  DISAGREE'}`,
    );
  }
  const rate = report.compared === 0 ? '-' : `${((100 * report.agreed) / report.compared).toFixed(1)}%`;
  lines.push(`agreement between rules and counterfactual: ${report.agreed}/${report.compared} (${rate}) of episodes where both name a role`);
  return lines.join('\n');
}
