// Cluster bootstrap over tasks (percentile intervals) and the paired sign-flip (wild cluster bootstrap) test.
import { DEFAULT_CONFIDENCE, type Interval } from './statistics-intervals.js';
import { mulberryStateAfter, percentileIntervals, type TypedTasks } from './statistics-resampling.js';

/** Bootstrap resamples used unless told otherwise (issue 5: B = 10,000). */
export const DEFAULT_RESAMPLES = 10_000;
/** Seed used unless told otherwise; every bootstrap is a pure function of its inputs and seed. */
export const DEFAULT_SEED = 1;

export interface BootstrapOptions {
  /** Number of resamples B. */
  resamples?: number;
  seed?: number;
  /** Two-sided confidence level of the percentile interval. */
  confidence?: number;
}

/**
 * The cluster (unit of generation, e.g. a task template's family) of each task, by task index; tasks with the same
 * label are resampled together. Absent: each task is its own cluster.
 */
export interface ClusterOption {
  clusters?: readonly string[] | undefined;
}

/** Task indices grouped by cluster label (in order of first appearance); one group per task when `clusters` is absent. */
export function clusterMembers(tasks: number, clusters: readonly string[] | undefined): number[][] {
  if (clusters === undefined) return Array.from({ length: tasks }, (_, t) => [t]);
  if (clusters.length !== tasks) throw new RangeError(`clusters: ${clusters.length} labels for ${tasks} tasks`);
  const byLabel = new Map<string, number[]>();
  clusters.forEach((label, t) => {
    const members = byLabel.get(label);
    if (members) members.push(t);
    else byLabel.set(label, [t]);
  });
  return [...byLabel.values()];
}

/** Whether some cluster holds more than one task (otherwise clustering changes nothing). */
export function hasSharedClusters(clusters: readonly string[] | undefined): boolean {
  return clusters !== undefined && new Set(clusters).size < clusters.length;
}

/** A bootstrap interval; `degenerate` when every task had the same value, so the resamples have no spread. */
export interface BootstrapInterval extends Interval {
  degenerate: boolean;
}

function mean(values: readonly number[]): number {
  const present = values.filter((value) => !Number.isNaN(value));
  return present.reduce((sum, value) => sum + value, 0) / present.length;
}

/**
 * Cluster bootstrap of task-level means (Efron & Tibshirani 1993, "An Introduction to the Bootstrap", ch. 13:
 * percentile interval; Field & Welsh 2007 for resampling clusters). `values[m][t]` is metric m's value for task t
 * (e.g. the task's c/n, or its pass^k), NaN when task t does not count for metric m. Each of B resamples draws T
 * task indices with replacement — one draw for all metrics, so all epochs of a task and all metrics travel
 * together — and takes each metric's mean over the drawn tasks. With `clusters` (e.g. the family of each generated
 * task; Miller 2024, "Adding Error Bars to Evals", §2.2: cluster on the unit of generation), each resample draws
 * as many clusters as there are, with replacement, and takes every task of each drawn cluster. Returns, per metric,
 * the mean over its tasks and the (1−confidence)/2 and (1+confidence)/2 quantiles of the resampled means.
 * Deterministic given the seed. Throws RangeError when a metric has no task.
 */
export function clusterBootstrapMeans(values: readonly (readonly number[])[], options: BootstrapOptions & ClusterOption = {}): BootstrapInterval[] {
  return clusterBootstrapMeansMany([{ values, clusters: options.clusters }], options)[0] as BootstrapInterval[];
}

/** One clusterBootstrapMeans call of a batch. */
export interface BootstrapRequest extends ClusterOption {
  values: readonly (readonly number[])[];
}

/**
 * clusterBootstrapMeans for several requests at once, each with identical results to a call of its own (the seeded
 * draws restart per request); requests with as many clusters share one stream of draws (statistics-resampling.ts).
 * Throws RangeError as clusterBootstrapMeans does.
 */
export function clusterBootstrapMeansMany(requests: readonly BootstrapRequest[], options: BootstrapOptions = {}): BootstrapInterval[][] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const prepared = requests.map((request) => typedRequest(request));
  const intervals = percentileIntervals(
    prepared.map((request) => request.tasks),
    { resamples, seed: options.seed ?? DEFAULT_SEED, confidence },
  );
  return prepared.map((request, r) => {
    const results = request.distinct.map((metric, m): BootstrapInterval => {
      const estimate = mean(metric as number[]);
      const present = metric.filter((value) => !Number.isNaN(value));
      const degenerate = present.every((value) => value === present[0]);
      const interval = intervals[r]?.[m];
      return interval ? { estimate, lower: interval[0], upper: interval[1], degenerate } : { estimate, lower: estimate, upper: estimate, degenerate };
    });
    const byKey = new Map(request.distinct.map((metric, i) => [request.keyOf(metric), results[i] as BootstrapInterval]));
    return request.values.map((metric) => ({ ...(byKey.get(request.keyOf(metric)) as BootstrapInterval) }));
  });
}

/** A request as tasks typed by their values over its distinct metrics, clusters in order of first appearance. */
function typedRequest({ values, clusters }: BootstrapRequest) {
  const tasks = values[0]?.length ?? 0;
  for (const [m, metric] of values.entries()) {
    if (metric.length !== tasks) throw new RangeError(`clusterBootstrapMeans: metric ${m} has ${metric.length} tasks, expected ${tasks}`);
    if (!metric.some((value) => !Number.isNaN(value))) throw new RangeError(`clusterBootstrapMeans: metric ${m} has no task`);
  }
  // Identical metric vectors (e.g. pass@k = pass^k = c/n for every k on a task that always or never passes) get
  // identical intervals from identical draws: bootstrap each distinct vector once.
  const keyOf = (metric: readonly number[]): string => metric.join(',');
  const distinct = [...new Map(values.map((metric) => [keyOf(metric), metric])).values()];
  const members = clusterMembers(tasks, clusters);
  const clusterStarts = new Int32Array(members.length + 1);
  members.forEach((group, c) => {
    clusterStarts[c + 1] = (clusterStarts[c] as number) + group.length;
  });
  // A task's type is the tuple of its values over the distinct metrics: the resampling counts types, not tasks.
  const typeOfTask = new Int32Array(tasks);
  const typeByKey = new Map<string, number>();
  const representatives: number[] = [];
  for (let t = 0; t < tasks; t += 1) {
    const key = distinct.length === 1 ? String((distinct[0] as readonly number[])[t]) : distinct.map((metric) => metric[t]).join(',');
    let type = typeByKey.get(key);
    if (type === undefined) {
      type = representatives.length;
      typeByKey.set(key, type);
      representatives.push(t);
    }
    typeOfTask[t] = type;
  }
  const typed: TypedTasks = {
    clusterStarts,
    clusterTasks: Int32Array.from(members.flat()),
    typeOfTask,
    values: distinct.map((metric) => Float64Array.from(representatives, (t) => metric[t] as number)),
  };
  return { values, distinct, keyOf, tasks: typed };
}

export interface SignFlipResult {
  pValue: number;
  exact: boolean;
  /** Tasks with a non-zero difference (the others cannot change the statistic). */
  informativeTasks: number;
}

/**
 * Two-sided test of "no difference" for paired task-level differences dᵢ (second − first success rate of task i):
 * the wild cluster bootstrap with Rademacher weights under the null (Cameron, Gelbach & Miller 2008, "Bootstrap-based
 * improvements for inference with clustered errors", Rev Econ Stat 90:414), which for a mean difference is the
 * paired sign-flip randomisation test (Fisher 1935; Good 2005, "Permutation, Parametric and Bootstrap Tests", §3.1):
 *   p = P(|Σ sᵢdᵢ| ≥ |Σ dᵢ|) over independent signs sᵢ = ±1.
 * With m non-zero differences, all 2^m sign patterns are enumerated when 2^m ≤ B (an exact p); otherwise B patterns
 * are drawn with the seeded generator and p = (1 + hits) / (B + 1) (Davison & Hinkley 1997, eq. 4.11). With one
 * epoch (dᵢ ∈ {−1, 0, 1}) the exact version equals McNemar's exact test. p = 1 when every dᵢ is 0. With `clusters`,
 * one sign per cluster multiplies the sum of its tasks' differences (the wild cluster bootstrap proper);
 * `informativeTasks` then counts clusters.
 */
export function pairedSignFlipTest(differences: readonly number[], options: Omit<BootstrapOptions, 'confidence'> & ClusterOption = {}): SignFlipResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const summed = hasSharedClusters(options.clusters)
    ? clusterMembers(differences.length, options.clusters).map((group) => group.reduce((sum, t) => sum + (differences[t] as number), 0))
    : differences;
  const informative = summed === differences ? differences.filter((difference) => difference !== 0) : summed.filter((sum) => Math.abs(sum) > 1e-12);
  const m = informative.length;
  if (m === 0) return { pValue: 1, exact: true, informativeTasks: 0 };
  const observed = Math.abs(informative.reduce((sum, difference) => sum + difference, 0));
  const tolerance = 1e-9 * Math.max(1, observed);
  const atLeastAsExtreme = (signs: (index: number) => number): boolean => {
    let sum = 0;
    for (let i = 0; i < m; i += 1) sum += signs(i) * (informative[i] as number);
    return Math.abs(sum) >= observed - tolerance;
  };
  if (2 ** m <= resamples) {
    let hits = 0;
    const patterns = 2 ** m;
    for (let pattern = 0; pattern < patterns; pattern += 1) {
      if (atLeastAsExtreme((i) => ((pattern >> i) & 1 ? -1 : 1))) hits += 1;
    }
    return { pValue: hits / patterns, exact: true, informativeTasks: m };
  }
  // createRandom(seed) inlined: one draw per sign, sign −1 when the draw is below 0.5, summed in task order.
  const values = Float64Array.from(informative);
  let state = mulberryStateAfter(options.seed ?? DEFAULT_SEED, 0);
  let hits = 0;
  const threshold = observed - tolerance;
  for (let b = 0; b < resamples; b += 1) {
    let sum = 0;
    for (let i = 0; i < m; i += 1) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      // The draw (t ^ t >>> 14) / 2³² is below 0.5 exactly when bit 31 of t is 0: sign −1 then, +1 otherwise
      // (multiplying by ±1 is exact, and no branch to mispredict).
      sum += -((t >> 31) | 1) * (values[i] as number);
    }
    if (Math.abs(sum) >= threshold) hits += 1;
  }
  return { pValue: Math.min(1, (1 + hits) / (resamples + 1)), exact: false, informativeTasks: m };
}
