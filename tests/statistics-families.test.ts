// Generated variants of one template are not independent: the statistics resample and flip families, not variants.
import { describe, expect, it } from 'vitest';
import { clusterBootstrapMeans, comparePaired, pairedSignFlipTest, summarise, collectTaskOutcomes, type EpisodeResult } from '../src/report/statistics.js';
import { designEffect } from '../src/report/statistics-comparison.js';

/** 20 families × 5 variants; every variant of a family has the same result (family f passes when pass(f)). */
function episodes(strategy: string, pass: (family: number) => boolean, withFamily = true): EpisodeResult[] {
  return Array.from({ length: 100 }, (_, index) => {
    const family = Math.floor(index / 5);
    return {
      task: `f${family}-v${index % 5}`,
      ...(withFamily ? { family: `f${family}` } : {}),
      group: 'g',
      strategy,
      epoch: 1,
      success: pass(family),
      outcome: { status: 'finished' as const },
    };
  });
}

const width = (interval: { lower: number; upper: number }): number => interval.upper - interval.lower;

describe('family clustering', () => {
  it('widens the bootstrap interval when variants of a family move together', () => {
    const values = Array.from({ length: 100 }, (_, index) => (Math.floor(index / 5) % 2 === 0 ? 1 : 0));
    const clusters = values.map((_, index) => `f${Math.floor(index / 5)}`);
    const [independent] = clusterBootstrapMeans([values], { resamples: 2000 });
    const [clustered] = clusterBootstrapMeans([values], { resamples: 2000, clusters });
    expect(clustered?.estimate).toBe(0.5);
    expect(width(clustered!)).toBeGreaterThan(1.8 * width(independent!));
  });

  it('leaves the interval unchanged when every task is its own family', () => {
    const values = Array.from({ length: 30 }, (_, index) => (index % 3 === 0 ? 1 : 0));
    const own = values.map((_, index) => `t${index}`);
    expect(clusterBootstrapMeans([values], { clusters: own })).toEqual(clusterBootstrapMeans([values]));
  });

  it('summarises one epoch of variants with a bootstrap over families, not a Wilson interval over variants', () => {
    const clustered = summarise(episodes('react', (family) => family % 2 === 0)).strategies[0]!;
    const independent = summarise(episodes('react', (family) => family % 2 === 0, false)).strategies[0]!;
    expect([clustered.tasks, clustered.families, clustered.successRate?.method]).toEqual([100, 20, 'cluster-bootstrap']);
    expect([independent.tasks, independent.families, independent.successRate?.method]).toEqual([100, 100, 'wilson']);
    expect(width(clustered.successRate!)).toBeGreaterThan(1.8 * width(independent.successRate!));
  });

  it('compares paired variants by family: the interval, the sign-flip test and the detectable effect account for the clusters', () => {
    const first = (withFamily: boolean) => collectTaskOutcomes(episodes('direct', (family) => family < 8, withFamily)).get('direct')!;
    const second = (withFamily: boolean) => collectTaskOutcomes(episodes('react', (family) => family < 12, withFamily)).get('react')!;
    const clustered = comparePaired(first(true), second(true), { firstLabel: 'direct', secondLabel: 'react' })!;
    const independent = comparePaired(first(false), second(false), { firstLabel: 'direct', secondLabel: 'react' })!;
    expect(independent.clustering).toBeUndefined();
    expect(clustered.clustering).toEqual({ families: 20, designEffect: expect.closeTo(5, 0) });
    expect([clustered.difference.method, clustered.test.method]).toEqual(['paired-cluster-bootstrap', 'paired-cluster-bootstrap']);
    expect(clustered.difference.estimate).toBeCloseTo(0.2);
    expect(clustered.test.pValue).toBeGreaterThan(independent.test.pValue);
    expect(clustered.minimumDetectableEffect!).toBeGreaterThan(2 * independent.minimumDetectableEffect!);
  });

  it('flips one sign per family in the paired test', () => {
    const differences = [1, 1, 1, 1, 1, 1, 0, 0];
    const clusters = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c'];
    expect(pairedSignFlipTest(differences, { clusters })).toEqual({ pValue: 0.5, exact: true, informativeTasks: 2 });
    expect(pairedSignFlipTest(differences).pValue).toBeCloseTo(2 / 64);
  });

  it('has a design effect of 1 for independent-looking families and of the family size for identical variants', () => {
    expect(designEffect([1, 0, 1, 0], ['a', 'a', 'b', 'b'])).toBe(1);
    const identical = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0];
    expect(
      designEffect(
        identical,
        identical.map((_, i) => `f${Math.floor(i / 3)}`),
      ),
    ).toBeCloseTo(3 * (11 / 12) * (4 / 3), 5);
  });
});
