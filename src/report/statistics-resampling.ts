// The cluster bootstrap's inner loop on sufficient statistics: per-replicate counts of task types, exact percentiles.
import { DEFAULT_CONFIDENCE } from './statistics-intervals.js';

/**
 * Tasks as the resampling sees them: clusters in compressed rows (cluster c holds tasks clusterTasks[clusterStarts[c]
 * … clusterStarts[c + 1] − 1], in order), and each task's type — tasks of one type have the same value on every
 * metric, so a replicate is summarised by how many tasks of each type it drew.
 */
export interface TypedTasks {
  clusterStarts: Int32Array;
  clusterTasks: Int32Array;
  typeOfTask: Int32Array;
  /** `values[m][type]`: metric m's value for a task of that type; NaN when such a task does not count for m. */
  values: readonly Float64Array[];
}

export interface PercentileOptions {
  resamples: number;
  seed: number;
  confidence?: number | undefined;
}

const GOLDEN_GAMMA = 0x6d2b79f5;
const TWO_TO_32 = 4294967296;

/** mulberry32's output for a state already advanced (createRandom in statistics-random.ts, inlined for speed). */
function mulberryOutput(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / TWO_TO_32;
}

/** createRandom(seed)'s state after `calls` draws (the state moves by a constant step, so any replicate can be replayed). */
export function mulberryStateAfter(seed: number, calls: number): number {
  return ((Math.trunc(seed) >>> 0) + Math.imul(calls % TWO_TO_32, GOLDEN_GAMMA)) >>> 0;
}

/**
 * A job's clusters by signature: clusters holding the same multiset of task types share a signature, so a replicate
 * counts signatures (one increment per drawn cluster) and expands each drawn signature into its types once.
 */
interface ClusterTypes {
  /** The signature of each cluster. */
  signature: Int32Array;
  /** Signature s holds signatureCounts[k] tasks of type signatureTypes[k], k in signatureStarts[s] … [s + 1] − 1. */
  signatureStarts: Int32Array;
  signatureTypes: Int32Array;
  signatureCounts: Float64Array;
  largest: number;
}

function clusterTypesOf(tasks: TypedTasks): ClusterTypes {
  const clusters = tasks.clusterStarts.length - 1;
  const types = tasks.values[0]?.length ?? 0;
  const signature = new Int32Array(clusters);
  const bySignature = new Map<string, number>();
  const starts = [0];
  const signatureTypes: number[] = [];
  const signatureCounts: number[] = [];
  const scratch = new Int32Array(types);
  let largest = 0;
  for (let c = 0; c < clusters; c += 1) {
    const from = tasks.clusterStarts[c] as number;
    const to = tasks.clusterStarts[c + 1] as number;
    largest = Math.max(largest, to - from);
    const seen: number[] = [];
    for (let j = from; j < to; j += 1) {
      const type = tasks.typeOfTask[tasks.clusterTasks[j] as number] as number;
      if (scratch[type] === 0) seen.push(type);
      scratch[type] = (scratch[type] as number) + 1;
    }
    seen.sort((x, y) => x - y);
    const counts = seen.map((type) => scratch[type] as number);
    for (const type of seen) scratch[type] = 0;
    const key = to - from === 1 ? String(seen[0]) : `${seen.join(',')}/${counts.join(',')}`;
    let id = bySignature.get(key);
    if (id === undefined) {
      id = starts.length - 1;
      bySignature.set(key, id);
      signatureTypes.push(...seen);
      signatureCounts.push(...counts);
      starts.push(signatureTypes.length);
    }
    signature[c] = id;
  }
  return {
    signature,
    signatureStarts: Int32Array.from(starts),
    signatureTypes: Int32Array.from(signatureTypes),
    signatureCounts: Float64Array.from(signatureCounts),
    largest,
  };
}

/** Replicate means buffered per job (bounds memory at MAX_BUFFERED_METRICS × B doubles: 20 MB at B = 10,000). */
const MAX_BUFFERED_METRICS = 256;

/**
 * The percentile interval of each metric's mean over B cluster-bootstrap replicates, for several jobs at once: per
 * job and metric, [lower, upper], or null when no replicate drew a task that counts for the metric. Numerically
 * identical to bootstrapping each job alone the reference way: createRandom(seed) restarted per job, C draws of
 * randomIndex per replicate (C = the job's clusters), each drawn task's value summed in draw order, the mean of the
 * tasks that count. Jobs with the same C draw the same clusters, so the draws are made once per replicate and shared.
 * Cost: O(B × (C + jobs × (C + types × metrics))) instead of O(B × jobs × drawn tasks × metrics).
 *
 * Exactness: a replicate's mean is computed from its type counts (Σ count × value / present). When every value is a
 * multiple of 2⁻²⁰ (0/1 results, halves, quarters…) every partial sum is exact, so that is the task-by-task sum. Otherwise
 * the two differ by at most ε = (drawn + types + 8) · 2⁻⁵¹ · max|value|; an order statistic of the task-by-task means
 * then lies within ε of the same order statistic of the type-count means, so only the replicates within 2ε of the
 * needed order statistics are replayed task by task (mulberryStateAfter) and ranked exactly.
 */
export function percentileIntervals(jobs: readonly TypedTasks[], options: PercentileOptions): ([number, number] | null)[][] {
  const results: ([number, number] | null)[][] = jobs.map(() => []);
  const byClusters = new Map<number, number[]>();
  jobs.forEach((job, j) => {
    const clusters = job.clusterStarts.length - 1;
    const same = byClusters.get(clusters);
    if (same) same.push(j);
    else byClusters.set(clusters, [j]);
  });
  for (const [clusters, members] of byClusters) {
    let batch: number[] = [];
    let buffered = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      const intervals = sharedBootstrap(
        batch.map((j) => jobs[j] as TypedTasks),
        clusters,
        options,
      );
      batch.forEach((j, i) => {
        results[j] = intervals[i] as ([number, number] | null)[];
      });
      batch = [];
      buffered = 0;
    };
    for (const j of members) {
      const metrics = (jobs[j] as TypedTasks).values.length;
      if (buffered + metrics > MAX_BUFFERED_METRICS) flush();
      batch.push(j);
      buffered += metrics;
    }
    flush();
  }
  return results;
}

/**
 * Jobs whose signatures are counted together: each drawn cluster costs one increment of its joint signature (the
 * tuple of its signatures in the bundle's jobs) instead of one per job; after the draws each joint signature's count
 * is added to the signature of each job it stands for. Integer counts, so every job's counts are the same either way.
 */
interface Bundle {
  /** The joint signature of each cluster, 0 … joints − 1. */
  jointOf: Int32Array;
  joints: number;
  /** slotOfJoint[d × jobs.length + k]: the shared-histogram slot (base + signature) of the bundle's k-th job in joint d. */
  slotOfJoint: Int32Array;
  jobs: number[];
}

/** Remaining jobs a bundle looks at when choosing its next job (keeps bundling O(jobs × window × clusters)). */
const BUNDLE_WINDOW = 16;

/**
 * The jobs in bundles, greedily: a bundle takes, among the next BUNDLE_WINDOW remaining jobs, the one adding fewest
 * joint signatures while that costs less than a bundle of its own — the cost of a bundle per replicate being one
 * increment per cluster plus one addition per joint signature and job (jobs sharing their strategies' outcomes, e.g.
 * the differences a − b, a − c and b − c, have few joint signatures together).
 */
function bundleJobs(shapes: readonly ClusterTypes[], bases: Int32Array, clusters: number): Bundle[] {
  const remaining = shapes.map((_, j) => j);
  const bundles: Bundle[] = [];
  const signaturesOf = (j: number): number => (shapes[j] as ClusterTypes).signatureStarts.length - 1;
  while (remaining.length > 0) {
    const first = remaining.shift() as number;
    const jobs = [first];
    let jointOf: Int32Array = Int32Array.from((shapes[first] as ClusterTypes).signature);
    let joints = signaturesOf(first);
    for (;;) {
      let best: { index: number; jointOf: Int32Array; joints: number } | undefined;
      for (let index = 0; index < Math.min(BUNDLE_WINDOW, remaining.length); index += 1) {
        const candidate = shapes[remaining[index] as number] as ClusterTypes;
        const joined = joinSignatures(jointOf, candidate.signature, signaturesOf(remaining[index] as number));
        if (best === undefined || joined.joints < best.joints) best = { index, ...joined };
      }
      if (best === undefined) break;
      const job = remaining[best.index] as number;
      const together = best.joints * (jobs.length + 1);
      const apart = joints * jobs.length + clusters + signaturesOf(job);
      if (together > apart) break;
      jobs.push(job);
      remaining.splice(best.index, 1);
      jointOf = best.jointOf;
      joints = best.joints;
    }
    const slotOfJoint = new Int32Array(joints * jobs.length);
    for (let c = 0; c < clusters; c += 1) {
      const d = jointOf[c] as number;
      jobs.forEach((j, k) => {
        slotOfJoint[d * jobs.length + k] = (bases[j] as number) + ((shapes[j] as ClusterTypes).signature[c] as number);
      });
    }
    bundles.push({ jointOf, joints, slotOfJoint, jobs });
  }
  return bundles;
}

/** Joint signatures of (joint, signature) per cluster, numbered in order of first appearance. */
function joinSignatures(jointOf: Int32Array, signature: Int32Array, signatures: number): { jointOf: Int32Array; joints: number } {
  const ids = new Map<number, number>();
  const joined = new Int32Array(jointOf.length);
  for (let c = 0; c < jointOf.length; c += 1) {
    const key = (jointOf[c] as number) * signatures + (signature[c] as number);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    joined[c] = id;
  }
  return { jointOf: joined, joints: ids.size };
}

/** percentileIntervals for jobs that all have `clusters` clusters: one stream of draws, every job's counts from it. */
function sharedBootstrap(jobs: readonly TypedTasks[], clusters: number, options: PercentileOptions): ([number, number] | null)[][] {
  const resamples = options.resamples;
  const shapes = jobs.map(clusterTypesOf);
  const histograms = jobs.map((job) => new Float64Array(job.values[0]?.length ?? 0));
  const means = jobs.map((job) => job.values.map(() => new Float64Array(resamples)));
  // Each job's signature counts live in one shared Int32 histogram (job j's from bases[j]).
  const bases = new Int32Array(jobs.length + 1);
  shapes.forEach((shape, j) => {
    bases[j + 1] = (bases[j] as number) + shape.signatureStarts.length - 1;
  });
  const shared = new Int32Array(bases[jobs.length] as number);
  // Every bundle counts its clusters' joint signatures into one Int32 array, cluster-major: consecutive increments
  // go to different bundles, so they do not wait on each other.
  const bundles = bundleJobs(shapes, bases, clusters);
  const width = bundles.length;
  const jointBases = new Int32Array(width + 1);
  bundles.forEach((bundle, b) => {
    jointBases[b + 1] = (jointBases[b] as number) + bundle.joints;
  });
  const slots = new Int32Array(clusters * width);
  bundles.forEach((bundle, b) => {
    for (let c = 0; c < clusters; c += 1) slots[c * width + b] = (jointBases[b] as number) + (bundle.jointOf[c] as number);
  });
  const jointCounts = new Int32Array(jointBases[width] as number);
  const drawn = new Int32Array(clusters);
  let state = Math.trunc(options.seed) >>> 0;
  for (let b = 0; b < resamples; b += 1) {
    for (let c = 0; c < clusters; c += 1) {
      state = (state + GOLDEN_GAMMA) >>> 0;
      drawn[c] = Math.floor(mulberryOutput(state) * clusters);
    }
    jointCounts.fill(0);
    for (let c = 0; c < clusters; c += 1) {
      const row = (drawn[c] as number) * width;
      for (let k = 0; k < width; k += 1) {
        const slot = slots[row + k] as number;
        jointCounts[slot] = (jointCounts[slot] as number) + 1;
      }
    }
    shared.fill(0);
    for (let k = 0; k < width; k += 1) spreadJoints(bundles[k] as Bundle, jointCounts, jointBases[k] as number, shared);
    for (let j = 0; j < jobs.length; j += 1) {
      const histogram = histograms[j] as Float64Array;
      expandSignatures(shapes[j] as ClusterTypes, shared, bases[j] as number, histogram);
      meansOfReplicate((jobs[j] as TypedTasks).values, histogram, means[j] as Float64Array[], b);
    }
  }
  return jobs.map((job, j) => {
    const maxDrawn = clusters * (shapes[j] as ClusterTypes).largest;
    return job.values.map((values, m) => intervalOf(job, m, values, (means[j] as Float64Array[])[m] as Float64Array, maxDrawn, options));
  });
}

/** Adds each joint signature's count (jointCounts[base + joint]) to the signature counts of the bundle's jobs. */
function spreadJoints(bundle: Bundle, jointCounts: Int32Array, base: number, shared: Int32Array): void {
  const width = bundle.jobs.length;
  const { slotOfJoint, joints } = bundle;
  for (let d = 0; d < joints; d += 1) {
    const count = jointCounts[base + d] as number;
    if (count === 0) continue;
    for (let k = d * width; k < d * width + width; k += 1) {
      const slot = slotOfJoint[k] as number;
      shared[slot] = (shared[slot] as number) + count;
    }
  }
}

/** A job's type counts from its signature counts (shared[base + signature]). */
function expandSignatures(shape: ClusterTypes, shared: Int32Array, base: number, histogram: Float64Array): void {
  histogram.fill(0);
  const { signatureStarts, signatureTypes, signatureCounts } = shape;
  const signatures = signatureStarts.length - 1;
  for (let signature = 0; signature < signatures; signature += 1) {
    const drawnTimes = shared[base + signature] as number;
    if (drawnTimes === 0) continue;
    for (let k = signatureStarts[signature] as number; k < (signatureStarts[signature + 1] as number); k += 1) {
      const type = signatureTypes[k] as number;
      histogram[type] = (histogram[type] as number) + drawnTimes * (signatureCounts[k] as number);
    }
  }
}

function meansOfReplicate(values: readonly Float64Array[], histogram: Float64Array, means: Float64Array[], replicate: number): void {
  for (let m = 0; m < values.length; m += 1) {
    const metric = values[m] as Float64Array;
    let sum = 0;
    let present = 0;
    for (let type = 0; type < histogram.length; type += 1) {
      const count = histogram[type] as number;
      const value = metric[type] as number;
      if (count > 0 && !Number.isNaN(value)) {
        sum += count * value;
        present += count;
      }
    }
    (means[m] as Float64Array)[replicate] = present > 0 ? sum / present : Number.NaN;
  }
}

/** One metric's percentile interval from its replicate means (NaN: the replicate drew nothing that counts). */
function intervalOf(
  job: TypedTasks,
  metric: number,
  values: Float64Array,
  replicateMeans: Float64Array,
  maxDrawn: number,
  options: PercentileOptions,
): [number, number] | null {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const sorted = replicateMeans.filter((mean) => !Number.isNaN(mean)).sort();
  if (sorted.length === 0) return null;
  const epsilon = errorBound(values, maxDrawn);
  const quantile = (q: number): number => {
    const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
    const below = Math.floor(position);
    const above = Math.min(sorted.length - 1, below + 1);
    let low = sorted[below] as number;
    let high = sorted[above] as number;
    if (epsilon > 0) [low, high] = exactOrderStatistics(job, metric, options, replicateMeans, [below, above], [low, high], epsilon);
    return low + (high - low) * (position - below);
  };
  return [quantile((1 - confidence) / 2), quantile((1 + confidence) / 2)];
}

/** 0 when every value is a multiple of 2⁻²⁰ and every sum stays below 2³² (sums exact in any order); else the bound ε of percentileIntervals. */
function errorBound(values: Float64Array, maxDrawn: number): number {
  let largest = 0;
  let exact = true;
  for (const value of values) {
    if (Number.isNaN(value)) continue;
    largest = Math.max(largest, Math.abs(value));
    if (exact && !(Math.abs(value) <= 1_048_576 && Number.isInteger(value * 1_048_576))) exact = false;
  }
  if (exact && largest * maxDrawn * 1_048_576 < 2 ** 52) return 0;
  return (maxDrawn + values.length + 8) * 2 ** -51 * largest;
}

/**
 * The order statistics `ranks` (adjacent, ascending) of the task-by-task replicate means, given the same order
 * statistics `approximate` of the type-count means and their error bound ε: every replicate whose approximate mean
 * lies within 2ε of them is replayed task by task; those below the window rank before them all.
 */
function exactOrderStatistics(
  tasks: TypedTasks,
  metric: number,
  options: PercentileOptions,
  approximateMeans: Float64Array,
  ranks: [number, number],
  approximate: [number, number],
  epsilon: number,
): [number, number] {
  const from = approximate[0] - 2 * epsilon;
  const to = approximate[1] + 2 * epsilon;
  let below = 0;
  const replayed: number[] = [];
  for (let b = 0; b < approximateMeans.length; b += 1) {
    const mean = approximateMeans[b] as number;
    if (Number.isNaN(mean)) continue;
    if (mean < from) below += 1;
    else if (mean <= to) replayed.push(replayTaskByTask(tasks, metric, options.seed, b));
  }
  const exact = Float64Array.from(replayed).sort();
  return [exact[ranks[0] - below] as number, exact[ranks[1] - below] as number];
}

/** Replicate b's mean of one metric summed task by task in draw order, exactly as the reference bootstrap does. */
function replayTaskByTask(tasks: TypedTasks, metric: number, seed: number, replicate: number): number {
  const clusters = tasks.clusterStarts.length - 1;
  const values = tasks.values[metric] as Float64Array;
  let state = mulberryStateAfter(seed, replicate * clusters);
  let sum = 0;
  let present = 0;
  for (let c = 0; c < clusters; c += 1) {
    state = (state + GOLDEN_GAMMA) >>> 0;
    const drawn = Math.floor(mulberryOutput(state) * clusters);
    for (let j = tasks.clusterStarts[drawn] as number; j < (tasks.clusterStarts[drawn + 1] as number); j += 1) {
      const value = values[tasks.typeOfTask[tasks.clusterTasks[j] as number] as number] as number;
      if (!Number.isNaN(value)) {
        sum += value;
        present += 1;
      }
    }
  }
  return sum / present;
}
