// Cluster bootstrap over tasks (percentile intervals) and the paired sign-flip (wild cluster bootstrap) test.
import { DEFAULT_CONFIDENCE, quantileOfSorted, type Interval } from './statistics-intervals.js';
import { createRandom, randomIndex } from './statistics-random.js';

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
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const tasks = values[0]?.length ?? 0;
  for (const [m, metric] of values.entries()) {
    if (metric.length !== tasks) throw new RangeError(`clusterBootstrapMeans: metric ${m} has ${metric.length} tasks, expected ${tasks}`);
    if (!metric.some((value) => !Number.isNaN(value))) throw new RangeError(`clusterBootstrapMeans: metric ${m} has no task`);
  }
  // Memory is O(CHUNK × B), not O(metrics × B): metrics are processed CHUNK at a time and each chunk replays the
  // same seeded index draws, so every metric still sees the identical resamples (a run with 100+ epochs has 200+
  // pass@k/pass^k metrics; B = 10,000 doubles each would be tens of MB).
  // Identical metric vectors (e.g. pass@k = pass^k = c/n for every k on a task that always or never passes)
  // get identical intervals from identical draws: bootstrap each distinct vector once.
  const keyOf = (metric: readonly number[]): string => metric.join(',');
  const distinct = [...new Map(values.map((metric) => [keyOf(metric), metric])).values()];
  const seed = options.seed ?? DEFAULT_SEED;
  const members = clusterMembers(tasks, options.clusters);
  const largest = members.reduce((most, group) => Math.max(most, group.length), 0);
  const indices = new Int32Array(members.length * largest);
  const results: BootstrapInterval[] = [];
  for (let first = 0; first < distinct.length; first += BOOTSTRAP_CHUNK) {
    const chunk = distinct.slice(first, first + BOOTSTRAP_CHUNK);
    const draws = drawBuffers(chunk.length, resamples);
    const counts = chunk.map(() => 0);
    const random = createRandom(seed);
    for (let b = 0; b < resamples; b += 1) {
      let drawn = 0;
      for (let c = 0; c < members.length; c += 1) {
        for (const t of members[randomIndex(random, members.length)] as number[]) indices[drawn++] = t;
      }
      for (let m = 0; m < chunk.length; m += 1) {
        const metric = chunk[m] as readonly number[];
        let sum = 0;
        let present = 0;
        for (let t = 0; t < drawn; t += 1) {
          const value = metric[indices[t] as number] as number;
          if (!Number.isNaN(value)) {
            sum += value;
            present += 1;
          }
        }
        if (present > 0) (draws[m] as Float64Array)[(counts[m] as number)++] = sum / present;
      }
    }
    chunk.forEach((metric, m) => {
      const sorted = (draws[m] as Float64Array).subarray(0, counts[m]).sort();
      const estimate = mean(metric as number[]);
      const present = metric.filter((value) => !Number.isNaN(value));
      const degenerate = present.every((value) => value === present[0]);
      if (sorted.length === 0) results.push({ estimate, lower: estimate, upper: estimate, degenerate });
      else {
        results.push({
          estimate,
          lower: quantileOfSorted(sorted, (1 - confidence) / 2),
          upper: quantileOfSorted(sorted, (1 + confidence) / 2),
          degenerate,
        });
      }
    });
  }
  const byKey = new Map(distinct.map((metric, i) => [keyOf(metric), results[i] as BootstrapInterval]));
  return values.map((metric) => ({ ...(byKey.get(keyOf(metric)) as BootstrapInterval) }));
}

/** Metrics bootstrapped together (bounds memory at BOOTSTRAP_CHUNK × B doubles). */
const BOOTSTRAP_CHUNK = 32;

/** Draw buffers are reused across chunks and calls (a run's statistics make hundreds of calls). */
let buffers: Float64Array[] = [];
function drawBuffers(count: number, resamples: number): Float64Array[] {
  if (buffers[0]?.length !== resamples) buffers = [];
  while (buffers.length < count) buffers.push(new Float64Array(resamples));
  return buffers.slice(0, count);
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
  const random = createRandom(options.seed ?? DEFAULT_SEED);
  let hits = 0;
  const signs = new Int8Array(m);
  for (let b = 0; b < resamples; b += 1) {
    for (let i = 0; i < m; i += 1) signs[i] = random() < 0.5 ? -1 : 1;
    if (atLeastAsExtreme((i) => signs[i] as number)) hits += 1;
  }
  return { pValue: Math.min(1, (1 + hits) / (resamples + 1)), exact: false, informativeTasks: m };
}
