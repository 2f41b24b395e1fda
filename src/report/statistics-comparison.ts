// Paired comparison of two sets of task outcomes on their shared tasks: difference, interval, p-value, detectable effect.
import {
  type BootstrapInterval,
  type BootstrapOptions,
  type BootstrapRequest,
  clusterBootstrapMeansMany,
  clusterMembers,
  hasSharedClusters,
} from './statistics-bootstrap.js';
import { pairedSignFlipTests, type SignFlipRequest, type SignFlipResult } from './statistics-sign-flip.js';
import { newcombePairedInterval, type Interval, type PairedTable } from './statistics-intervals.js';
import { holmAdjust, mcnemarExact, minimumDetectableEffect } from './statistics-paired-tests.js';
import type { StatisticsInput } from './result-columns.js';
import { collectTaskOutcomes, type TaskOutcome } from './statistics-tasks.js';

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
  return compareMany([{ first, second, firstLabel: options.firstLabel, secondLabel: options.secondLabel }], options)[0] ?? null;
}

/** A comparison waiting for its bootstrap interval and sign-flip test (request null: final already). */
interface PreparedComparison {
  result: PairedComparison | null;
  request: BootstrapRequest | null;
  signFlip: SignFlipRequest | null;
  finish(interval: BootstrapInterval, signFlip: SignFlipResult): PairedComparison;
}

/**
 * comparePaired for several pairs at once, in order, null where a pair shares no task (their bootstraps share draws;
 * identical results to one call each). Not Holm-adjusted.
 */
export function compareMany(
  pairs: readonly { first: readonly TaskOutcome[]; second: readonly TaskOutcome[]; firstLabel: string; secondLabel: string }[],
  options: BootstrapOptions = {},
): (PairedComparison | null)[] {
  const prepared = pairs.map((pair) => preparePaired(pair.first, pair.second, { ...options, firstLabel: pair.firstLabel, secondLabel: pair.secondLabel }));
  const waiting = prepared.filter((item): item is PreparedComparison => item !== null && item.request !== null);
  const intervals = clusterBootstrapMeansMany(
    waiting.map((item) => item.request as BootstrapRequest),
    options,
  );
  // The sign-flip tests of all pairs read one stream of seeded signs (statistics-sign-flip.ts).
  const signFlips = pairedSignFlipTests(
    waiting.map((item) => item.signFlip as SignFlipRequest),
    options,
  );
  const byItem = new Map(waiting.map((item, i) => [item, i]));
  return prepared.map((item) => {
    if (item === null) return null;
    const i = byItem.get(item);
    return i === undefined ? item.result : item.finish((intervals[i] as BootstrapInterval[])[0] as BootstrapInterval, signFlips[i] as SignFlipResult);
  });
}

function preparePaired(first: readonly TaskOutcome[], second: readonly TaskOutcome[], options: PairedOptions): PreparedComparison | null {
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
    const result: PairedComparison = {
      ...base,
      design: 'single-epoch',
      difference: { ...newcombePairedInterval(table, options.confidence), method: 'newcombe-paired' },
      test: { method: 'mcnemar-exact', pValue, exact: true },
      adjustedPValue: pValue,
      minimumDetectableEffect: minimumDetectable,
    };
    return { result, request: null, signFlip: null, finish: () => result };
  }
  return {
    result: null,
    request: { values: [differences], clusters: clustered ? clusters : undefined },
    signFlip: { differences, clusters: clustered ? clusters : undefined },
    finish(bootstrap, signFlip) {
      const difference: DifferenceEstimate = bootstrap.degenerate
        ? { ...newcombePairedInterval(table, options.confidence), estimate: bootstrap.estimate, method: 'newcombe-tasks' }
        : { estimate: bootstrap.estimate, lower: bootstrap.lower, upper: bootstrap.upper, method: 'paired-cluster-bootstrap' };
      return {
        ...base,
        design: singleEpoch ? 'single-epoch' : 'several-epochs',
        difference,
        test: { method: 'paired-cluster-bootstrap', pValue: signFlip.pValue, exact: signFlip.exact },
        adjustedPValue: signFlip.pValue,
        minimumDetectableEffect: minimumDetectable,
      };
    },
  };
}

/** Replaces each comparison's adjustedPValue by Holm's adjustment across the given family. */
export function withHolm(comparisons: readonly PairedComparison[]): PairedComparison[] {
  const adjusted = holmAdjust(comparisons.map((comparison) => comparison.test.pValue));
  return comparisons.map((comparison, index) => ({ ...comparison, adjustedPValue: adjusted[index] as number }));
}

/** Strategies up to which every pair is compared by default; beyond, each strategy against the first (the baseline). */
export const ALL_PAIRS_UP_TO = 6;

/** Which strategy pairs to compare: [first, second] (difference = second − first). */
export interface PairsOption {
  pairs?: readonly (readonly [string, string])[] | undefined;
}

/**
 * The pairs compared: `requested` as given (each strategy must be in `strategies`, two different ones, no pair
 * twice in either order), else every pair (earlier, later) when there are at most ALL_PAIRS_UP_TO strategies, else
 * (first strategy, each other) — 11 pairs instead of 66 for 12 strategies. Throws RangeError naming a bad pair.
 */
export function selectPairs(strategies: readonly string[], requested?: readonly (readonly [string, string])[]): [string, string][] {
  if (requested === undefined) {
    if (strategies.length <= ALL_PAIRS_UP_TO)
      return strategies.flatMap((first, i) => strategies.slice(i + 1).map((second): [string, string] => [first, second]));
    const [baseline, ...others] = strategies;
    return others.map((second): [string, string] => [baseline as string, second]);
  }
  const known = new Set(strategies);
  const seen = new Set<string>();
  return requested.map(([first, second]): [string, string] => {
    for (const name of [first, second]) {
      if (!known.has(name)) throw new RangeError(`pair ${first}:${second}: no strategy "${name}" in these results (strategies: ${strategies.join(', ')})`);
    }
    if (first === second) throw new RangeError(`pair ${first}:${second}: a strategy cannot be compared with itself`);
    const key = [first, second].sort().join('\u0000');
    if (seen.has(key)) throw new RangeError(`pair ${first}:${second}: asked for twice`);
    seen.add(key);
    return [first, second];
  });
}

/**
 * The chosen pairs of strategies (see selectPairs; default: every pair in order of first appearance, difference =
 * later − earlier, up to ALL_PAIRS_UP_TO strategies) compared on their shared tasks with comparePaired,
 * Holm-corrected across the pairs compared. Pairs without a shared task are left out. Throws RangeError for a bad
 * requested pair.
 */
export function compareStrategies(input: StatisticsInput, options: BootstrapOptions & PairsOption = {}): PairedComparison[] {
  const outcomes = collectTaskOutcomes(input);
  const pairs = selectPairs([...outcomes.keys()], options.pairs).map(([firstLabel, secondLabel]) => ({
    first: outcomes.get(firstLabel) as TaskOutcome[],
    second: outcomes.get(secondLabel) as TaskOutcome[],
    firstLabel,
    secondLabel,
  }));
  return withHolm(compareMany(pairs, options).filter((comparison): comparison is PairedComparison => comparison !== null));
}
