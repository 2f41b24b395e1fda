// The paired sign-flip (wild cluster bootstrap) test, one comparison or many sharing one stream of seeded signs.
import { type BootstrapOptions, type ClusterOption, clusterMembers, DEFAULT_RESAMPLES, DEFAULT_SEED, hasSharedClusters } from './statistics-bootstrap.js';
import { mulberryStateAfter } from './statistics-resampling.js';

export interface SignFlipResult {
  pValue: number;
  exact: boolean;
  /** Tasks with a non-zero difference (the others cannot change the statistic). */
  informativeTasks: number;
}

/** One pairedSignFlipTest call of a batch. */
export interface SignFlipRequest extends ClusterOption {
  differences: readonly number[];
}

/**
 * Two-sided test of "no difference" for paired task-level differences dᵢ (second − first success rate of task i):
 * the wild cluster bootstrap with Rademacher weights under the null (Cameron, Gelbach & Miller 2008, "Bootstrap-based
 * improvements for inference with clustered errors", Rev Econ Stat 90:414), which for a mean difference is the
 * paired sign-flip randomisation test (Fisher 1935; Good 2005, "Permutation, Parametric and Bootstrap Tests", §3.1):
 *   p = P(|Σ sᵢdᵢ| ≥ |Σ dᵢ|) over independent signs sᵢ = ±1.
 * With m non-zero differences, all 2^m sign patterns are enumerated when 2^m ≤ B (an exact p); otherwise B patterns
 * are drawn with the seeded generator (createRandom(seed): one draw per sign, −1 when it is below ½, the m signs of
 * pattern b being draws b·m … b·m + m − 1) and p = (1 + hits) / (B + 1) (Davison & Hinkley 1997, eq. 4.11), a hit
 * being |Σ sᵢdᵢ| summed in task order ≥ |Σ dᵢ| − 10⁻⁹·max(1, |Σ dᵢ|). With one epoch (dᵢ ∈ {−1, 0, 1}) the exact
 * version equals McNemar's exact test. p = 1 when every dᵢ is 0. With `clusters`, one sign per cluster multiplies
 * the sum of its tasks' differences (the wild cluster bootstrap proper); `informativeTasks` then counts clusters.
 */
export function pairedSignFlipTest(differences: readonly number[], options: Omit<BootstrapOptions, 'confidence'> & ClusterOption = {}): SignFlipResult {
  return pairedSignFlipTests([{ differences, clusters: options.clusters }], options)[0] as SignFlipResult;
}

/** What a request reduces to: its informative sums, and the bound a drawn pattern's sum is compared with. */
interface Informative {
  values: Float64Array;
  observed: number;
  threshold: number;
}

function informativeOf({ differences, clusters }: SignFlipRequest): Informative {
  const summed = hasSharedClusters(clusters)
    ? clusterMembers(differences.length, clusters).map((group) => group.reduce((sum, t) => sum + (differences[t] as number), 0))
    : differences;
  const informative = summed === differences ? differences.filter((difference) => difference !== 0) : summed.filter((sum) => Math.abs(sum) > 1e-12);
  const observed = Math.abs(informative.reduce((sum, difference) => sum + difference, 0));
  const tolerance = 1e-9 * Math.max(1, observed);
  return { values: Float64Array.from(informative), observed, threshold: observed - tolerance };
}

/** Sign bits held at once for the drawn patterns (B × the largest m); beyond, each request draws its own signs. */
const MAX_STREAM_BITS = 2 ** 28;

/**
 * pairedSignFlipTest for several requests, each with the result of a call of its own. The drawn patterns of every
 * request are read from one precomputed stream of sign bits (draw k of createRandom(seed) for all requests), and each
 * pattern's sum is taken from per-byte tables of 8 tasks' positive parts: Σ sᵢdᵢ = 2·Σ_{sᵢ=+1} dᵢ − Σ dᵢ. That sum
 * differs from the task-order sum by less than `margin` (a bound on both rounding errors), so only a pattern within
 * `margin` of the threshold is replayed task by task; hits, hence p, are those of the task-order sums.
 */
export function pairedSignFlipTests(requests: readonly SignFlipRequest[], options: Omit<BootstrapOptions, 'confidence'> = {}): SignFlipResult[] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const prepared = requests.map(informativeOf);
  const drawnSizes = prepared.map((item) => item.values.length).filter((m) => m > 0 && 2 ** m > resamples);
  const largest = Math.max(0, ...drawnSizes);
  const stream = largest > 0 && resamples * largest <= MAX_STREAM_BITS ? signStream(seed, resamples * largest) : undefined;
  return prepared.map((item): SignFlipResult => {
    const m = item.values.length;
    if (m === 0) return { pValue: 1, exact: true, informativeTasks: 0 };
    if (2 ** m <= resamples) return { pValue: enumeratedHits(item) / 2 ** m, exact: true, informativeTasks: m };
    const hits = stream ? streamedHits(item, stream, seed, resamples) : drawnHits(item, seed, resamples);
    return { pValue: Math.min(1, (1 + hits) / (resamples + 1)), exact: false, informativeTasks: m };
  });
}

/** Patterns of all 2^m sign patterns (bit i of the pattern set: sign −1) whose sum reaches the threshold. */
function enumeratedHits({ values, threshold }: Informative): number {
  const m = values.length;
  let hits = 0;
  for (let pattern = 0; pattern < 2 ** m; pattern += 1) {
    let sum = 0;
    for (let i = 0; i < m; i += 1) sum += ((pattern >> i) & 1 ? -1 : 1) * (values[i] as number);
    if (Math.abs(sum) >= threshold) hits += 1;
  }
  return hits;
}

/** createRandom(seed)'s draw k (k ≥ first) as a sign bit: 1 (+1) when the draw is at least ½, i.e. bit 31 of mulberry32's t. */
function signStream(seed: number, bits: number): Int32Array {
  const words = new Int32Array((bits >>> 5) + 2);
  let state = mulberryStateAfter(seed, 0);
  for (let k = 0; k < bits; k += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    words[k >>> 5] = (words[k >>> 5] as number) | ((t >>> 31) << (k & 31));
  }
  return words;
}

/** Patterns b = 0 … B − 1 drawn task by task, pattern b from draw b·m on; the sum in task order (the reference). */
function drawnHits({ values, threshold }: Informative, seed: number, resamples: number): number {
  let hits = 0;
  for (let b = 0; b < resamples; b += 1) if (Math.abs(taskOrderSum(values, seed, b)) >= threshold) hits += 1;
  return hits;
}

/** Pattern b's Σ sᵢdᵢ in task order, its signs drawn afresh from createRandom(seed)'s draw b·m on. */
function taskOrderSum(values: Float64Array, seed: number, pattern: number): number {
  const m = values.length;
  let state = mulberryStateAfter(seed, pattern * m);
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
  return sum;
}

/** drawnHits with the signs read from `stream` 8 tasks at a time; patterns within `margin` of the threshold replayed. */
function streamedHits(item: Informative, stream: Int32Array, seed: number, resamples: number): number {
  const { values, threshold } = item;
  const m = values.length;
  const chunks = Math.ceil(m / 8);
  // tables[j × 256 + byte]: the sum of the values of tasks 8j … 8j + 7 whose bit is set in `byte`.
  const tables = new Float64Array(chunks * 256);
  let total = 0;
  let absolute = 0;
  for (let j = 0; j < chunks; j += 1) {
    for (let byte = 1; byte < 256; byte += 1) {
      const low = 31 - Math.clz32(byte & -byte);
      const value = 8 * j + low < m ? (values[8 * j + low] as number) : 0;
      tables[j * 256 + byte] = (tables[j * 256 + (byte & (byte - 1))] as number) + value;
    }
  }
  for (const value of values) {
    total += value;
    absolute += Math.abs(value);
  }
  // Either sum of m terms (each table entry a sum of up to 8) is within (m + 16)·2⁻⁵³·Σ|dᵢ| of the exact sum, 2P − Σ
  // adds as much again: 4× that bounds their distance with room to spare.
  const margin = 4 * (m + 16) * 2 ** -53 * absolute * 2;
  const lastMask = m % 8 === 0 ? 0xff : (1 << (m % 8)) - 1;
  let hits = 0;
  for (let b = 0; b < resamples; b += 1) {
    const first = b * m;
    let positive = 0;
    for (let j = 0; j < chunks; j += 1) {
      const bit = first + 8 * j;
      const word = bit >>> 5;
      const shift = bit & 31;
      let byte = (stream[word] as number) >>> shift;
      if (shift > 24) byte |= (stream[word + 1] as number) << (32 - shift);
      byte &= j === chunks - 1 ? lastMask : 0xff;
      positive += tables[j * 256 + byte] as number;
    }
    const sum = Math.abs(2 * positive - total);
    if (sum >= threshold + margin) hits += 1;
    else if (sum > threshold - margin && Math.abs(taskOrderSum(values, seed, b)) >= threshold) hits += 1;
  }
  return hits;
}
