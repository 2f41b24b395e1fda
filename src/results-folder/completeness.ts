// How much of its episode matrix a results folder holds, and the label every command prints for a partial one.
import type { RunCompleteness, RunFile, Shard } from '../records/index.js';
import { inShard } from './resume.js';

/** One strategy × task × epoch of a matrix (an episode record or summary result has these fields). */
export interface MatrixCell {
  strategy: string;
  task: string;
  epoch: number;
}

const cellKey = (cell: MatrixCell): string => `${cell.strategy}\u0000${cell.task}\u0000${cell.epoch}`;

/**
 * The cells of the matrix run.json describes, in the runner's order (epoch, then task, then strategy), only those of
 * `shard` when given — the same slice `run --shard` runs. Pure.
 */
export function matrixCells(config: Pick<RunFile['config'], 'strategies' | 'tasks' | 'epochs'>, shard?: Shard): MatrixCell[] {
  const cells: MatrixCell[] = [];
  let position = 0;
  for (let epoch = 0; epoch < config.epochs; epoch++) {
    for (const task of config.tasks) {
      for (const strategy of config.strategies) {
        if (inShard(position, shard)) cells.push({ strategy, task, epoch });
        position += 1;
      }
    }
  }
  return cells;
}

/** The cells of `expected` that `have` lacks (matrix order). Pure. */
export function missingCells(expected: readonly MatrixCell[], have: readonly MatrixCell[]): MatrixCell[] {
  const present = new Set(have.map(cellKey));
  return expected.filter((cell) => !present.has(cellKey(cell)));
}

/**
 * The cells a folder set out to hold, as its run.json says: its shard's, those of the shards a merge was given, or
 * the whole matrix. Pure.
 */
export function sliceCells(run: Pick<RunFile, 'config' | 'shard' | 'missing_shards' | 'shard_count'>): MatrixCell[] {
  if (run.shard) return matrixCells(run.config, run.shard);
  const missingShards = new Set(run.missing_shards ?? []);
  const whole = matrixCells(run.config);
  if (missingShards.size === 0) return whole;
  const count = run.shard_count ?? 1;
  return whole.filter((_, position) => !missingShards.has((position % count) + 1));
}

/** What run.json says that completeness reads. */
export type CompletenessSource = Pick<RunFile, 'status' | 'config' | 'shard' | 'missing_shards' | 'shard_count' | 'merged_from'> & {
  suite: { tasks?: number | undefined };
};

/**
 * How much of its matrix a folder holds, from its run.json and the cells of its episodes (records or summary
 * results). `complete`: every cell of the whole matrix; `partial`: every cell of its slice (a shard; a merge of some
 * shards) but not the whole matrix; `interrupted`: cells of its own slice missing. Labels, e.g.
 * "interrupted: 17 of 60 epochs complete (1200 of 4200 episodes)", "shard 1 of 2: 2100 of 4200 episodes",
 * "incomplete: 1 of 2 shards, 2100 of 4200 episodes", with "2 of 14 tasks (--tasks)" added for a task subset ("dev split: 38 of 106
 * tasks" for `--split`). Pure.
 */
export function describeCompleteness(run: CompletenessSource, cells: readonly MatrixCell[]): RunCompleteness {
  // The common end of a run: an unsharded, unmerged folder holding every cell, counted by matrix position (numbers,
  // not key strings, and no matrix built) — at 10,000 episodes the general path costs megabytes at the run's peak.
  const expectedCount = run.config.tasks.length * run.config.strategies.length * run.config.epochs;
  if (!run.shard && run.merged_from === undefined && cells.length === expectedCount) {
    const taskIndex = new Map(run.config.tasks.map((task, index) => [task, index]));
    const strategyIndex = new Map(run.config.strategies.map((strategy, index) => [strategy, index]));
    const positions = new Set<number>();
    for (const cell of cells) {
      const task = taskIndex.get(cell.task);
      const strategy = strategyIndex.get(cell.strategy);
      if (task === undefined || strategy === undefined || !(cell.epoch >= 0 && cell.epoch < run.config.epochs)) break;
      positions.add((cell.epoch * taskIndex.size + task) * strategyIndex.size + strategy);
    }
    if (positions.size === expectedCount) return { status: 'complete', episodes: expectedCount, expected_episodes: expectedCount, label: subsetLabel(run) };
  }
  const whole = matrixCells(run.config);
  const present = new Set(cells.map(cellKey));
  const episodes = whole.filter((cell) => present.has(cellKey(cell))).length;
  const expected = whole.length;
  const missingShards = new Set(run.missing_shards ?? []);
  const shardCount = run.shard?.count ?? run.shard_count ?? 1;
  const slice = sliceCells(run);
  const sliceMissing = slice.filter((cell) => !present.has(cellKey(cell)));
  const status: RunCompleteness['status'] = episodes === expected ? 'complete' : sliceMissing.length === 0 ? 'partial' : 'interrupted';
  const parts: string[] = [];
  const merged = run.merged_from !== undefined;
  if (status === 'partial') {
    parts.push(
      run.shard
        ? `shard ${run.shard.index} of ${run.shard.count}: ${episodes} of ${expected} episodes`
        : `incomplete: ${shardCount - missingShards.size} of ${shardCount} shards, ${episodes} of ${expected} episodes`,
    );
  } else if (status === 'interrupted') {
    const epochsDone = Array.from({ length: run.config.epochs }, (_, epoch) => epoch).filter((epoch) =>
      slice.every((cell) => cell.epoch !== epoch || present.has(cellKey(cell))),
    ).length;
    const prefix = merged
      ? 'incomplete'
      : run.status === 'running'
        ? 'not finished (still running, or killed)'
        : run.status === 'complete'
          ? 'truncated (episodes.jsonl lacks episodes run.json lists)'
          : 'interrupted';
    const shard = run.shard
      ? `shard ${run.shard.index} of ${run.shard.count}, `
      : missingShards.size > 0
        ? `${shardCount - missingShards.size} of ${shardCount} shards, `
        : '';
    parts.push(`${prefix}: ${shard}${epochsDone} of ${run.config.epochs} epochs complete (${slice.length - sliceMissing.length} of ${slice.length} episodes)`);
  }
  const subset = subsetLabel(run);
  if (subset !== null) parts.push(subset);
  return { status, episodes, expected_episodes: expected, label: parts.length > 0 ? parts.join('; ') : null };
}

/** "2 of 14 tasks (--tasks)" or "dev split: 38 of 106 tasks" when the run covers part of its suite, else null. */
function subsetLabel(run: CompletenessSource): string | null {
  const suiteTasks = run.suite.tasks;
  if (suiteTasks === undefined || run.config.tasks.length >= suiteTasks) return null;
  const split = (run.config as { split?: unknown }).split;
  return typeof split === 'string'
    ? `${split} split: ${run.config.tasks.length} of ${suiteTasks} tasks`
    : `${run.config.tasks.length} of ${suiteTasks} tasks (--tasks)`;
}
