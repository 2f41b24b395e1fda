// Paired tests on binary results: McNemar's exact test, Holm's correction, and the minimum detectable effect.
import { binomialCdf, normalQuantile } from './statistics-distributions.js';

/**
 * McNemar's exact (conditional) test, two-sided: under "no difference" the discordant pairs split as
 * Binomial(b + c, ½), so p = min(1, 2 · P(X ≤ min(b, c))) (McNemar 1947; Fagerland, Lydersen & Laake 2013, "The
 * McNemar test for binary matched-pairs data", BMC Med Res Methodol 13:91, "exact conditional"). `firstOnly` (b)
 * and `secondOnly` (c) are the tasks where only the first, or only the second, condition succeeded. p = 1 with no
 * discordant pair.
 */
export function mcnemarExact(firstOnly: number, secondOnly: number): number {
  const discordant = firstOnly + secondOnly;
  if (discordant === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(firstOnly, secondOnly), discordant, 0.5));
}

/**
 * Holm's step-down adjustment (Holm 1979, "A simple sequentially rejective multiple test procedure", Scand J Stat
 * 6:65): with the m p-values sorted ascending, p̃₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎). Returns the
 * adjusted values in the input order; rejecting where p̃ < α controls the family-wise error rate at α.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

export interface MinimumDetectableEffectInput {
  /** Paired items (tasks). */
  n: number;
  /** Probability that a pair is discordant (one side passes, the other fails), observed or assumed, in [0, 1]. */
  discordance: number;
  /** Two-sided significance level; default 0.05. */
  alpha?: number;
  /** Power; default 0.8. */
  power?: number;
}

/**
 * The smallest difference δ in paired success rates that McNemar's test detects with the given power, from the
 * sample-size formula for paired binary data (Miettinen 1968; Connor 1987, "Sample size for testing differences in
 * proportions for the paired-sample design", Biometrics 43:207):
 *   n = [z₁₋α/₂ √ψ + z₁₋β √(ψ − δ²)]² / δ²,   ψ = discordance probability,
 * solved for δ by bisection. Since an effect δ needs at least δ discordance, ψ is taken as max(ψ, δ) — so an observed
 * discordance of 0 still gives a finite answer. Returns null when n ≤ 0 or when even δ = 1 is not detectable.
 */
export function minimumDetectableEffect(input: MinimumDetectableEffectInput): number | null {
  const { n, discordance } = input;
  if (!(n > 0)) return null;
  const zAlpha = normalQuantile(1 - (input.alpha ?? 0.05) / 2);
  const zPower = normalQuantile(input.power ?? 0.8);
  const shortfall = (delta: number): number => {
    const psi = Math.max(discordance, delta);
    const needed = zAlpha * Math.sqrt(psi) + zPower * Math.sqrt(Math.max(0, psi - delta * delta));
    return n * delta * delta - needed * needed;
  };
  if (shortfall(1) < 0) return null;
  let low = 0;
  let high = 1;
  for (let iteration = 0; iteration < 60; iteration += 1) {
    const middle = (low + high) / 2;
    if (shortfall(middle) >= 0) high = middle;
    else low = middle;
  }
  return high;
}
