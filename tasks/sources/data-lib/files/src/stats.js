// Descriptive statistics over arrays of numbers: sums, means, spread and percentiles.
import { DataError } from "./errors.js";
import { roundTo } from "./round.js";

function requireValues(values, what, minimum = 1) {
  if (values.length < minimum) throw new DataError(`${what} needs at least ${minimum} value${minimum === 1 ? "" : "s"}, got ${values.length}`);
}

/** The sum, with Neumaier's compensation so that sum([0.1, 0.2, 0.3]) is 0.6, not 0.6000000000000001. 0 for []. */
export function sum(values) {
  let total = 0;
  let compensation = 0;
  for (const value of values) {
    const next = total + value;
    if (Math.abs(total) >= Math.abs(value)) compensation += total - next + value;
    else compensation += value - next + total;
    total = next;
  }
  return total + compensation;
}

/**
 * The arithmetic mean.
 * @throws DataError for an empty array.
 */
export function mean(values) {
  requireValues(values, "mean");
  return sum(values) / values.length;
}

/**
 * The variance: the sample variance (n − 1 in the denominator, Bessel's correction) by default, the population
 * variance with `{ sample: false }`.
 * @throws DataError for fewer than 2 values (sample) or an empty array (population).
 */
export function variance(values, { sample = true } = {}) {
  requireValues(values, "variance", sample ? 2 : 1);
  const centre = mean(values);
  const squares = sum(values.map((value) => (value - centre) ** 2));
  return squares / (values.length - (sample ? 1 : 0));
}

/** The standard deviation: the square root of `variance(values, options)`. */
export function stddev(values, options) {
  return Math.sqrt(variance(values, options));
}

const ascending = (values) => [...values].sort((a, b) => a - b);

/**
 * The `p`-th percentile (0–100). Methods: "linear" (default; interpolates between closest ranks, as NumPy's
 * default and Excel's PERCENTILE.INC) and "nearest-rank" (the smallest value with at least p% of values at or
 * below it; p = 0 gives the minimum).
 * @throws DataError for an empty array; RangeError for p outside 0–100 or an unknown method.
 */
export function percentile(values, p, { method = "linear" } = {}) {
  requireValues(values, "percentile");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, got ${p}`);
  const sorted = ascending(values);
  if (method === "nearest-rank") {
    const rank = Math.ceil((p / 100) * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
  }
  if (method !== "linear") throw new RangeError(`unknown percentile method "${method}" (linear or nearest-rank)`);
  const position = (p / 100) * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/** The median: the 50th percentile, the mean of the two middle values for an even count. */
export function median(values) {
  return percentile(values, 50);
}

/**
 * count, min, max, mean, median, p90 and p99 (linear) of `values`, the computed ones rounded half away from zero to
 * `places` (default 6, which hides floating-point noise such as 369.99999999999994).
 * @throws DataError for an empty array.
 */
export function summarize(values, { places = 6 } = {}) {
  requireValues(values, "summarize");
  const sorted = ascending(values);
  const rounded = (value) => roundTo(value, places);
  return {
    count: sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean: rounded(mean(sorted)),
    median: rounded(percentile(sorted, 50)),
    p90: rounded(percentile(sorted, 90)),
    p99: rounded(percentile(sorted, 99)),
  };
}
