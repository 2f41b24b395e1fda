// Cluster bootstrap over tasks (percentile intervals); the paired sign-flip test is in statistics-sign-flip.ts.
import { DEFAULT_CONFIDENCE, type Interval } from './statistics-intervals.js';
import { percentileIntervals, type TypedTasks } from './statistics-resampling.js';

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
