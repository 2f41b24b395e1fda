// How much of its episode matrix a results folder holds, and the label every command prints for a partial one.
import type { RunCompleteness, RunFile, Shard } from '../records/index.js';

/** One strategy × task × epoch of a matrix (an episode record or summary result has these fields). */
export interface MatrixCell {
  strategy: string;
  task: string;
  epoch: number;
}

/**
 * Whether matrix cell `position` belongs to `shard`: round-robin over the deterministic matrix order (epoch, task,
 * strategy) by row — task × epoch, `strategies` cells — for a shard with `unit: 'row'`, else by cell (folders written
 * before rows). Pure.
 */
export function inShard(position: number, shard: Shard | undefined, strategies: number): boolean {
  return shard === undefined || shardOf(position, shard.count, shard.unit, strategies) === shard.index;
}

/** The 1-based shard of `count` that holds matrix cell `position` (see inShard). Pure. */
export function shardOf(position: number, count: number, unit: Shard['unit'], strategies: number): number {
  return ((unit === 'row' ? Math.floor(position / strategies) : position) % count) + 1;
}

const cellKey = (cell: MatrixCell): string => `${cell.strategy}\u0000${cell.task}\u0000${cell.epoch}`;

/**
 * The cells of the matrix run.json describes, in the runner's order (epoch, then task, then strategy), only those of
 * `shard` when given — the same slice `run --shard` runs. A generator: a million-cell matrix is never built. Pure.
 */
export function* matrixCells(config: Pick<RunFile['config'], 'strategies' | 'tasks' | 'epochs'>, shard?: Shard): Generator<MatrixCell> {
  let position = 0;
  for (let epoch = 0; epoch < config.epochs; epoch++) {
    for (const task of config.tasks) {
      for (const strategy of config.strategies) {
        if (inShard(position, shard, config.strategies.length)) yield { strategy, task, epoch };
        position += 1;
      }
    }
  }
}

/** The cells of `expected` that `have` lacks (matrix order). Pure. */
export function missingCells(expected: Iterable<MatrixCell>, have: readonly MatrixCell[]): MatrixCell[] {
  const present = new Set(have.map(cellKey));
  return [...expected].filter((cell) => !present.has(cellKey(cell)));
}

/**
 * The cells a folder set out to hold, as its run.json says: its shard's, those of the shards a merge was given, or
 * the whole matrix, in matrix order. A generator (nothing proportional to the matrix is built). Pure.
 */
export function* sliceCells(run: Pick<RunFile, 'config' | 'shard' | 'missing_shards' | 'shard_count' | 'shard_unit'>): Generator<MatrixCell> {
  if (run.shard) {
    yield* matrixCells(run.config, run.shard);
    return;
  }
  const inSlice = sliceTest(run);
  let position = 0;
  for (const cell of matrixCells(run.config)) {
    if (inSlice(position)) yield cell;
    position += 1;
  }
}

/** What run.json says that completeness reads. */
export type CompletenessSource = Pick<
  RunFile,
  'status' | 'config' | 'shard' | 'missing_shards' | 'shard_count' | 'shard_unit' | 'merged_from' | 'episodes_format'
> & {
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
export function describeCompleteness(run: CompletenessSource, cells: Iterable<MatrixCell> | MatrixPositions): RunCompleteness {
  // Counted on matrix positions (one bit each): no matrix, cell object or key string is built, so a
  // million-episode folder costs 125 KB here.
  const present = cells instanceof MatrixPositions ? cells : MatrixPositions.of(run.config, cells);
  const { epochs } = run.config;
  const perEpoch = present.perEpoch;
  const expected = present.size;
  const episodes = present.count;
  const missingShards = new Set(run.missing_shards ?? []);
  const shardCount = run.shard?.count ?? run.shard_count ?? 1;
  const inSlice = sliceTest(run);
  let sliceSize = 0;
  let sliceHave = 0;
  let epochsDone = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    let complete = true;
    for (let position = epoch * perEpoch; position < (epoch + 1) * perEpoch; position++) {
      if (!inSlice(position)) continue;
      sliceSize += 1;
      if (present.has(position)) sliceHave += 1;
      else complete = false;
    }
    if (complete) epochsDone += 1;
  }
  const status: RunCompleteness['status'] = episodes === expected ? 'complete' : sliceHave === sliceSize ? 'partial' : 'interrupted';
  const parts: string[] = [];
  const merged = run.merged_from !== undefined;
  if (status === 'partial') {
    parts.push(
      run.shard
        ? `shard ${run.shard.index} of ${run.shard.count}: ${episodes} of ${expected} episodes`
        : `incomplete: ${shardCount - missingShards.size} of ${shardCount} shards, ${episodes} of ${expected} episodes`,
    );
  } else if (status === 'interrupted') {
    const prefix = merged
      ? 'incomplete'
      : run.status === 'running'
        ? 'not finished (still running, or killed)'
        : run.status === 'complete'
          ? `truncated (${run.episodes_format === 'gzip' ? 'episodes.jsonl.gz' : 'episodes.jsonl'} lacks episodes run.json lists)`
          : 'interrupted';
    const shard = run.shard
      ? `shard ${run.shard.index} of ${run.shard.count}, `
      : missingShards.size > 0
        ? `${shardCount - missingShards.size} of ${shardCount} shards, `
        : '';
    parts.push(`${prefix}: ${shard}${epochsDone} of ${epochs} epochs complete (${sliceHave} of ${sliceSize} episodes)`);
  }
  const subset = subsetLabel(run);
  if (subset !== null) parts.push(subset);
  return { status, episodes, expected_episodes: expected, label: parts.length > 0 ? parts.join('; ') : null };
}

/** Whether a matrix position belongs to the slice run.json says the folder set out to hold (see sliceCells). */
function sliceTest(run: Pick<RunFile, 'config' | 'shard' | 'missing_shards' | 'shard_count' | 'shard_unit'>): (position: number) => boolean {
  const strategies = run.config.strategies.length;
  if (run.shard) {
    const shard = run.shard;
    return (position) => inShard(position, shard, strategies);
  }
  const missingShards = new Set(run.missing_shards ?? []);
  if (missingShards.size === 0) return () => true;
  const count = run.shard_count ?? 1;
  return (position) => !missingShards.has(shardOf(position, count, run.shard_unit, strategies));
}

/**
 * The cells of a run's matrix a folder holds, one bit per matrix position (epoch, then task, then strategy: the
 * runner's order). Cells outside the matrix (another task, strategy or epoch) are not counted.
 */
export class MatrixPositions {
  private readonly bits: Uint8Array;
  private readonly taskIndex: Map<string, number>;
  private readonly strategyIndex: Map<string, number>;
  /** Positions per epoch (tasks × strategies). */
  readonly perEpoch: number;
  /** Positions in the whole matrix. */
  readonly size: number;
  /** Distinct positions added. */
  count = 0;

  constructor(private readonly config: Pick<RunFile['config'], 'strategies' | 'tasks' | 'epochs'>) {
    this.taskIndex = new Map(config.tasks.map((task, index) => [task, index]));
    this.strategyIndex = new Map(config.strategies.map((strategy, index) => [strategy, index]));
    this.perEpoch = config.tasks.length * config.strategies.length;
    this.size = this.perEpoch * config.epochs;
    this.bits = new Uint8Array(Math.ceil(this.size / 8));
  }

  static of(config: Pick<RunFile['config'], 'strategies' | 'tasks' | 'epochs'>, cells: Iterable<MatrixCell>): MatrixPositions {
    const positions = new MatrixPositions(config);
    for (const cell of cells) positions.add(cell);
    return positions;
  }

  /** The cell's matrix position, or -1 when it is outside the matrix. */
  positionOf(cell: MatrixCell): number {
    const task = this.taskIndex.get(cell.task);
    const strategy = this.strategyIndex.get(cell.strategy);
    if (task === undefined || strategy === undefined || !(Number.isInteger(cell.epoch) && cell.epoch >= 0 && cell.epoch < this.config.epochs)) return -1;
    return (cell.epoch * this.taskIndex.size + task) * this.strategyIndex.size + strategy;
  }

  /** Marks the cell present; returns its position (-1: outside the matrix, not counted). */
  add(cell: MatrixCell): number {
    const position = this.positionOf(cell);
    if (position >= 0) this.set(position);
    return position;
  }

  set(position: number): void {
    const mask = 1 << (position & 7);
    const byte = position >> 3;
    if (((this.bits[byte] as number) & mask) === 0) {
      this.bits[byte] = (this.bits[byte] as number) | mask;
      this.count += 1;
    }
  }

  has(position: number): boolean {
    return position >= 0 && ((this.bits[position >> 3] as number) & (1 << (position & 7))) !== 0;
  }
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
