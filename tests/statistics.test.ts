// Statistics routines checked against published values and against second methods (enumeration, exact sums).
import { describe, expect, it } from 'vitest';
import {
  binomialCoefficient,
  clusterBootstrapMeans,
  createRandom,
  holmAdjust,
  mcnemarExact,
  minimumDetectableEffect,
  newcombePairedInterval,
  normalQuantile,
  pairedSignFlipTest,
  passAtK,
  passHatK,
  quantileOfSorted,
  wilsonInterval,
} from '../src/report/statistics.js';

/** Exact binomial tail at p = ½ with BigInt: P(X ≤ k), X ~ Binomial(n, ½). */
function exactHalfBinomialCdf(k: number, n: number): number {
  let numerator = 0n;
  let coefficient = 1n;
  for (let i = 0; i <= k; i += 1) {
    numerator += coefficient;
    coefficient = (coefficient * BigInt(n - i)) / BigInt(i + 1);
  }
  return Number((numerator * 10n ** 18n) / 2n ** BigInt(n)) / 1e18;
}

/** Every k-subset of [0, n). */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k - 1).map((subset) => [...subset, n - 1]), ...subsets(n - 1, k)];
}

describe('normalQuantile', () => {
  it('gives the tabulated standard normal quantiles', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 12);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
  });
  it('rejects probabilities outside (0, 1)', () => {
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('wilsonInterval', () => {
  // Newcombe (1998), Stat Med 17:857, Table II, method 3 (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i → [%f, %f] as published by Newcombe 1998', (successes, n, lower, upper) => {
    const interval = wilsonInterval(successes, n);
    expect(interval.estimate).toBeCloseTo(successes / n, 12);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
  });
  it('rejects an empty sample', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
  });
});

describe('newcombePairedInterval', () => {
  // Fagerland, Lydersen & Laake (2017), ch. 8, Cavo et al. (2012): n11 = 59, n12 = 6, n21 = 16, n22 = 80;
  // first − second = −0.0621 (95% CI −0.1186 to −0.0046), so second − first = 0.0621 (0.0046 to 0.1186).
  it('reproduces the published square-and-add interval for the Cavo et al. table', () => {
    const interval = newcombePairedInterval({ bothPass: 59, firstOnly: 6, secondOnly: 16, bothFail: 80 });
    expect(interval.estimate).toBeCloseTo(0.0621, 4);
    expect(interval.lower).toBeCloseTo(0.0046, 4);
    expect(interval.upper).toBeCloseTo(0.1186, 4);
  });
  it('is antisymmetric: swapping the two sides negates and swaps the limits', () => {
    const forward = newcombePairedInterval({ bothPass: 1, firstOnly: 1, secondOnly: 7, bothFail: 12 });
    const backward = newcombePairedInterval({ bothPass: 1, firstOnly: 7, secondOnly: 1, bothFail: 12 });
    expect(backward.estimate).toBeCloseTo(-forward.estimate, 12);
    expect(backward.lower).toBeCloseTo(-forward.upper, 12);
    expect(backward.upper).toBeCloseTo(-forward.lower, 12);
  });
  it('has width when nothing differs', () => {
    const interval = newcombePairedInterval({ bothPass: 14, firstOnly: 0, secondOnly: 0, bothFail: 0 });
    expect(interval.estimate).toBe(0);
    expect(interval.lower).toBeLessThan(-0.1);
    expect(interval.upper).toBeGreaterThan(0.1);
  });
});

describe('mcnemarExact', () => {
  // Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91: exact conditional p = 0.070 (Bentur et al.,
  // 1 and 7 discordant pairs) and 0.052 (Cavo et al., 6 and 16).
  it('reproduces the published exact conditional p-values', () => {
    expect(mcnemarExact(1, 7)).toBeCloseTo(0.0703125, 10);
    expect(mcnemarExact(6, 16)).toBeCloseTo(0.05248, 5);
  });
  it('equals twice the exact binomial tail computed with integers', () => {
    for (let discordant = 1; discordant <= 40; discordant += 3) {
      for (let firstOnly = 0; firstOnly <= discordant; firstOnly += 1) {
        const smaller = Math.min(firstOnly, discordant - firstOnly);
        const expected = Math.min(1, 2 * exactHalfBinomialCdf(smaller, discordant));
        expect(mcnemarExact(firstOnly, discordant - firstOnly)).toBeCloseTo(expected, 9);
      }
    }
  });
  it('is 1 with no discordant pair', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
  });
});

describe('passHatK and passAtK', () => {
  it('equal brute-force enumeration over every k-subset of the epochs', () => {
    for (let n = 1; n <= 7; n += 1) {
      for (let c = 0; c <= n; c += 1) {
        const outcomes = Array.from({ length: n }, (_, index) => index < c);
        for (let k = 1; k <= n; k += 1) {
          const all = subsets(n, k);
          const allPass = all.filter((subset) => subset.every((index) => outcomes[index])).length / all.length;
          const anyPass = all.filter((subset) => subset.some((index) => outcomes[index])).length / all.length;
          expect(passHatK(n, c, k)).toBeCloseTo(allPass, 12);
          expect(passAtK(n, c, k)).toBeCloseTo(anyPass, 12);
        }
      }
    }
  });
  it('binomialCoefficient matches Pascal’s triangle', () => {
    const row = [1, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1];
    expect(row.map((_, k) => binomialCoefficient(10, k))).toEqual(row);
    expect(binomialCoefficient(5, 6)).toBe(0);
  });
  it('rejects k larger than the epochs', () => {
    expect(() => passHatK(3, 1, 4)).toThrow(RangeError);
  });
});

describe('holmAdjust', () => {
  it('matches the step-down adjustment computed by hand', () => {
    // sorted 0.005, 0.01, 0.03, 0.04 → ×4, ×3, ×2, ×1 = 0.02, 0.03, 0.06, 0.04 → running max 0.02, 0.03, 0.06, 0.06
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((value, index) => expect(adjusted[index]).toBeCloseTo(value, 12));
  });
  it('lies between the raw p-value and Bonferroni’s', () => {
    const random = createRandom(7);
    const pValues = Array.from({ length: 10 }, () => random());
    holmAdjust(pValues).forEach((adjusted, index) => {
      const raw = pValues[index] as number;
      expect(adjusted).toBeGreaterThanOrEqual(raw);
      expect(adjusted).toBeLessThanOrEqual(Math.min(1, raw * pValues.length) + 1e-12);
    });
  });
});

describe('minimumDetectableEffect', () => {
  it('inverts Connor’s sample-size formula (ψ = 0.3, δ = 0.1 → n = 233.09, computed by hand)', () => {
    // n = (1.959964·√0.3 + 0.841621·√0.29)² / 0.01 = (1.073517 + 0.453226)² / 0.01 = 233.0944
    expect(minimumDetectableEffect({ n: 233.0944, discordance: 0.3 })).toBeCloseTo(0.1, 4);
  });
  it('gives about 80% power to the exact McNemar test at the detected effect (exact power by enumeration)', () => {
    const binomial = (n: number, k: number, p: number): number => binomialCoefficient(n, k) * p ** k * (1 - p) ** (n - k);
    for (const [n, discordance] of [
      [60, 0.3],
      [100, 0.2],
    ] as const) {
      const delta = minimumDetectableEffect({ n, discordance }) as number;
      const firstOnly = (discordance - delta) / 2;
      let power = 0;
      for (let d = 0; d <= n; d += 1) {
        for (let b = 0; b <= d; b += 1) {
          if (mcnemarExact(b, d - b) < 0.05) power += binomial(n, d, discordance) * binomial(d, b, firstOnly / discordance);
        }
      }
      // The formula is for the asymptotic test; the exact test is a little conservative.
      expect(power).toBeGreaterThan(0.72);
      expect(power).toBeLessThan(0.86);
    }
  });
  it('is finite with no observed discordance, and null when nothing is detectable', () => {
    const withNoDiscordance = minimumDetectableEffect({ n: 14, discordance: 0 }) as number;
    expect(withNoDiscordance).toBeGreaterThan(0.3);
    expect(withNoDiscordance).toBeLessThan(0.6);
    expect(minimumDetectableEffect({ n: 3, discordance: 0.5 })).toBeNull();
    expect(minimumDetectableEffect({ n: 0, discordance: 0.5 })).toBeNull();
  });
});

describe('pairedSignFlipTest', () => {
  it('equals McNemar’s exact test on single-epoch differences', () => {
    for (let firstOnly = 0; firstOnly <= 7; firstOnly += 1) {
      for (let secondOnly = 0; secondOnly <= 6; secondOnly += 1) {
        const differences = [...Array(firstOnly).fill(-1), ...Array(secondOnly).fill(1), 0, 0, 0];
        const result = pairedSignFlipTest(differences);
        expect(result.exact).toBe(true);
        expect(result.pValue).toBeCloseTo(mcnemarExact(firstOnly, secondOnly), 9);
      }
    }
  });
  it('approximates the exact p by Monte Carlo when 2^m exceeds B, deterministically', () => {
    const differences = [...Array(4).fill(-1), ...Array(16).fill(1)];
    const result = pairedSignFlipTest(differences, { seed: 3 });
    expect(result.exact).toBe(false);
    expect(Math.abs(result.pValue - mcnemarExact(4, 16))).toBeLessThan(0.004);
    expect(pairedSignFlipTest(differences, { seed: 3 })).toEqual(result);
  });
  it('gives p = 1 when nothing differs', () => {
    expect(pairedSignFlipTest([0, 0, 0])).toEqual({ pValue: 1, exact: true, informativeTasks: 0 });
  });
});

describe('clusterBootstrapMeans', () => {
  it('matches percentiles of the exact bootstrap distribution (all 5^5 resamples enumerated)', () => {
    const values = [0, 1 / 3, 2 / 3, 1, 1];
    const exact: number[] = [];
    const enumerate = (chosen: number[]): void => {
      if (chosen.length === values.length) {
        exact.push(chosen.reduce((sum, index) => sum + (values[index] as number), 0) / values.length);
        return;
      }
      for (let index = 0; index < values.length; index += 1) enumerate([...chosen, index]);
    };
    enumerate([]);
    exact.sort((a, b) => a - b);
    const [interval] = clusterBootstrapMeans([values], { seed: 11 });
    expect(interval?.estimate).toBeCloseTo(0.6, 12);
    // atoms are 1/15 apart: the Monte Carlo percentile is within one atom of the exact one
    expect(Math.abs((interval?.lower ?? 0) - quantileOfSorted(exact, 0.025))).toBeLessThanOrEqual(1 / 15 + 1e-9);
    expect(Math.abs((interval?.upper ?? 0) - quantileOfSorted(exact, 0.975))).toBeLessThanOrEqual(1 / 15 + 1e-9);
  });
  it('is deterministic given the seed and changes with it', () => {
    const values = [[0.013, 0.52, 0.97, 0.11, 0.262, 0.741, 0.999]];
    expect(clusterBootstrapMeans(values, { seed: 5 })).toEqual(clusterBootstrapMeans(values, { seed: 5 }));
    // with few resamples the percentiles depend on which resamples were drawn
    expect(clusterBootstrapMeans(values, { seed: 5, resamples: 200 })).not.toEqual(clusterBootstrapMeans(values, { seed: 6, resamples: 200 }));
  });
  it('leaves out tasks marked NaN and flags a degenerate sample', () => {
    const [withGap, flat] = clusterBootstrapMeans([
      [1, Number.NaN, 0],
      [1, 1, 1],
    ]);
    expect(withGap?.estimate).toBe(0.5);
    expect(flat).toEqual({ estimate: 1, lower: 1, upper: 1, degenerate: true });
  });
});

describe('createRandom', () => {
  it('repeats its sequence for a seed and is roughly uniform', () => {
    const first = createRandom(42);
    const second = createRandom(42);
    const draws = Array.from({ length: 20_000 }, () => first());
    expect(Array.from({ length: 20_000 }, () => second())).toEqual(draws);
    expect(draws.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = draws.reduce((sum, value) => sum + value, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
  });
});
