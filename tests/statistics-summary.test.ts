// summarise(), collectTaskOutcomes() and compareStrategies() on small synthetic episode sets.
import { describe, expect, it } from 'vitest';
import {
  collectTaskOutcomes,
  compareStrategies,
  computeRunStatistics,
  mcnemarExact,
  passAtK,
  passHatK,
  renderStatisticsMarkdown,
  renderStatisticsText,
  stabilityLabel,
  summarise,
  wilsonInterval,
  type EpisodeResult,
} from '../src/report/statistics.js';

type Result = boolean | 'error';

/** Episodes from a compact table: strategy → task → results by epoch. Tasks t0…t3 are in group "a", the rest in "b". */
function episodes(table: Record<string, Record<string, Result[]>>): EpisodeResult[] {
  const list: EpisodeResult[] = [];
  for (const [strategy, tasks] of Object.entries(table)) {
    for (const [task, results] of Object.entries(tasks)) {
      results.forEach((result, epoch) => {
        list.push({
          strategy,
          task,
          group: Number(task.slice(1)) < 4 ? 'a' : 'b',
          epoch,
          success: result === true,
          outcome: { status: result === 'error' ? 'error' : result ? 'finished' : 'stopped' },
        });
      });
    }
  }
  return list;
}

const tasks = (count: number, results: (index: number) => Result[]): Record<string, Result[]> =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`t${index}`, results(index)]));

describe('collectTaskOutcomes', () => {
  it('counts errors apart, keeps the last of a repeated epoch, and labels stability', () => {
    const list = episodes({ react: { t0: [true, 'error', false], t1: ['error', 'error'] } });
    list.push({ ...(list[0] as EpisodeResult), success: false, outcome: { status: 'stopped' } });
    const outcomes = collectTaskOutcomes(list).get('react');
    expect(outcomes).toEqual([
      { strategy: 'react', task: 't0', family: 't0', group: 'a', epochs: 2, successes: 0, errors: 1, results: [false, false] },
      { strategy: 'react', task: 't1', family: 't1', group: 'a', epochs: 0, successes: 0, errors: 2, results: [] },
    ]);
    expect(outcomes?.map(stabilityLabel)).toEqual(['stable-fail', 'unscored']);
    expect(stabilityLabel({ epochs: 3, successes: 3 })).toBe('stable-pass');
    expect(stabilityLabel({ epochs: 3, successes: 1 })).toBe('flaky');
  });
});

describe('summarise', () => {
  it('uses Wilson with one epoch and excludes error episodes from the rate', () => {
    const summary = summarise(episodes({ direct: tasks(8, (index) => [index === 7 ? 'error' : index < 5]) }));
    const [direct] = summary.strategies;
    expect(direct).toMatchObject({ strategy: 'direct', group: null, episodes: 8, errors: 1, scored: 7, successes: 5, tasks: 7, epochs: 1 });
    expect(direct?.successRate).toEqual({ ...wilsonInterval(5, 7), method: 'wilson' });
    expect(direct?.passK).toEqual([{ k: 1, tasks: 7, passAtK: direct?.successRate, passHatK: direct?.successRate }]);
    expect(direct?.stability).toEqual({ stablePass: 5, stableFail: 2, flaky: 0, unscored: 1 });
    expect(summary.groups.map((group) => [group.group, group.successes, group.scored])).toEqual([
      ['a', 4, 4],
      ['b', 1, 3],
    ]);
  });

  it('averages per-task pass@k and pass^k with several epochs and bootstraps their intervals', () => {
    const pattern: boolean[][] = [
      [true, true, true],
      [true, false, true],
      [false, false, true],
      [false, false, false],
      [true, true, true],
      [true, true, false],
    ];
    const summary = summarise(episodes({ 'plan-replan': tasks(6, (index) => pattern[index] as boolean[]) }), { seed: 9 });
    const [strategy] = summary.strategies;
    expect(strategy?.epochs).toBe(3);
    expect(strategy?.passK.map((row) => row.k)).toEqual([1, 2, 3]);
    for (const row of strategy?.passK ?? []) {
      const counts = pattern.map((results) => results.filter(Boolean).length);
      const hat = counts.reduce((sum, c) => sum + passHatK(3, c, row.k), 0) / counts.length;
      const at = counts.reduce((sum, c) => sum + passAtK(3, c, row.k), 0) / counts.length;
      expect(row.passHatK.estimate).toBeCloseTo(hat, 12);
      expect(row.passAtK.estimate).toBeCloseTo(at, 12);
      for (const estimate of [row.passHatK, row.passAtK]) {
        expect(estimate.method).toBe('cluster-bootstrap');
        expect(estimate.lower).toBeLessThanOrEqual(estimate.estimate);
        expect(estimate.upper).toBeGreaterThanOrEqual(estimate.estimate);
      }
    }
    expect(strategy?.successRate).toEqual(strategy?.passK[0]?.passHatK);
    expect(strategy?.successRate?.estimate).toBeCloseTo(11 / 18, 12);
    expect(strategy?.stability).toEqual({ stablePass: 2, stableFail: 1, flaky: 3, unscored: 0 });
    // deterministic given the seed
    expect(summarise(episodes({ 'plan-replan': tasks(6, (index) => pattern[index] as boolean[]) }), { seed: 9 })).toEqual(summary);
  });

  it('falls back to Wilson on the task count when every task agrees across epochs', () => {
    const summary = summarise(episodes({ react: tasks(14, () => [true, true, true]) }));
    const rate = summary.strategies[0]?.successRate;
    expect(rate).toEqual({ ...wilsonInterval(14, 14), method: 'wilson-tasks' });
  });

  it('counts a task for pass^k only when it has k scored epochs', () => {
    const summary = summarise(episodes({ react: { t0: [true, true, true], t1: [true, 'error', false] } }));
    expect(summary.strategies[0]?.passK.map((row) => [row.k, row.tasks])).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
  });
});

describe('compareStrategies', () => {
  it('compares every pair on shared tasks with McNemar and Holm-adjusts across the pairs', () => {
    const list = episodes({
      direct: tasks(14, (index) => [index < 4]),
      react: tasks(14, (index) => [index < 11]),
      'plan-replan': tasks(12, (index) => [index < 12]),
    });
    const comparisons = compareStrategies(list);
    expect(comparisons.map((comparison) => [comparison.first, comparison.second, comparison.tasks])).toEqual([
      ['direct', 'react', 14],
      ['direct', 'plan-replan', 12],
      ['react', 'plan-replan', 12],
    ]);
    const [directReact] = comparisons;
    expect(directReact?.design).toBe('single-epoch');
    expect(directReact?.table).toEqual({ bothPass: 4, firstOnly: 0, secondOnly: 7, bothFail: 3 });
    expect(directReact?.difference.estimate).toBeCloseTo(0.5, 12);
    expect(directReact?.test).toEqual({ method: 'mcnemar-exact', pValue: mcnemarExact(0, 7), exact: true });
    expect(directReact?.adjustedPValue).toBeCloseTo(Math.min(1, 2 * mcnemarExact(0, 7)), 12);
    expect(comparisons[2]?.test.pValue).toBe(1);
    expect(comparisons[2]?.adjustedPValue).toBe(1);
  });

  it('uses the paired cluster bootstrap with several epochs', () => {
    const list = episodes({
      direct: tasks(10, (index) => [index < 3, index < 2, index < 3]),
      react: tasks(10, (index) => [index < 9, true, index < 8]),
    });
    const [comparison] = compareStrategies(list, { seed: 4 });
    expect(comparison?.design).toBe('several-epochs');
    expect(comparison?.difference.method).toBe('paired-cluster-bootstrap');
    expect(comparison?.test.method).toBe('paired-cluster-bootstrap');
    expect(comparison?.difference.estimate).toBeCloseTo((27 - 8) / 30, 12);
    expect(comparison?.difference.lower).toBeGreaterThan(0);
    expect(comparison?.test.pValue).toBeLessThan(0.05);
    expect(comparison?.minimumDetectableEffect).toBeGreaterThan(0);
  });
});

describe('computeRunStatistics and its renderings', () => {
  const list = episodes({
    direct: tasks(6, (index) => [index < 2, index < 3, index < 2]),
    react: tasks(6, (index) => [index < 5, index !== 0, 'error']),
  });
  const statistics = computeRunStatistics(list, { seed: 2, resamples: 2000 });

  it('survives a JSON round trip unchanged (summary.json)', () => {
    expect(JSON.parse(JSON.stringify(statistics))).toEqual(statistics);
    expect(statistics.comparisons).toHaveLength(1);
    expect(statistics.resamples).toBe(2000);
  });

  it('renders a plain-text table without colour codes and a markdown table', () => {
    const text = renderStatisticsText(statistics, { color: false });
    expect(text).not.toMatch(/\u001b\[/);
    expect(text).toContain('Success (pass^1)');
    expect(text).toContain('pass^3');
    expect(text).toContain('Paired comparisons (shared tasks)');
    const markdown = renderStatisticsMarkdown(statistics);
    const direct = statistics.strategies[0];
    expect(markdown).toContain(`| direct | all | 6 | 18 | 0 | ${(100 * (direct?.successRate?.estimate ?? 0)).toFixed(1)}% [`);
    expect(markdown).toContain('| react | all | 6 | 18 | 6 |');
    expect(markdown).toMatch(/\| direct \| react \| 6 \| \+[0-9.]+ pp \[[^\]]+\] \| paired cluster bootstrap \|/);
  });
});

describe('passKSteps', () => {
  it('keeps every k up to 10, then 20, 50, 100, 200, 500, 1000, and always k = epochs', async () => {
    const { passKSteps } = await import('../src/report/statistics-summary.js');
    expect(passKSteps(1)).toEqual([1]);
    expect(passKSteps(3)).toEqual([1, 2, 3]);
    expect(passKSteps(12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]);
    expect(passKSteps(143)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 143]);
    expect(passKSteps(1000)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 200, 500, 1000]);
  });
});
