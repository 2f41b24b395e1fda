// Runs the episode matrix: cells with p-limit, each record written as it finishes, summarised at the end.
import { activeRunStore, prewarmForRepos, runEpisodesSideBySide, testFileStats } from '../sim-repo/index.js';
import { codeCacheRecord } from './code-cache.js';
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
  type MessageStore,
  type ResumeEpisodes,
} from '../results-folder/index.js';
import { LongestFirst, matrixCells, type EpisodeCell } from './matrix-order.js';
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

/** What the folder holds as the run goes: its matrix cells, their summary, the longest-first estimates, episodes kept. */
interface MatrixState {
  /** One bit per matrix cell: which cells the folder holds (kept from an earlier run, then run here). */
  positions: MatrixPositions;
  summary: SummaryBuilder;
  /** Episodes that wait on a model server start longest first; in-process runs keep the matrix order (undefined). */
  longest: LongestFirst | undefined;
  /** Episodes kept from an earlier run (`--resume`). */
  kept: number;
}

/** The two files episodes go to as they finish: the message texts and the episodes file. */
interface EpisodeFiles {
  messages: MessageStore;
  writer: EpisodeWriter;
}

/** What running the cells did: episodes run, start-up to the first finished episode and the episodes' wall time (ms). */
interface CellsRun {
  ran: number;
  firstEpisodeMs: number | undefined;
  wallMs: number;
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
  const state = await restoreKept(config, env);
  const pending = (position: number): boolean => inShard(position, config.shard, config.strategies.length) && !state.positions.has(position);
  let toRun = 0;
  for (let position = 0; position < state.positions.size; position++) if (pending(position)) toRun += 1;
  const cells = matrixCells(config.tasks, config.strategies, config.epochs, config.seed, pending, state.longest?.estimate, {
    slots: config.modelCallSlots ?? config.concurrency,
    share: config.shard ? 1 / config.shard.count : 1,
  });
  if (toRun > 0) prewarmForRepos(config.tasks.map((task) => task.repoSpec));
  const files = await openEpisodeFiles(config);
  await writeRunFile(config.outDir, { ...config.runInfo, status: 'running' }, config.disk);
  // Episodes side by side send their code ahead to several workers (codeAheadOverlaps); back to one when done.
  const before = runEpisodesSideBySide(config.concurrency);
  const run = await runCells(cells, config, { ...env, texts: files.messages }, state, files, toRun).finally(() => runEpisodesSideBySide(before));
  const interrupted = config.signal?.aborted === true && run.ran < toRun;
  return { ...(await finishMatrix(config, state, run, interrupted)), interrupted, ran: run.ran };
}

/** The matrix's state with the episodes an earlier run of this configuration finished (`config.existing`) folded in. */
async function restoreKept(config: MatrixConfig, env: RunEnvironment): Promise<MatrixState> {
  const positions = new MatrixPositions({ tasks: config.tasks.map((task) => task.id), strategies: config.strategies, epochs: config.epochs });
  const summary = new SummaryBuilder(
    config.groups,
    config.strategies,
    config.tasks.map((task) => task.id),
  );
  const longest = Object.values(env.models).some((model) => !model.deterministic)
    ? new LongestFirst(new Map(config.tasks.map((task, index) => [task.id, index])), new Map(config.strategies.map((name, index) => [name, index])))
    : undefined;
  const state: MatrixState = { positions, summary, longest, kept: 0 };
  await config.existing?.replay((record) => {
    positions.add(record);
    summary.add(record);
    longest?.add(record);
    state.kept += 1;
  });
  return state;
}

/**
 * Opens the message store and the episodes file (gzip when the resumed folder's is, or `compress`). Texts go to disk
 * before the episodes that reference them, so a killed run leaves no dangling hash.
 */
async function openEpisodeFiles(config: MatrixConfig): Promise<EpisodeFiles> {
  const compress = config.existing?.compressed ?? config.compress === true;
  const disk = config.disk;
  const messages = await openMessageStore(config.outDir, disk);
  const writer = new EpisodeWriter(join(config.outDir, compress ? EPISODES_GZ_FILE : EPISODES_FILE), {
    compress,
    beforeFlush: () => messages.flush(),
    ...(disk ? { disk } : {}),
  });
  return { messages, writer };
}

/**
 * Runs the cells (streamCells), each finished record completed (`config.complete`), summarised and written; then
 * closes both files whatever happened. Throws the cells' first error, else a write the disk refused (DiskWriteError),
 * once both files are closed.
 */
async function runCells(
  cells: Iterator<EpisodeCell>,
  config: MatrixConfig,
  env: RunEnvironment,
  state: MatrixState,
  files: EpisodeFiles,
  toRun: number,
): Promise<CellsRun> {
  const progress = startProgress(config.progress, toRun);
  const started = performance.now();
  let firstEpisodeMs: number | undefined;
  let ran = 0;
  let failed: { error: unknown } | undefined;
  try {
    await streamCells(cells, config, async (cell) => {
      let finished: EpisodeRecord;
      try {
        finished = await runEpisode(cell, env);
      } catch (error) {
        // Interrupted mid-call: not an ending (neither the strategy's failure nor infrastructure); --resume runs it.
        if (error instanceof CallInterrupted) return;
        throw error;
      }
      const record = config.complete ? await config.complete(finished, cell) : finished;
      state.summary.add(record);
      state.positions.add(record);
      state.longest?.add(record);
      await files.writer.write(record);
      ran += 1;
      // performance.now() counts from process start: this is start-up to the first finished episode.
      firstEpisodeMs ??= Math.round(performance.now());
      progress.tick(record.success);
    });
  } catch (error) {
    failed = { error };
  }
  progress.stop();
  const closed = await Promise.allSettled([files.writer.close(), files.messages.close()]);
  if (failed !== undefined) throw failed.error;
  const refused = closed.find((result) => result.status === 'rejected');
  if (refused !== undefined) throw refused.reason;
  return { ran, firstEpisodeMs, wallMs: Math.round(performance.now() - started) };
}

/** Writes summary.json (statistics, completeness) and the final run.json (status, counts, timing); returns the summary. */
async function finishMatrix(
  config: MatrixConfig,
  state: MatrixState,
  run: CellsRun,
  interrupted: boolean,
): Promise<SummaryFile & { completeness: RunCompleteness }> {
  const disk = config.disk;
  // Episodes only: statistics and summary writing come after the clock stops.
  const timing: Record<string, unknown> = {
    wall_ms: run.wallMs,
    process_start_to_first_episode_ms: run.firstEpisodeMs ?? null,
    peak_rss_mb_after_episodes: Math.round(process.resourceUsage().maxRSS / 102.4) / 10,
    // Test files executed in the sandbox vs served from the content-keyed cache (repeated repository states).
    sandbox_test_files: { ...testFileStats },
    // The code cache (decision 0049): runs served from the disk and written to it since the process opened it.
    code_cache: codeCacheRecord(activeRunStore()),
  };
  const statistics = withStatistics(state.summary, config.seed, config.pairs);
  const completeness = describeCompleteness({ ...config.runInfo, status: interrupted ? 'interrupted' : 'complete' }, state.positions);
  const built = { ...statistics, completeness };
  await writeSummaryFile(config.outDir, built, disk);
  // Peak resident set of the whole process so far (statistics and summary.json included), MB.
  timing['peak_rss_mb'] = Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
  await writeRunFile(
    config.outDir,
    {
      ...config.runInfo,
      status: interrupted ? 'interrupted' : 'complete',
      episodes: state.kept + run.ran,
      resumed_from: state.kept,
      ...(config.shard ? { shard: config.shard } : {}),
      timing,
      ...config.atEnd?.(),
      finished_at: new Date().toISOString(),
    },
    disk,
  );
  return built;
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
