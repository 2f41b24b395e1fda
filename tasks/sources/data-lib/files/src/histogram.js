// Histograms: values counted into equal-width bins over [min, max], the maximum falling into the last bin.
import { roundTo } from "./round.js";

/**
 * Counts `values` into `bins` equal-width bins (default 10) over [min, max] (default: the values' extremes). Bin i
 * covers [from, to) except the last, which includes max. Values outside [min, max] and non-finite values are counted
 * in `outside`. Edges are rounded to `places` (default 6) to hide floating-point noise.
 * @returns `{ bins: [{ from, to, count }], outside }`.
 * @throws RangeError when bins is not a whole number from 1 to 1000, or min is not below max.
 */
export function histogram(values, { bins = 10, min, max, places = 6 } = {}) {
  if (!Number.isInteger(bins) || bins < 1 || bins > 1000) throw new RangeError(`bins must be a whole number from 1 to 1000, got ${bins}`);
  const finite = values.filter((value) => Number.isFinite(value));
  const low = min ?? Math.min(...finite);
  const high = max ?? Math.max(...finite);
  if (!(low < high)) throw new RangeError(`min (${low}) must be below max (${high})`);
  const width = (high - low) / bins;
  const counts = new Array(bins).fill(0);
  let outside = values.length - finite.length;
  for (const value of finite) {
    if (value < low || value > high) {
      outside += 1;
      continue;
    }
    counts[Math.min(Math.floor(((value - low) / (high - low)) * bins), bins - 1)] += 1;
  }
  return {
    bins: counts.map((count, index) => ({ from: roundTo(low + index * width, places), to: roundTo(low + (index + 1) * width, places), count })),
    outside,
  };
}
