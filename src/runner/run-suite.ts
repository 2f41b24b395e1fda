// The episode matrix: tasks × strategies × epochs, run with p-limit, written as they finish, summarised at the end.
import { prewarmForRepos, testFileStats } from '../sim-repo/index.js';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import pLimit from 'p-limit';
import cliProgress from 'cli-progress';
import type { StrategyName } from '../strategies/index.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';
import { CallInterrupted } from '../models/types.js';
import {
  describeCompleteness,
  EPISODES_FILE,
  EPISODES_GZ_FILE,
  EpisodeWriter,
  inShard,
  type Disk,
  MatrixPositions,
  openMessageStore,
  writeRunFile,
  writeSummaryFile,
  type ResumeEpisodes,
} from '../results-folder/index.js';
import { SummaryBuilder, withStatistics, type SummaryFile } from '../report/index.js';
import type { EpisodeRecord, RunCompleteness, RunDescription, Shard } from '../records/index.js';

export interface MatrixConfig {
  tasks: EpisodeTask[];
  groups: string[];
  strategies: StrategyName[];
  epochs: number;
  concurrency: number;
  /** Model calls in flight (`--concurrency` when episodes wait on a server; default `concurrency`): sizes the final block of the longest-first order (matrixCells). */
  modelCallSlots?: number;
  seed: number;
  outDir: string;
  /** `tty`: a progress bar on stderr; `plain`: a line every few seconds; `none`: silent. */
  progress: 'tty' | 'plain' | 'none';
  /** Written to run.json, with the status, counts and timing added. */
  runInfo: RunDescription;
  /** Write episodes.jsonl.gz instead of episodes.jsonl (`--compress`; decision 0015). A resumed folder keeps the format its episodes file has. */
  compress?: boolean;
  /** Finished episodes from an earlier, interrupted run of this configuration (`--resume`): kept, not re-run. */
  existing?: ResumeEpisodes;
  /** Run only this deterministic slice of the matrix (`--shard i/n`). */
  shard?: Shard;
  /** Aborting stops starting new episodes; running ones finish and are recorded (Ctrl-C). */
  signal?: AbortSignal;
  /** Fields added to run.json when the run ends (e.g. per-host figures of pooled models). */
  atEnd?: () => Partial<RunDescription>;
  /** The strategy pairs the statistics compare (`--pairs`; default: selectPairs'). */
  pairs?: [string, string][];
  /** Where the results folder's files are written (default: node:fs); tests pass a disk that refuses writes. */
  disk?: Disk;
  /** Completes a finished episode's record before it is summarised and written (`--counterfactual` adds its replay). */
  complete?: (record: EpisodeRecord, cell: EpisodeCell) => Promise<EpisodeRecord>;
}

export interface EpisodeCell {
  task: EpisodeTask;
  strategy: StrategyName;
  epoch: number;
  seed: number;
}

/** Per-episode seed: stable for (base seed, task, strategy, epoch), distinct across epochs. */
export function episodeSeed(base: number, task: string, strategy: string, epoch: number): number {
  return createHash('sha256').update(`${base}|${task}|${strategy}|${epoch}`).digest().readUInt32BE(0) & 0x7fffffff;
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
    for (let task = 0; task < tasks.length; task++) {
      for (let strategy = 0; strategy < strategies.length; strategy++) {
        if (keep(position)) {
          const cell = { task: tasks[task]!, strategy: strategies[strategy]!, epoch, seed: episodeSeed(seed, tasks[task]!.id, strategies[strategy]!, epoch) };
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

/**
 * Runs every cell with at most `concurrency` episodes in flight, appending each record to
 * `<out>/episodes.jsonl` (or episodes.jsonl.gz: `compress`) as soon as it finishes, then writes `run.json` and `summary.json`.
 * Throws only when a results file cannot be written.
 */
export async function runMatrix(
  config: MatrixConfig,
  env: RunEnvironment,
): Promise<SummaryFile & { completeness: RunCompleteness; interrupted: boolean; ran: number }> {
  // One bit per matrix cell: which cells the folder holds (kept from an earlier run, then run here).
  const positions = new MatrixPositions({ tasks: config.tasks.map((task) => task.id), strategies: config.strategies, epochs: config.epochs });
  const summary = new SummaryBuilder(
    config.groups,
    config.strategies,
    config.tasks.map((task) => task.id),
  );
  // Episodes that wait on a model server start longest first; in-process runs keep the matrix order (and so the
  // order of episodes.jsonl, run to run).
  const longest = Object.values(env.models).some((model) => !model.deterministic)
    ? new LongestFirst(new Map(config.tasks.map((task, index) => [task.id, index])), new Map(config.strategies.map((name, index) => [name, index])))
    : undefined;
  let kept = 0;
  await config.existing?.replay((record) => {
    positions.add(record);
    summary.add(record);
    longest?.add(record);
    kept += 1;
  });
  let toRun = 0;
  for (let position = 0; position < positions.size; position++) if (inShard(position, config.shard) && !positions.has(position)) toRun += 1;
  const cells = matrixCells(
    config.tasks,
    config.strategies,
    config.epochs,
    config.seed,
    (position) => inShard(position, config.shard) && !positions.has(position),
    longest?.estimate,
    { slots: config.modelCallSlots ?? config.concurrency, share: config.shard ? 1 / config.shard.count : 1 },
  );
  if (toRun > 0) prewarmForRepos(config.tasks.map((task) => task.repoSpec));
  const compress = config.existing?.compressed ?? config.compress === true;
  const disk = config.disk;
  const messages = await openMessageStore(config.outDir, disk);
  // Texts go to disk before the episodes that reference them, so a killed run leaves no dangling hash.
  const writer = new EpisodeWriter(join(config.outDir, compress ? EPISODES_GZ_FILE : EPISODES_FILE), {
    compress,
    beforeFlush: () => messages.flush(),
    ...(disk ? { disk } : {}),
  });
  const withTexts: RunEnvironment = { ...env, texts: messages };
  await writeRunFile(config.outDir, { ...config.runInfo, status: 'running' }, disk);
  const progress = startProgress(config.progress, toRun);
  const started = performance.now();
  let firstEpisodeMs: number | undefined;
  let ran = 0;
  let failed: { error: unknown } | undefined;
  try {
    await streamCells(cells, config, async (cell) => {
      let finished: EpisodeRecord;
      try {
        finished = await runEpisode(cell, withTexts);
      } catch (error) {
        // Interrupted mid-call: not an ending (neither the strategy's failure nor infrastructure); --resume runs it.
        if (error instanceof CallInterrupted) return;
        throw error;
      }
      const record = config.complete ? await config.complete(finished, cell) : finished;
      summary.add(record);
      positions.add(record);
      longest?.add(record);
      await writer.write(record);
      ran += 1;
      // performance.now() counts from process start: this is start-up to the first finished episode.
      firstEpisodeMs ??= Math.round(performance.now());
      progress.tick(record.success);
    });
  } catch (error) {
    failed = { error };
  }
  // Both files are closed whatever happened; a write the disk refused (DiskWriteError) is thrown once both are.
  progress.stop();
  const closed = await Promise.allSettled([writer.close(), messages.close()]);
  if (failed !== undefined) throw failed.error;
  const refused = closed.find((result) => result.status === 'rejected');
  if (refused !== undefined) throw refused.reason;
  const interrupted = config.signal?.aborted === true && ran < toRun;
  // Episodes only: statistics and summary writing come after the clock stops.
  const timing: Record<string, unknown> = {
    wall_ms: Math.round(performance.now() - started),
    process_start_to_first_episode_ms: firstEpisodeMs ?? null,
    peak_rss_mb_after_episodes: Math.round(process.resourceUsage().maxRSS / 102.4) / 10,
    // Test files executed in the sandbox vs served from the content-keyed cache (repeated repository states).
    sandbox_test_files: { ...testFileStats },
  };
  const statistics = withStatistics(summary, config.seed, config.pairs);
  const completeness = describeCompleteness({ ...config.runInfo, status: interrupted ? 'interrupted' : 'complete' }, positions);
  const built = { ...statistics, completeness };
  await writeSummaryFile(config.outDir, built, disk);
  // Peak resident set of the whole process so far (statistics and summary.json included), MB.
  timing['peak_rss_mb'] = Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
  await writeRunFile(
    config.outDir,
    {
      ...config.runInfo,
      status: interrupted ? 'interrupted' : 'complete',
      episodes: kept + ran,
      resumed_from: kept,
      ...(config.shard ? { shard: config.shard } : {}),
      timing,
      ...config.atEnd?.(),
      finished_at: new Date().toISOString(),
    },
    disk,
  );
  return { ...built, interrupted, ran };
}

/**
 * Runs cells with at most `concurrency` episodes in flight: `concurrency` loops pull the next cell from one
 * shared iterator and run it through p-limit, so a matrix of any size holds no queue of pending closures.
 * Stops starting cells once `signal` aborts (running ones finish); the first error from `run` stops every
 * loop and is rethrown.
 */
async function streamCells(cells: Iterator<EpisodeCell>, config: MatrixConfig, run: (cell: EpisodeCell) => Promise<void>): Promise<void> {
  const concurrency = Math.max(1, config.concurrency);
  const limit = pLimit(concurrency);
  const next = cells;
  let started = 0;
  let failed = false;
  const loop = async (): Promise<void> => {
    for (let item = next.next(); !item.done; item = next.next()) {
      // In-process models resolve in microtasks only; yield to the event loop every 16 cells so signals
      // (Ctrl-C), timers (progress, the writer's flush) and I/O get their turn. Counting cells, not time,
      // keeps the interleaving — and so the order of episodes.jsonl — the same from run to run.
      if (++started % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (config.signal?.aborted || failed) return;
      const cell = item.value;
      try {
        await limit(() => run(cell));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

interface Progress {
  tick(success: boolean): void;
  stop(): void;
}

function startProgress(mode: MatrixConfig['progress'], total: number): Progress {
  if (mode === 'none') return { tick: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'episodes {bar} {value}/{total} | {successes} succeeded | {duration_formatted}',
      noTTYOutput: mode === 'plain',
      notTTYSchedule: 2000,
      hideCursor: mode === 'tty',
    },
    cliProgress.Presets.shades_classic,
  );
  let successes = 0;
  bar.start(total, 0, { successes });
  return {
    tick(success) {
      if (success) successes += 1;
      bar.increment(1, { successes });
    },
    stop() {
      bar.stop();
    },
  };
}
