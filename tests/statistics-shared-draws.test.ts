// The batched sign-flip test and the bundled cluster bootstrap against task-by-task reference implementations.
import { describe, expect, it } from 'vitest';
import { clusterBootstrapMeansMany } from '../src/report/statistics-bootstrap.js';
import { createRandom, pairedSignFlipTest, pairedSignFlipTests, quantileOfSorted, randomIndex } from '../src/report/statistics.js';

/** The sign-flip test as first written: createRandom's draws, one per sign, the sum in task order. */
function referenceSignFlip(differences: readonly number[], resamples: number, seed: number): { pValue: number; exact: boolean } {
  const informative = differences.filter((difference) => difference !== 0);
  const m = informative.length;
  if (m === 0) return { pValue: 1, exact: true };
  const observed = Math.abs(informative.reduce((sum, difference) => sum + difference, 0));
  const threshold = observed - 1e-9 * Math.max(1, observed);
  const random = createRandom(seed);
  let hits = 0;
  if (2 ** m <= resamples) {
    for (let pattern = 0; pattern < 2 ** m; pattern += 1) {
      const sum = informative.reduce((total, value, i) => total + ((pattern >> i) & 1 ? -1 : 1) * value, 0);
      if (Math.abs(sum) >= threshold) hits += 1;
    }
    return { pValue: hits / 2 ** m, exact: true };
  }
  for (let b = 0; b < resamples; b += 1) {
    let sum = 0;
    for (const value of informative) sum += (random() < 0.5 ? -1 : 1) * value;
    if (Math.abs(sum) >= threshold) hits += 1;
  }
  return { pValue: Math.min(1, (1 + hits) / (resamples + 1)), exact: false };
}

/** Task-level differences r₂ − r₁ of `tasks` tasks with 1–3 epochs each side (thirds and halves: not exact in binary). */
function differencesOf(seed: number, tasks: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: tasks }, () => {
    const n1 = 1 + randomIndex(random, 3);
    const n2 = 1 + randomIndex(random, 3);
    return randomIndex(random, n2 + 1) / n2 - randomIndex(random, n1 + 1) / n1;
  });
}

describe('pairedSignFlipTests', () => {
  it('gives every request the p of the task-by-task reference, batched or alone', () => {
    const requests = [
      differencesOf(1, 40),
      differencesOf(2, 300),
      differencesOf(3, 1_000),
      // Small integers: many patterns sum exactly to the observed |Σ dᵢ|, so patterns sit on the threshold.
      Array.from({ length: 64 }, (_, i) => (i % 3) - 1 + (i % 5 === 0 ? 1 : 0)),
      // Arbitrary doubles.
      Array.from({ length: 90 }, (_, i) => Math.sin(i * 1.7) * 0.37),
      [0, 0, 1, -1, 1, 1, 1, 0.5],
      // m = 2,000 signs of ±1 summing to 2: the bound on rounding (∝ m·Σ|dᵢ|) passes the 2·10⁻⁹ tolerance, so the
      // patterns summing to ±2 are replayed task by task.
      Array.from({ length: 2_000 }, (_, i) => (i < 1_001 ? 1 : -1)),
      [0, 0, 0],
    ];
    for (const seed of [1, 7]) {
      const batched = pairedSignFlipTests(
        requests.map((differences) => ({ differences })),
        { resamples: 2_000, seed },
      );
      requests.forEach((differences, i) => {
        const reference = referenceSignFlip(differences, 2_000, seed);
        expect({ pValue: batched[i]?.pValue, exact: batched[i]?.exact }).toEqual(reference);
        expect(pairedSignFlipTest(differences, { resamples: 2_000, seed })).toEqual(batched[i]);
      });
    }
  });

  it('flips clusters: one sign per family multiplies the sum of its tasks', () => {
    const differences = differencesOf(5, 120);
    const clusters = differences.map((_, t) => `family-${Math.floor(t / 3)}`);
    const sums = Array.from({ length: 40 }, (_, c) => differences.slice(3 * c, 3 * c + 3).reduce((sum, d) => sum + d, 0));
    const clustered = pairedSignFlipTest(differences, { clusters, resamples: 3_000, seed: 4 });
    const informative = sums.filter((sum) => Math.abs(sum) > 1e-12);
    expect(clustered.informativeTasks).toBe(informative.length);
    expect(clustered.pValue).toBe(referenceSignFlip(informative, 3_000, 4).pValue);
  });
});

/** The percentile cluster bootstrap as first written: draws of createRandom per replicate, means summed task by task. */
function referenceBootstrap(values: readonly number[], resamples: number, seed: number): [number, number] {
  const random = createRandom(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b += 1) {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += values[randomIndex(random, values.length)] as number;
    means.push(sum / values.length);
  }
  means.sort((x, y) => x - y);
  // The levels as the code computes them from confidence 0.95 (0.025000000000000022, not 0.025).
  return [quantileOfSorted(means, (1 - 0.95) / 2), quantileOfSorted(means, (1 + 0.95) / 2)];
}

describe('clusterBootstrapMeansMany with jobs counted together', () => {
  it('gives each of many related jobs (rates and their differences) the interval of the task-by-task reference', () => {
    const tasks = 150;
    const random = createRandom(11);
    const rates = Array.from({ length: 5 }, () => Array.from({ length: tasks }, () => randomIndex(random, 4) / 3));
    const differences = rates.flatMap((first, i) => rates.slice(i + 1).map((second) => second.map((rate, t) => rate - (first[t] as number))));
    const jobs = [...rates, ...differences];
    const intervals = clusterBootstrapMeansMany(
      jobs.map((values) => ({ values: [values] })),
      { resamples: 500, seed: 3 },
    );
    jobs.forEach((values, j) => {
      const [lower, upper] = referenceBootstrap(values, 500, 3);
      expect({ lower: intervals[j]?.[0]?.lower, upper: intervals[j]?.[0]?.upper }).toEqual({ lower, upper });
    });
  });
});
