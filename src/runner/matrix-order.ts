// The episode matrix (tasks × strategies × epochs) and the order its cells start in: matrix order, or longest first.
import * as crypto from 'node:crypto';
import type { EpisodeRecord } from '../records/index.js';
import type { StrategyName } from '../strategies/index.js';
import type { EpisodeTask } from './episode.js';

/** One cell of the matrix: a task, a strategy, an epoch and the episode's seed (episodeSeed). */
export interface EpisodeCell {
  task: EpisodeTask;
  strategy: StrategyName;
  epoch: number;
  seed: number;
}

/**
 * crypto.hash (Node ≥ 20.12): the one-shot digest, without a Hash object per cell; the same bytes as
 * createHash().update().digest(), which older Node 20 releases (engines: >= 20) use instead.
 */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

/** Per-episode seed: stable for (base seed, task, strategy, epoch), distinct across epochs. */
export function episodeSeed(base: number, task: string, strategy: string, epoch: number): number {
  const text = `${base}|${task}|${strategy}|${epoch}`;
  const digest = oneShotHash ? oneShotHash('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}

/** The matrix in a deterministic order: epoch, then task (suite order), then strategy. */
export function buildMatrix(tasks: EpisodeTask[], strategies: StrategyName[], epochs: number, seed: number): EpisodeCell[] {
  return [...matrixCells(tasks, strategies, epochs, seed, () => true)];
}

/** How a server-backed run sizes the final block of its longest-first order (see matrixCells). */
export interface FinalBlock {
  /** Model calls in flight (`--concurrency`). */
  slots: number;
  /** The share of an epoch's positions the run keeps (a shard i/n: 1/n); default 1. */
  share?: number;
}

type PendingCell = { cell: EpisodeCell; task: number; strategy: number };

/**
 * The matrix's cells one at a time, in buildMatrix's order, those whose position `keep` accepts: a matrix of any
 * size is never held in memory. With `estimate` (model calls expected of task × strategy, or undefined when
 * unknown), each epoch's cells come longest first instead (see `LongestFirst`); positions, seeds and results do
 * not change, only the order episodes start in.
 *
 * With `block` too, the last epochs form one block, longest first across them. A run's wall ends with its last long
 * episode, and ordering epoch by epoch starts the last epoch's long episodes late: when only its own short ones and
 * the episodes in flight are left. Simulated from the episodes of 64 calls × 50 ms, core suite × 10 epochs, a harness
 * of no cost would take 1.17× calls × latency / slots epoch by epoch, 1.01× with the block (decision 0020).
 *
 * The block starts at the first epoch whose remaining calls — its kept cells' estimates, plus each later epoch's
 * whole row × `share` — are at most `FINAL_BLOCK_FACTOR` × slots × the longest estimate: enough to keep the slots busy
 * while the longest episode runs. Each cell counts at least one call, so the block holds at most that many cells,
 * whatever the matrix's size (a resumed run's sparse epochs are counted as kept, later ones as whole). Within the
 * block each next cell is the one whose task × strategy has the longest estimate at that moment: estimates made
 * while its long episodes of earlier epochs were still running are corrected as they finish.
 */
export function* matrixCells(
  tasks: EpisodeTask[],
  strategies: StrategyName[],
  epochs: number,
  seed: number,
  keep: (position: number) => boolean,
  estimate?: (task: number, strategy: number) => number | undefined,
  block?: FinalBlock,
): Generator<EpisodeCell> {
  let position = 0;
  let blockCells: PendingCell[] | undefined;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const cells: PendingCell[] = [];
    // The epoch's seeds first, in one loop: sha256 there costs ~1 µs a seed, ~5 µs when each is computed between two
    // episodes (measured on the core suite: 164 ms of 30,030 episodes; OpenSSL's state goes cold in between).
    const seeds: number[] = [];
    for (let task = 0, at = position; task < tasks.length; task++) {
      for (let strategy = 0; strategy < strategies.length; strategy++, at++) {
        if (keep(at)) seeds.push(episodeSeed(seed, tasks[task]!.id, strategies[strategy]!, epoch));
      }
    }
    let kept = 0;
    for (let task = 0; task < tasks.length; task++) {
      for (let strategy = 0; strategy < strategies.length; strategy++) {
        if (keep(position)) {
          const cell = { task: tasks[task]!, strategy: strategies[strategy]!, epoch, seed: seeds[kept++]! };
          if (estimate === undefined) yield cell;
          else cells.push({ cell, task, strategy });
        }
        position += 1;
      }
    }
    if (estimate === undefined) continue;
    // Estimated when the epoch's first cell is asked for: after every cell of the epochs before was started.
    if (blockCells === undefined && block !== undefined && finalBlockStarts(cells, epochs - epoch, tasks.length, strategies.length, estimate, block)) {
      blockCells = [];
    }
    if (blockCells !== undefined) {
      for (const cell of cells) blockCells.push(cell);
      if (epoch === epochs - 1) yield* longestNow(blockCells, strategies.length, estimate);
      continue;
    }
    const expected = cells.map(({ task, strategy }) => estimate(task, strategy) ?? Number.POSITIVE_INFINITY);
    const order = cells.map((_, index) => index).sort((a, b) => expected[b]! - expected[a]! || a - b);
    for (const index of order) yield cells[index]!.cell;
  }
}

/** The final block's work: at most this many times the model-call slots × the longest estimate (see matrixCells). */
export const FINAL_BLOCK_FACTOR = 2;

/**
 * Whether the final block starts at this epoch (see matrixCells): every task × strategy has an estimate, and this
 * epoch's kept calls + the later epochs' rows × share ≤ FINAL_BLOCK_FACTOR × slots × the longest estimate, each cell
 * counting at least one call.
 */
function finalBlockStarts(
  epochCells: readonly PendingCell[],
  epochsLeft: number,
  taskCount: number,
  strategyCount: number,
  estimate: (task: number, strategy: number) => number | undefined,
  block: FinalBlock,
): boolean {
  let row = 0;
  let longest = 0;
  for (let task = 0; task < taskCount; task++) {
    for (let strategy = 0; strategy < strategyCount; strategy++) {
      const expected = estimate(task, strategy);
      if (expected === undefined) return false;
      row += Math.max(1, expected);
      longest = Math.max(longest, expected);
    }
  }
  let remaining = (epochsLeft - 1) * row * (block.share ?? 1);
  for (const { task, strategy } of epochCells) remaining += Math.max(1, estimate(task, strategy)!);
  return longest > 0 && remaining <= FINAL_BLOCK_FACTOR * block.slots * longest;
}

/**
 * The block's cells, each next one of the task × strategy with the longest estimate when it is asked for (unknown
 * first; ties: the earlier position). Cells of one task × strategy keep their position order. Each step costs the
 * number of task × strategy pairs in the block.
 */
function* longestNow(
  cells: readonly PendingCell[],
  strategyCount: number,
  estimate: (task: number, strategy: number) => number | undefined,
): Generator<EpisodeCell> {
  // One queue per task × strategy, in the order its first cell appears (position order).
  const queues = new Map<number, { task: number; strategy: number; cells: EpisodeCell[]; next: number }>();
  for (const { cell, task, strategy } of cells) {
    const key = task * strategyCount + strategy;
    let queue = queues.get(key);
    if (queue === undefined) queues.set(key, (queue = { task, strategy, cells: [], next: 0 }));
    queue.cells.push(cell);
  }
  let open = [...queues.values()];
  while (open.length > 0) {
    let best = open[0]!;
    let bestEstimate = estimate(best.task, best.strategy) ?? Number.POSITIVE_INFINITY;
    for (let index = 1; index < open.length; index++) {
      const queue = open[index]!;
      const expected = estimate(queue.task, queue.strategy) ?? Number.POSITIVE_INFINITY;
      if (expected > bestEstimate || (expected === bestEstimate && earlier(queue, best, strategyCount))) {
        best = queue;
        bestEstimate = expected;
      }
    }
    yield best.cells[best.next++]!;
    if (best.next === best.cells.length) open = open.filter((queue) => queue !== best);
  }
}

/** Whether queue `a`'s next cell comes before `b`'s in the matrix: epoch, then task, then strategy. */
function earlier(a: { cells: EpisodeCell[]; next: number; task: number; strategy: number }, b: typeof a, strategyCount: number): boolean {
  const epochA = a.cells[a.next]!.epoch;
  const epochB = b.cells[b.next]!.epoch;
  return epochA < epochB || (epochA === epochB && a.task * strategyCount + a.strategy < b.task * strategyCount + b.strategy);
}

/**
 * Model calls per task × strategy as episodes finish, for `matrixCells`' longest-first order. When episodes wait on
 * a model server, the run's wall time ends with the episodes still in flight; starting the long ones first keeps
 * that tail short (the LPT rule of scheduling). An epoch's estimate of a cell is the calls of the same task ×
 * strategy in an earlier epoch, else the mean of its strategy so far, else unknown (first: nothing is known of it).
 */
export class LongestFirst {
  private readonly calls: Float64Array;
  private readonly strategySum: Float64Array;
  private readonly strategyCount: Float64Array;

  constructor(
    private readonly taskIndex: ReadonlyMap<string, number>,
    private readonly strategyIndex: ReadonlyMap<string, number>,
  ) {
    this.calls = new Float64Array(taskIndex.size * strategyIndex.size).fill(Number.NaN);
    this.strategySum = new Float64Array(strategyIndex.size);
    this.strategyCount = new Float64Array(strategyIndex.size);
  }

  /**
   * Notes the model calls of a finished episode. An episode ended by an infrastructure error is left out: it stopped
   * early (often before its first recorded call), so its count says nothing of the episode's length.
   */
  add(record: EpisodeRecord): void {
    if (record.outcome.status === 'error') return;
    const task = this.taskIndex.get(record.task);
    const strategy = this.strategyIndex.get(record.strategy);
    if (task === undefined || strategy === undefined) return;
    let calls = 0;
    for (const count of Object.values(record.metrics.model_calls)) calls += count ?? 0;
    this.calls[task * this.strategyIndex.size + strategy] = calls;
    this.strategySum[strategy]! += calls;
    this.strategyCount[strategy]! += 1;
  }

  readonly estimate = (task: number, strategy: number): number | undefined => {
    const seen = this.calls[task * this.strategyIndex.size + strategy]!;
    if (!Number.isNaN(seen)) return seen;
    const count = this.strategyCount[strategy]!;
    return count > 0 ? this.strategySum[strategy]! / count : undefined;
  };
}
