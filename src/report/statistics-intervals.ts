// Confidence intervals for proportions: Wilson's score interval, Newcombe's paired difference, bootstrap percentiles.
import { normalQuantile } from './statistics-distributions.js';

/** A point estimate with a two-sided confidence interval; proportions and differences are fractions (0.25 = 25%). */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
}

/** The default two-sided confidence level. */
export const DEFAULT_CONFIDENCE = 0.95;

/** z for a two-sided interval at `confidence`, e.g. 1.95996 for 0.95. */
export function twoSidedZ(confidence: number): number {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  return normalQuantile(1 - (1 - confidence) / 2);
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, "Two-sided confidence intervals
 * for the single proportion", Stat Med 17:857, method 3):
 *   centre = (p + z²/2n) / (1 + z²/n),  half-width = z/(1 + z²/n) · √(p(1−p)/n + z²/4n²),  p = successes/n.
 * `successes` may be fractional (used for the task-level fallback of the cluster bootstrap).
 * Throws RangeError when n ≤ 0 or successes is outside [0, n].
 */
export function wilsonInterval(successes: number, n: number, confidence = DEFAULT_CONFIDENCE): Interval {
  if (!(n > 0)) throw new RangeError(`wilsonInterval: n must be positive, got ${n}`);
  if (successes < 0 || successes > n) throw new RangeError(`wilsonInterval: successes ${successes} outside [0, ${n}]`);
  const z = twoSidedZ(confidence);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { estimate: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/** A paired 2×2 table of binary results on the same items (tasks) under a first and a second condition. */
export interface PairedTable {
  bothPass: number;
  firstOnly: number;
  secondOnly: number;
  bothFail: number;
}

/**
 * Newcombe's square-and-add interval for the difference of paired proportions, second − first
 * (Newcombe 1998, "Improved confidence intervals for the difference between binomial proportions based on
 * paired data", Stat Med 17:2635, method 10; as given in Fagerland, Lydersen & Laake 2017, "Statistical Analysis
 * of Contingency Tables", ch. 8). With p₁, p₂ the two marginal proportions and (lᵢ, uᵢ) their Wilson intervals:
 *   L = θ − √((p₂−l₂)² + (u₁−p₁)² − 2ψ(p₂−l₂)(u₁−p₁)),  U = θ + √((u₂−p₂)² + (p₁−l₁)² − 2ψ(u₂−p₂)(p₁−l₁)),
 * θ = p₂ − p₁, ψ = the continuity-corrected phi correlation of the table: (A − N/2)/√(row and column totals) when
 * A = ad − bc > N/2, 0 when 0 ≤ A ≤ N/2, A/√(…) when A < 0, and 0 when any margin is empty.
 * Throws RangeError for an empty table.
 */
export function newcombePairedInterval(table: PairedTable, confidence = DEFAULT_CONFIDENCE): Interval {
  const { bothPass, firstOnly, secondOnly, bothFail } = table;
  const n = bothPass + firstOnly + secondOnly + bothFail;
  if (!(n > 0)) throw new RangeError('newcombePairedInterval: empty table');
  const firstPass = bothPass + firstOnly;
  const secondPass = bothPass + secondOnly;
  const first = wilsonInterval(firstPass, n, confidence);
  const second = wilsonInterval(secondPass, n, confidence);
  const margins = [firstPass, n - firstPass, secondPass, n - secondPass];
  let psi = 0;
  if (margins.every((margin) => margin > 0)) {
    const root = Math.sqrt(margins.reduce((product, margin) => product * margin, 1));
    const a = bothPass * bothFail - firstOnly * secondOnly;
    psi = a > n / 2 ? (a - n / 2) / root : a >= 0 ? 0 : a / root;
  }
  const theta = second.estimate - first.estimate;
  const downSecond = second.estimate - second.lower;
  const upFirst = first.upper - first.estimate;
  const upSecond = second.upper - second.estimate;
  const downFirst = first.estimate - first.lower;
  const lowerWidth = Math.sqrt(Math.max(0, downSecond ** 2 + upFirst ** 2 - 2 * psi * downSecond * upFirst));
  const upperWidth = Math.sqrt(Math.max(0, upSecond ** 2 + downFirst ** 2 - 2 * psi * upSecond * downFirst));
  return { estimate: theta, lower: Math.max(-1, theta - lowerWidth), upper: Math.min(1, theta + upperWidth) };
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of an ascending-sorted array by linear interpolation between order statistics
 * (Hyndman & Fan 1996, definition 7 — R's and NumPy's default). Throws RangeError for an empty array.
 */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('quantileOfSorted: empty array');
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}
