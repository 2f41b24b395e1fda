// Episodes grouped per strategy and task: scored epochs, successes, errors and the task's stability label.
import type { OutcomeStatus } from '../records/index.js';

/** The fields of an EpisodeRecord the statistics read; a full EpisodeRecord satisfies it. */
export interface EpisodeResult {
  task: string;
  /** The template family the task is a variant of (the bootstrap's cluster); absent: the task is its own. */
  family?: string | undefined;
  group: string;
  strategy: string;
  epoch: number;
  success: boolean;
  outcome: { status: OutcomeStatus };
}

/**
 * One strategy's results on one task across epochs. `error` episodes (infrastructure) are counted in `errors` and
 * left out of `epochs`, `successes` and `results`.
 */
export interface TaskOutcome {
  strategy: string;
  task: string;
  /** The task's family, or the task id when it has none: the unit the bootstrap resamples. */
  family: string;
  group: string;
  /** Scored (non-error) episodes. */
  epochs: number;
  successes: number;
  errors: number;
  /** Success of each scored episode, in epoch order. */
  results: boolean[];
}

/**
 * stable-pass: every scored epoch succeeded; stable-fail: none did; flaky: some did; unscored: every episode was an
 * infrastructure error. With a single scored epoch the label is stable-pass or stable-fail by definition.
 */
export type StabilityLabel = 'stable-pass' | 'stable-fail' | 'flaky' | 'unscored';

export interface StabilityCounts {
  stablePass: number;
  stableFail: number;
  flaky: number;
  unscored: number;
}

/** The stability label of one task's outcome (see StabilityLabel). */
export function stabilityLabel(outcome: Pick<TaskOutcome, 'epochs' | 'successes'>): StabilityLabel {
  if (outcome.epochs === 0) return 'unscored';
  if (outcome.successes === outcome.epochs) return 'stable-pass';
  if (outcome.successes === 0) return 'stable-fail';
  return 'flaky';
}

/** How many tasks carry each stability label. */
export function countStability(outcomes: readonly TaskOutcome[]): StabilityCounts {
  const counts: StabilityCounts = { stablePass: 0, stableFail: 0, flaky: 0, unscored: 0 };
  for (const outcome of outcomes) {
    const label = stabilityLabel(outcome);
    switch (label) {
      case 'stable-pass':
        counts.stablePass += 1;
        break;
      case 'stable-fail':
        counts.stableFail += 1;
        break;
      case 'flaky':
        counts.flaky += 1;
        break;
      case 'unscored':
        counts.unscored += 1;
        break;
      default: {
        const unhandled: never = label;
        throw new Error(`unhandled stability label ${String(unhandled)}`);
      }
    }
  }
  return counts;
}

/**
 * Groups episodes by strategy, then task: Map<strategy, TaskOutcome[]>, strategies and tasks in order of first
 * appearance. A repeated (strategy, task, epoch) keeps the last episode. A task's group and family are those of its
 * last episode (family: the task id when absent).
 */
export function collectTaskOutcomes(episodes: readonly EpisodeResult[]): Map<string, TaskOutcome[]> {
  const byStrategy = new Map<string, Map<string, Map<number, EpisodeResult>>>();
  for (const episode of episodes) {
    let byTask = byStrategy.get(episode.strategy);
    if (!byTask) byStrategy.set(episode.strategy, (byTask = new Map()));
    let byEpoch = byTask.get(episode.task);
    if (!byEpoch) byTask.set(episode.task, (byEpoch = new Map()));
    byEpoch.set(episode.epoch, episode);
  }
  const result = new Map<string, TaskOutcome[]>();
  for (const [strategy, byTask] of byStrategy) {
    const outcomes: TaskOutcome[] = [];
    for (const [task, byEpoch] of byTask) {
      const ordered = [...byEpoch.values()].sort((a, b) => a.epoch - b.epoch);
      const scored = ordered.filter((episode) => episode.outcome.status !== 'error');
      const results = scored.map((episode) => episode.success);
      outcomes.push({
        strategy,
        task,
        family: (ordered.at(-1) as EpisodeResult).family ?? task,
        group: (ordered.at(-1) as EpisodeResult).group,
        epochs: scored.length,
        successes: results.filter(Boolean).length,
        errors: ordered.length - scored.length,
        results,
      });
    }
    result.set(strategy, outcomes);
  }
  return result;
}
