import { describe, expect, it } from 'vitest';
import { fromEpisodes, ResultColumnsBuilder } from '../src/report/result-columns.js';
import { collectTaskOutcomes, computeRunStatistics, type EpisodeResult } from '../src/report/statistics.js';
import { selectPairs } from '../src/report/statistics-comparison.js';

const episode = (
  strategy: string,
  task: string,
  epoch: number,
  success: boolean,
  status: EpisodeResult['outcome']['status'] = 'finished',
  family?: string,
): EpisodeResult => ({
  task,
  family,
  group: 'g',
  strategy,
  epoch,
  success,
  outcome: { status },
});

describe('ResultColumns', () => {
  it('encodes episodes as dictionaries and typed columns, family defaulting to the task id', () => {
    const columns = fromEpisodes([
      episode('direct', 't1', 0, true),
      episode('react', 't2', 3, false, 'error', 'fam'),
      episode('direct', 't2', 1, false, 'stopped', 'fam'),
    ]);
    expect(columns).toEqual({
      strategies: ['direct', 'react'],
      tasks: [
        { id: 't1', family: 't1', group: 'g' },
        { id: 't2', family: 'fam', group: 'g' },
      ],
      strategy: Uint16Array.from([0, 1, 0]),
      task: Uint32Array.from([0, 1, 1]),
      epoch: Uint32Array.from([0, 3, 1]),
      status: Uint8Array.from([0, 4, 1]),
      success: Uint8Array.from([1, 0, 0]),
      length: 3,
    });
  });

  it('grows past its initial capacity and keeps every row (12 bytes an episode)', () => {
    const builder = new ResultColumnsBuilder();
    for (let i = 0; i < 5_000; i += 1) builder.add(episode(`s${i % 3}`, `t${i % 700}`, Math.floor(i / 2_100), i % 5 === 0));
    const columns = builder.finish();
    expect(columns.length).toBe(5_000);
    expect([columns.strategy[4_999], columns.task[4_999], columns.epoch[4_999], columns.success[4_999]]).toEqual([4_999 % 3, 4_999 % 700, 2, 0]);
    const bytes = [columns.strategy, columns.task, columns.epoch, columns.status, columns.success].reduce((sum, column) => sum + column.byteLength, 0);
    expect(bytes).toBe(12 * 5_000);
  });

  it('rejects an unknown status and a bad epoch, naming the episode', () => {
    const builder = new ResultColumnsBuilder();
    expect(() => builder.add({ ...episode('direct', 't1', 0, true), outcome: { status: 'crashed' as 'error' } })).toThrow(
      'episode direct/t1/0: unknown outcome status "crashed"',
    );
    expect(() => builder.add(episode('direct', 't1', -1, true))).toThrow('episode direct/t1: epoch must be a non-negative integer, got -1');
    expect(builder.size).toBe(0);
  });

  it('groups by strategy and task in order of first appearance, the last episode of a repeated epoch winning', () => {
    const episodes = [
      episode('b', 't2', 1, true),
      episode('a', 't1', 0, false),
      episode('b', 't1', 0, false),
      episode('b', 't2', 0, false, 'error'),
      episode('b', 't2', 1, false),
    ];
    const outcomes = collectTaskOutcomes(fromEpisodes(episodes));
    expect([...outcomes.keys()]).toEqual(['b', 'a']);
    expect(outcomes.get('b')).toEqual([
      { strategy: 'b', task: 't2', family: 't2', group: 'g', epochs: 1, successes: 0, errors: 1, results: [false] },
      { strategy: 'b', task: 't1', family: 't1', group: 'g', epochs: 1, successes: 0, errors: 0, results: [false] },
    ]);
  });
});

describe('which strategy pairs are compared', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
  it('every pair up to six strategies, each against the first beyond', () => {
    expect(selectPairs(names(3))).toEqual([
      ['s0', 's1'],
      ['s0', 's2'],
      ['s1', 's2'],
    ]);
    expect(selectPairs(names(6))).toHaveLength(15);
    expect(selectPairs(names(7))).toEqual(
      names(7)
        .slice(1)
        .map((second) => ['s0', second]),
    );
  });

  it('requested pairs as given; an unknown strategy, a strategy with itself or a pair twice is an error', () => {
    expect(selectPairs(names(8), [['s3', 's1']])).toEqual([['s3', 's1']]);
    expect(() => selectPairs(names(3), [['s0', 'x']])).toThrow('pair s0:x: no strategy "x" in these results (strategies: s0, s1, s2)');
    expect(() => selectPairs(names(3), [['s1', 's1']])).toThrow('pair s1:s1: a strategy cannot be compared with itself');
    expect(() =>
      selectPairs(names(3), [
        ['s0', 's1'],
        ['s1', 's0'],
      ]),
    ).toThrow('pair s1:s0: asked for twice');
  });

  it('the statistics compare only the requested pairs, say so, and Holm-adjust across them', () => {
    const episodes = ['a', 'b', 'c'].flatMap((strategy, s) =>
      Array.from({ length: 20 }, (_, t) => [0, 1].map((epoch) => episode(strategy, `t${t}`, epoch, (t + epoch + s) % 3 === 0))).flat(),
    );
    const statistics = computeRunStatistics(fromEpisodes(episodes), { pairs: [['c', 'a']], resamples: 500 });
    expect(statistics.comparisons.map((comparison) => [comparison.first, comparison.second])).toEqual([['c', 'a']]);
    expect(statistics.pairSelection).toEqual({ rule: 'requested', pairs: 1, allPairs: 3 });
    expect(statistics.comparisons[0]?.adjustedPValue).toBe(statistics.comparisons[0]?.test.pValue);
    expect(computeRunStatistics(episodes, { resamples: 500 }).pairSelection).toBeUndefined();
  });
});
