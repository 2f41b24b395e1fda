// Longest-first order of a server-backed run: each epoch's episodes start by expected model calls; cells, seeds and positions stay.
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../src/records/index.js';
import type { EpisodeTask } from '../src/runner/episode.js';
import { LongestFirst, matrixCells } from '../src/runner/matrix-order.js';
import { RepoSpec } from '../src/sim-repo/index.js';
import type { StrategyName } from '../src/strategies/index.js';

const task = (id: string): EpisodeTask => ({ id, group: 'g', prompt: id, expect: 'finish', checks: [], repoSpec: RepoSpec.parse({ files: {} }) });
const tasks = ['a', 'b', 'c'].map(task);
const strategies: StrategyName[] = ['direct', 'react'];
const finished = (taskId: string, strategy: string, calls: Record<string, number>) =>
  ({ task: taskId, strategy, metrics: { model_calls: calls }, outcome: { status: 'complete' } }) as unknown as EpisodeRecord;
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

describe('matrixCells final block', () => {
  // Per epoch 12 calls, the longest 6: with 2 call slots the last 2 epochs (24 ≤ 2 × 2 × 6) are one block.
  const calls: Record<string, number> = { 'a/direct': 1, 'a/react': 6, 'b/direct': 1, 'b/react': 2, 'c/direct': 1, 'c/react': 1 };
  const estimate = (t: number, s: number) => calls[`${tasks[t]!.id}/${strategies[s]}`];

  it('orders the last epochs as one block, longest first across them, when their calls are at most 2 × slots × the longest', () => {
    const cells = [...matrixCells(tasks, strategies, 4, 7, () => true, estimate, { slots: 2 })].map(label);
    expect(cells.slice(0, 12)).toEqual([
      '0:a/react',
      '0:b/react',
      '0:a/direct',
      '0:b/direct',
      '0:c/direct',
      '0:c/react',
      '1:a/react',
      '1:b/react',
      '1:a/direct',
      '1:b/direct',
      '1:c/direct',
      '1:c/react',
    ]);
    // The last epoch's longest episode starts before the epoch before ends: the wall no longer ends with it.
    expect(cells.slice(12)).toEqual([
      '2:a/react',
      '3:a/react',
      '2:b/react',
      '3:b/react',
      '2:a/direct',
      '2:b/direct',
      '2:c/direct',
      '2:c/react',
      '3:a/direct',
      '3:b/direct',
      '3:c/direct',
      '3:c/react',
    ]);
  });

  it('with one slot only the last epoch is its own block (12 > 2 × 1 × 6 for two epochs), as without slots', () => {
    expect([...matrixCells(tasks, strategies, 4, 7, () => true, estimate, { slots: 1 })].map(label)).toEqual(
      [...matrixCells(tasks, strategies, 4, 7, () => true, estimate)].map(label),
    );
  });

  it('starts no block while a cell has no estimate, and keeps every cell once with its seed, for kept positions only', () => {
    const unknownFirst = (t: number, s: number) => (t === 2 ? undefined : estimate(t, s));
    const plain = [...matrixCells(tasks, strategies, 4, 7, () => true)];
    expect([...matrixCells(tasks, strategies, 4, 7, () => true, unknownFirst, { slots: 64 })].map(label)).toEqual(
      [...matrixCells(tasks, strategies, 4, 7, () => true, unknownFirst)].map(label),
    );
    // A shard keeping every third position keeps a/direct (1 call) and b/react (2) of each epoch. With 64 slots all
    // 4 epochs are one block (3 + 3 × 12 ≤ 2 × 64 × 6).
    const kept = (position: number) => position % 3 === 0;
    const merged = [...matrixCells(tasks, strategies, 4, 7, kept, estimate, { slots: 64 })];
    expect(merged.map(label)).toEqual(['0:b/react', '1:b/react', '2:b/react', '3:b/react', '0:a/direct', '1:a/direct', '2:a/direct', '3:a/direct']);
    const seeds = (cells: typeof plain) => new Map(cells.map((cell) => [label(cell), cell.seed]));
    expect(seeds(merged)).toEqual(seeds(plain.filter((_, position) => kept(position))));
    expect(merged).toHaveLength(8);
  });
});

describe('matrixCells final block: its size and its order as estimates change', () => {
  const calls: Record<string, number> = { 'a/direct': 1, 'a/react': 6, 'b/direct': 1, 'b/react': 2, 'c/direct': 1, 'c/react': 1 };
  const estimate = (t: number, s: number) => calls[`${tasks[t]!.id}/${strategies[s]}`];

  it('counts a resumed run’s sparse epoch as kept and later ones as whole: 8 epochs, one cell left in the first, 4 slots', () => {
    // Rows of 12 calls, the longest 6: the block is the last 4 epochs (12 + 3 × 12 ≤ 2 × 4 × 6), not all 8.
    const kept = (position: number) => position >= 5;
    const cells = [...matrixCells(tasks, strategies, 8, 7, kept, estimate, { slots: 4 })].map(label);
    expect(cells).toHaveLength(43);
    expect(cells.slice(0, 1)).toEqual(['0:c/react']);
    expect(cells.slice(13, 23)).toEqual([
      '3:a/react',
      '3:b/react',
      '3:a/direct',
      '3:b/direct',
      '3:c/direct',
      '3:c/react',
      '4:a/react',
      '5:a/react',
      '6:a/react',
      '7:a/react',
    ]);
  });

  it('a shard (share 1/3) counts a third of each later row: its block starts earlier (12 epochs, 2 slots)', () => {
    // The first epoch whose cells are interleaved with a later epoch's: the block's first.
    const blockStart = (share: number) => {
      const cells = [...matrixCells(tasks, strategies, 12, 7, () => true, estimate, { slots: 2, share })];
      return Math.min(
        ...cells.flatMap((cell, at) =>
          cells[at + 1] && cells[at + 1]!.epoch > cell.epoch && cells[at + 1]!.strategy === cell.strategy && cells[at + 1]!.task === cell.task
            ? [cell.epoch]
            : [],
        ),
      );
    };
    expect(blockStart(1)).toBe(10); // 12 + 1 × 12 ≤ 2 × 2 × 6
    expect(blockStart(1 / 3)).toBe(8); // 12 + 3 × 4 ≤ 24
  });

  it('takes each next block cell by the estimates of that moment', () => {
    const live = { ...calls };
    const moving = (t: number, s: number) => live[`${tasks[t]!.id}/${strategies[s]}`];
    const cells = matrixCells(tasks, strategies, 2, 7, () => true, moving, { slots: 64 });
    const taken = [cells.next().value!, cells.next().value!].map(label);
    expect(taken).toEqual(['0:a/react', '1:a/react']);
    // c/direct turns out to be the longest (its first episode finished with 9 calls): it comes next, both epochs.
    live['c/direct'] = 9;
    expect([...cells].map(label).slice(0, 3)).toEqual(['0:c/direct', '1:c/direct', '0:b/react']);
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
    // An episode ended by an infrastructure error (often before its first recorded call) is not an estimate.
    longest.add({ ...finished('b', 'direct', {}), outcome: { status: 'error' } } as unknown as EpisodeRecord);
    expect(longest.estimate(1, 0)).toBe(3); // direct's mean (2, 4); counted, the error would have made it 0
  });
});
