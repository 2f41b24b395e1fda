// summarise(): success rate, pass@k and pass^k with intervals, and stability counts per strategy and per group.
import {
  type BootstrapInterval,
  type BootstrapOptions,
  type BootstrapRequest,
  clusterBootstrapMeansMany,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  hasSharedClusters,
} from './statistics-bootstrap.js';
import { DEFAULT_CONFIDENCE, wilsonInterval, type Interval } from './statistics-intervals.js';
import { passAtK, passHatK } from './statistics-pass-k.js';
import type { StatisticsInput } from './result-columns.js';
import { collectTaskOutcomes, countStability, type StabilityCounts, type TaskOutcome } from './statistics-tasks.js';

/**
 * wilson: one epoch, Wilson interval on successes / scored episodes. cluster-bootstrap: several epochs, percentile
 * cluster bootstrap over tasks. wilson-tasks: several epochs but every task had the same value (e.g. all stable-pass),
 * so the bootstrap has no spread; Wilson on the task count instead (the effective sample size when the epochs of a
 * task agree, Kish's design effect at its maximum).
 */
export type RateMethod = 'wilson' | 'cluster-bootstrap' | 'wilson-tasks';

export interface RateEstimate extends Interval {
  method: RateMethod;
}

/** pass@k and pass^k for one k, over the `tasks` tasks with at least k scored epochs. */
export interface PassKEstimate {
  k: number;
  tasks: number;
  passAtK: RateEstimate;
  passHatK: RateEstimate;
}

/** One strategy's results, overall (`group: null`) or within one group. */
export interface RateSummary {
  strategy: string;
  group: string | null;
  /** All episodes, error episodes included. */
  episodes: number;
  /** Infrastructure errors, excluded from every rate. */
  errors: number;
  /** Episodes that count: episodes − errors. */
  scored: number;
  successes: number;
  /** Tasks with at least one scored epoch. */
  tasks: number;
  /** Families those tasks belong to (a task without a family counts as its own): the bootstrap's clusters. */
  families: number;
  /** Most scored epochs of any task (N, the largest k). */
  epochs: number;
  /** pass^1: the mean over tasks of c/n (= successes / scored when every task has the same n); null if nothing scored. */
  successRate: RateEstimate | null;
  /** k = 1 … epochs. */
  passK: PassKEstimate[];
  stability: StabilityCounts;
}

export interface StatisticsSummary {
  confidence: number;
  resamples: number;
  seed: number;
  strategies: RateSummary[];
  groups: RateSummary[];
}

/** A bootstrap interval as a rate; with no spread, Wilson on `units` (tasks, or families when they cluster the tasks). */
function fromBootstrap(interval: BootstrapInterval, units: number, confidence: number): RateEstimate {
  if (!interval.degenerate) return { estimate: interval.estimate, lower: interval.lower, upper: interval.upper, method: 'cluster-bootstrap' };
  const wilson = wilsonInterval(interval.estimate * units, units, confidence);
  return { ...wilson, estimate: interval.estimate, method: 'wilson-tasks' };
}

/** A summary waiting for its bootstrap: `request` null when it needs none (then `summary` is final). */
interface PreparedSummary {
  summary: RateSummary;
  request: BootstrapRequest | null;
  finish(intervals: BootstrapInterval[]): RateSummary;
}

/**
 * Rates of one set of task outcomes. With one epoch per task and no shared family: Wilson on successes / scored.
 * Otherwise: per-task c/n, pass@k and pass^k (k = 1 … N; a task counts for k only if it has ≥ k scored epochs)
 * averaged over tasks, with percentile intervals from one cluster bootstrap shared by all metrics — over families
 * when tasks share one (variants of a template are not independent), else over tasks.
 */
export function summariseOutcomes(strategy: string, group: string | null, outcomes: readonly TaskOutcome[], options: BootstrapOptions = {}): RateSummary {
  return summariseMany([{ strategy, group, outcomes }], options)[0] as RateSummary;
}

/** summariseOutcomes of several sets at once (their bootstraps share draws; identical results). */
export function summariseMany(
  sets: readonly { strategy: string; group: string | null; outcomes: readonly TaskOutcome[] }[],
  options: BootstrapOptions = {},
): RateSummary[] {
  const prepared = sets.map(({ strategy, group, outcomes }) => prepareSummary(strategy, group, outcomes, options));
  const waiting = prepared.filter((item) => item.request !== null);
  const intervals = clusterBootstrapMeansMany(
    waiting.map((item) => item.request as BootstrapRequest),
    options,
  );
  const byItem = new Map(waiting.map((item, i) => [item, intervals[i] as BootstrapInterval[]]));
  return prepared.map((item) => {
    const found = byItem.get(item);
    return found ? item.finish(found) : item.summary;
  });
}

function prepareSummary(strategy: string, group: string | null, outcomes: readonly TaskOutcome[], options: BootstrapOptions): PreparedSummary {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const scoredTasks = outcomes.filter((outcome) => outcome.epochs > 0);
  const scored = outcomes.reduce((sum, outcome) => sum + outcome.epochs, 0);
  const successes = outcomes.reduce((sum, outcome) => sum + outcome.successes, 0);
  const errors = outcomes.reduce((sum, outcome) => sum + outcome.errors, 0);
  let epochs = 0;
  for (const outcome of scoredTasks) epochs = Math.max(epochs, outcome.epochs);
  const summary: RateSummary = {
    strategy,
    group,
    episodes: scored + errors,
    errors,
    scored,
    successes,
    tasks: scoredTasks.length,
    families: new Set(scoredTasks.map((outcome) => outcome.family)).size,
    epochs,
    successRate: null,
    passK: [],
    stability: countStability(outcomes),
  };
  const done = (final: RateSummary): PreparedSummary => ({ summary: final, request: null, finish: () => final });
  if (scoredTasks.length === 0) return done(summary);
  const clusters = scoredTasks.map((outcome) => outcome.family);
  const clustered = hasSharedClusters(clusters);
  if (epochs === 1 && !clustered) {
    const rate: RateEstimate = { ...wilsonInterval(successes, scored, confidence), method: 'wilson' };
    return done({ ...summary, successRate: rate, passK: [{ k: 1, tasks: scoredTasks.length, passAtK: rate, passHatK: rate }] });
  }
  const ks = passKSteps(epochs);
  const metrics: number[][] = [];
  for (const k of ks) {
    metrics.push(scoredTasks.map((o) => (o.epochs >= k ? passAtK(o.epochs, o.successes, k) : Number.NaN)));
    metrics.push(scoredTasks.map((o) => (o.epochs >= k ? passHatK(o.epochs, o.successes, k) : Number.NaN)));
  }
  return {
    summary,
    request: { values: metrics, clusters: clustered ? clusters : undefined },
    finish(intervals) {
      const passK = ks.map((k, index): PassKEstimate => {
        const counted = scoredTasks.filter((outcome) => outcome.epochs >= k);
        const units = clustered ? new Set(counted.map((outcome) => outcome.family)).size : counted.length;
        return {
          k,
          tasks: counted.length,
          passAtK: fromBootstrap(intervals[2 * index] as BootstrapInterval, units, confidence),
          passHatK: fromBootstrap(intervals[2 * index + 1] as BootstrapInterval, units, confidence),
        };
      });
      return { ...summary, successRate: (passK[0] as PassKEstimate).passHatK, passK };
    },
  };
}

/**
 * Summarises episodes (ResultColumns, or EpisodeRecord[] / anything with their outcome fields) per strategy and per
 * strategy × group: episode, error and success counts, success rate (pass^1) with a 95% interval (Wilson for one
 * epoch, cluster bootstrap over tasks for several), pass@k and pass^k for k = 1 … N with intervals, and stability
 * counts. Deterministic given options.seed (default 1); B = options.resamples (default 10,000).
 */
export function summarise(input: StatisticsInput, options: BootstrapOptions = {}): StatisticsSummary {
  const byStrategy = collectTaskOutcomes(input);
  const sets: { strategy: string; group: string | null; outcomes: readonly TaskOutcome[] }[] = [];
  const isGroup: boolean[] = [];
  for (const [strategy, outcomes] of byStrategy) {
    sets.push({ strategy, group: null, outcomes });
    isGroup.push(false);
    const groupNames = [...new Set(outcomes.map((outcome) => outcome.group))];
    for (const group of groupNames) {
      sets.push({ strategy, group, outcomes: outcomes.filter((outcome) => outcome.group === group) });
      isGroup.push(true);
    }
  }
  const summaries = summariseMany(sets, options);
  return {
    confidence: options.confidence ?? DEFAULT_CONFIDENCE,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    seed: options.seed ?? DEFAULT_SEED,
    strategies: summaries.filter((_, i) => !isGroup[i]),
    groups: summaries.filter((_, i) => isGroup[i]),
  };
}

/**
 * The k at which pass@k and pass^k are estimated for `epochs` epochs: every k up to 10, then 20, 50, 100, 200, 500,
 * 1,000, and always k = epochs (the table's pass^n). One row per k up to 1,000 epochs made most of summary.json
 * (5 MB at 70,000 episodes) and of the statistics time; between those k the curve is smooth (binomial in k).
 */
export function passKSteps(epochs: number): number[] {
  const steps = new Set<number>();
  for (let k = 1; k <= Math.min(10, epochs); k++) steps.add(k);
  for (const k of [20, 50, 100, 200, 500, 1000]) if (k <= epochs) steps.add(k);
  if (epochs >= 1) steps.add(epochs);
  return [...steps].sort((a, b) => a - b);
}
