// Paired comparison of two sets of task outcomes on their shared tasks: difference, interval, p-value, detectable effect.
import { clusterBootstrapMeans, clusterMembers, hasSharedClusters, pairedSignFlipTest, type BootstrapOptions } from './statistics-bootstrap.js';
import { newcombePairedInterval, type Interval, type PairedTable } from './statistics-intervals.js';
import { holmAdjust, mcnemarExact, minimumDetectableEffect } from './statistics-paired-tests.js';
import { collectTaskOutcomes, type EpisodeResult, type TaskOutcome } from './statistics-tasks.js';

/**
 * How the difference's interval was computed: Newcombe's paired score interval (one epoch), the paired cluster
 * bootstrap over tasks (several epochs), or — when every task moved identically so the bootstrap has no spread —
 * Newcombe's interval on the task-level table (`newcombe-tasks`).
 */
export type DifferenceMethod = 'newcombe-paired' | 'paired-cluster-bootstrap' | 'newcombe-tasks';
/** McNemar's exact test (one epoch) or the paired cluster (sign-flip) bootstrap test (several epochs). */
export type PairedTestMethod = 'mcnemar-exact' | 'paired-cluster-bootstrap';

export interface DifferenceEstimate extends Interval {
  method: DifferenceMethod;
}

/** `second − first` on the tasks both sides scored. Rates and differences are fractions. */
export interface PairedComparison {
  first: string;
  second: string;
  /** Shared tasks with at least one scored epoch on each side. */
  tasks: number;
  /** single-epoch when every shared task has exactly one scored epoch on each side. */
  design: 'single-epoch' | 'several-epochs';
  /** pass^1 (mean over shared tasks of c/n) of each side. */
  firstRate: number;
  secondRate: number;
  difference: DifferenceEstimate;
  /**
   * The paired 2×2 table over tasks: counts with one epoch; with several, each task contributes its expected cells
   * under within-task independence (e.g. firstOnly += r₁(1 − r₂)), so cells may be fractional.
   */
  table: PairedTable;
  test: { method: PairedTestMethod; pValue: number; exact: boolean };
  /** Holm-adjusted p over the comparisons of one family; equals test.pValue for a lone comparison. */
  adjustedPValue: number;
  /** Proportion of discordant tasks, (firstOnly + secondOnly) / tasks, used for the minimum detectable effect. */
  discordance: number;
  /** Smallest |difference| detectable at α = 0.05 two-sided with power 0.8 (null: not even 1.0). */
  minimumDetectableEffect: number | null;
  /**
   * Present when shared tasks share families (generated variants): the number of families and the design effect
   * (≥ 1) the minimum detectable effect was inflated by.
   */
  clustering?: { families: number; designEffect: number };
}

/**
 * Kish's design effect of the mean paired difference under clustering: the cluster-robust variance of the mean
 * (CR1-style, C/(C−1) × Σ_c (S_c − m_c·d̄)² / n²) over its independent-tasks variance (s²/n); floored at 1 so a
 * negative within-family correlation never shrinks the detectable effect. 1 when the differences have no spread.
 */
export function designEffect(differences: readonly number[], clusters: readonly string[]): number {
  const n = differences.length;
  const groups = clusterMembers(n, clusters);
  if (n < 2 || groups.length < 2) return 1;
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  const independent = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1) / n;
  if (!(independent > 0)) return 1;
  const between = groups.reduce((sum, group) => sum + group.reduce((inner, t) => inner + (differences[t] as number) - mean, 0) ** 2, 0);
  const clustered = ((groups.length / (groups.length - 1)) * between) / (n * n);
  return Math.max(1, clustered / independent);
}

export interface PairedOptions extends BootstrapOptions {
  firstLabel: string;
  secondLabel: string;
}

const rate = (outcome: TaskOutcome): number => outcome.successes / outcome.epochs;

/**
 * Compares two sides' outcomes task by task (matched on task id; tasks without a scored epoch on either side are left
 * out). One epoch: difference with Newcombe's paired interval, McNemar's exact test. Several epochs: dᵢ = r₂ᵢ − r₁ᵢ
 * per task, the mean of dᵢ with a percentile paired cluster bootstrap interval (tasks resampled with all their
 * epochs), and the wild cluster bootstrap sign-flip test (see pairedSignFlipTest). Minimum detectable effect: Connor
 * 1987 with the observed discordance (see minimumDetectableEffect) — for several epochs this treats each task as one
 * binary pair, so it is conservative. When tasks share families (generated variants), the interval and the test
 * resample and flip families, not tasks, whatever the epochs, and the minimum detectable effect takes the design
 * effect (see designEffect: n / deff effective pairs). Returns null when no task is shared.
 */
export function comparePaired(first: readonly TaskOutcome[], second: readonly TaskOutcome[], options: PairedOptions): PairedComparison | null {
  const secondByTask = new Map(second.filter((outcome) => outcome.epochs > 0).map((outcome) => [outcome.task, outcome]));
  const pairs: [TaskOutcome, TaskOutcome][] = [];
  for (const outcome of first) {
    const other = secondByTask.get(outcome.task);
    if (outcome.epochs > 0 && other) pairs.push([outcome, other]);
  }
  if (pairs.length === 0) return null;
  const tasks = pairs.length;
  const table: PairedTable = { bothPass: 0, firstOnly: 0, secondOnly: 0, bothFail: 0 };
  for (const [a, b] of pairs) {
    const ra = rate(a);
    const rb = rate(b);
    table.bothPass += ra * rb;
    table.firstOnly += ra * (1 - rb);
    table.secondOnly += (1 - ra) * rb;
    table.bothFail += (1 - ra) * (1 - rb);
  }
  const clusters = pairs.map(([a]) => a.family);
  const clustered = hasSharedClusters(clusters);
  const firstRate = pairs.reduce((sum, [a]) => sum + rate(a), 0) / tasks;
  const secondRate = pairs.reduce((sum, [, b]) => sum + rate(b), 0) / tasks;
  const discordance = (table.firstOnly + table.secondOnly) / tasks;
  const differences = pairs.map(([a, b]) => rate(b) - rate(a));
  const deff = clustered ? designEffect(differences, clusters) : 1;
  const minimumDetectable = minimumDetectableEffect({ n: tasks / deff, discordance });
  const singleEpoch = pairs.every(([a, b]) => a.epochs === 1 && b.epochs === 1);
  const base = {
    first: options.firstLabel,
    second: options.secondLabel,
    tasks,
    firstRate,
    secondRate,
    table,
    discordance,
    ...(clustered ? { clustering: { families: new Set(clusters).size, designEffect: deff } } : {}),
  };
  if (singleEpoch && !clustered) {
    const pValue = mcnemarExact(table.firstOnly, table.secondOnly);
    return {
      ...base,
      design: 'single-epoch',
      difference: { ...newcombePairedInterval(table, options.confidence), method: 'newcombe-paired' },
      test: { method: 'mcnemar-exact', pValue, exact: true },
      adjustedPValue: pValue,
      minimumDetectableEffect: minimumDetectable,
    };
  }
  const clusterOption = clustered ? { clusters } : {};
  const [bootstrap] = clusterBootstrapMeans([differences], { ...options, ...clusterOption }) as [ReturnType<typeof clusterBootstrapMeans>[number]];
  const difference: DifferenceEstimate = bootstrap.degenerate
    ? { ...newcombePairedInterval(table, options.confidence), estimate: bootstrap.estimate, method: 'newcombe-tasks' }
    : { estimate: bootstrap.estimate, lower: bootstrap.lower, upper: bootstrap.upper, method: 'paired-cluster-bootstrap' };
  const signFlip = pairedSignFlipTest(differences, { ...options, ...clusterOption });
  return {
    ...base,
    design: singleEpoch ? 'single-epoch' : 'several-epochs',
    difference,
    test: { method: 'paired-cluster-bootstrap', pValue: signFlip.pValue, exact: signFlip.exact },
    adjustedPValue: signFlip.pValue,
    minimumDetectableEffect: minimumDetectable,
  };
}

/** Replaces each comparison's adjustedPValue by Holm's adjustment across the given family. */
export function withHolm(comparisons: readonly PairedComparison[]): PairedComparison[] {
  const adjusted = holmAdjust(comparisons.map((comparison) => comparison.test.pValue));
  return comparisons.map((comparison, index) => ({ ...comparison, adjustedPValue: adjusted[index] as number }));
}

/**
 * Every pair of strategies (in order of first appearance; difference = later − earlier) compared on their shared
 * tasks with comparePaired, Holm-corrected across the pairs. Pairs without a shared task are left out.
 */
export function compareStrategies(episodes: readonly EpisodeResult[], options: BootstrapOptions = {}): PairedComparison[] {
  const outcomes = [...collectTaskOutcomes(episodes).entries()];
  const comparisons: PairedComparison[] = [];
  outcomes.forEach(([firstLabel, first], i) => {
    for (const [secondLabel, second] of outcomes.slice(i + 1)) {
      const comparison = comparePaired(first, second, { ...options, firstLabel, secondLabel });
      if (comparison) comparisons.push(comparison);
    }
  });
  return withHolm(comparisons);
}
