// Longest-first order of a server-backed run: each epoch's episodes start by expected model calls; cells, seeds and positions stay.
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../src/records/index.js';
import type { EpisodeTask } from '../src/runner/episode.js';
import { LongestFirst, matrixCells } from '../src/runner/run-suite.js';
import { RepoSpec } from '../src/sim-repo/index.js';
import type { StrategyName } from '../src/strategies/index.js';

const task = (id: string): EpisodeTask => ({ id, group: 'g', prompt: id, expect: 'finish', checks: [], repoSpec: RepoSpec.parse({ files: {} }) });
const tasks = ['a', 'b', 'c'].map(task);
const strategies: StrategyName[] = ['direct', 'react'];
const finished = (taskId: string, strategy: string, calls: Record<string, number>) =>
  ({ task: taskId, strategy, metrics: { model_calls: calls } }) as unknown as EpisodeRecord;
const label = (cell: { task: EpisodeTask; strategy: string; epoch: number }) => `${cell.epoch}:${cell.task.id}/${cell.strategy}`;

describe('matrixCells longest first', () => {
  it('keeps the matrix order, cells and seeds without an estimate, and the same cells and seeds in another order with one', () => {
    const plain = [...matrixCells(tasks, strategies, 2, 7, () => true)];
    expect(plain.map(label)).toEqual([
      '0:a/direct',
      '0:a/react',
      '0:b/direct',
      '0:b/react',
      '0:c/direct',
      '0:c/react',
      '1:a/direct',
      '1:a/react',
      '1:b/direct',
      '1:b/react',
      '1:c/direct',
      '1:c/react',
    ]);
    const calls: Record<string, number> = { 'a/direct': 2, 'a/react': 9, 'b/direct': 2, 'b/react': 4, 'c/direct': 3, 'c/react': 12 };
    const ordered = [
      ...matrixCells(
        tasks,
        strategies,
        2,
        7,
        () => true,
        (t, s) => calls[`${tasks[t]!.id}/${strategies[s]}`],
      ),
    ];
    expect(ordered.map(label)).toEqual([
      '0:c/react',
      '0:a/react',
      '0:b/react',
      '0:c/direct',
      '0:a/direct',
      '0:b/direct',
      '1:c/react',
      '1:a/react',
      '1:b/react',
      '1:c/direct',
      '1:a/direct',
      '1:b/direct',
    ]);
    const seeds = (cells: typeof plain) => new Map(cells.map((cell) => [label(cell), cell.seed]));
    expect(seeds(ordered)).toEqual(seeds(plain));
  });

  it('orders only the kept positions (a shard, a resume) and puts cells with no estimate first', () => {
    const kept = [
      ...matrixCells(
        tasks,
        strategies,
        1,
        7,
        (position) => position % 2 === 1,
        (t) => (t === 0 ? undefined : t),
      ),
    ];
    expect(kept.map(label)).toEqual(['0:a/react', '0:c/react', '0:b/react']);
  });
});

describe('LongestFirst', () => {
  it('estimates a cell by its calls in an earlier epoch, else by its strategy’s mean so far, else not at all', () => {
    const longest = new LongestFirst(new Map(tasks.map((t, index) => [t.id, index])), new Map(strategies.map((name, index) => [name, index])));
    expect(longest.estimate(0, 1)).toBeUndefined();
    longest.add(finished('a', 'react', { agent: 9 }));
    longest.add(finished('b', 'react', { agent: 3 }));
    longest.add(finished('a', 'direct', { direct: 2 }));
    longest.add(finished('z', 'react', { agent: 50 })); // not in this run's matrix: ignored
    expect(longest.estimate(0, 1)).toBe(9);
    expect(longest.estimate(1, 1)).toBe(3);
    expect(longest.estimate(2, 1)).toBe(6);
    expect(longest.estimate(2, 0)).toBe(2);
    longest.add(finished('c', 'direct', { direct: 1, reporter: 1, planner: 2 }));
    expect(longest.estimate(2, 0)).toBe(4);
  });
});
