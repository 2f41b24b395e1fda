// Distribution functions the statistics need, taken from jStat (normal quantile, binomial CDF) behind a typed seam.
import { createRequire } from 'node:module';

/** The part of jStat's API we use; jStat ships no TypeScript types. */
interface JStatSubset {
  normal: { inv(p: number, mean: number, sd: number): number; cdf(x: number, mean: number, sd: number): number };
  binomial: { cdf(k: number, n: number, p: number): number };
}

const require = createRequire(import.meta.url);
const jStat = require('jstat') as JStatSubset;

/**
 * Quantile of the standard normal distribution: z such that P(Z ≤ z) = p, for 0 < p < 1.
 * jStat.normal.inv (inverse complementary error function refined by Newton steps; |error| < 1e-12 near the
 * centre). normalQuantile(0.975) = 1.959963984540054.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  return jStat.normal.inv(p, 0, 1);
}

/** Φ(x) = P(Z ≤ x) for the standard normal distribution (jStat.normal.cdf, via the complementary error function). */
export function normalDistribution(x: number): number {
  return jStat.normal.cdf(x, 0, 1);
}

/**
 * P(X ≤ k) for X ~ Binomial(n, p). jStat.binomial.cdf (regularised incomplete beta function), which rounds
 * its result to 1e-10: probabilities below 5e-11 come back as 0.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomialCdf: n must be a non-negative integer, got ${n}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  return jStat.binomial.cdf(Math.floor(k), n, p);
}
