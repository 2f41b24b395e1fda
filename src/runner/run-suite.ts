// The episode matrix: tasks × strategies × epochs, run with p-limit, written as they finish, summarised at the end.
import { prewarmForRepos, testFileStats } from '../sim-repo/index.js';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import pLimit from 'p-limit';
import cliProgress from 'cli-progress';
import type { StrategyName } from '../strategies/index.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';
import {
  describeCompleteness,
  EPISODES_FILE,
  EPISODES_GZ_FILE,
  EpisodeWriter,
  inShard,
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

/**
 * The matrix's cells one at a time, in buildMatrix's order, those whose position `keep` accepts: a matrix of any
 * size is never held in memory.
 */
export function* matrixCells(
  tasks: EpisodeTask[],
  strategies: StrategyName[],
  epochs: number,
  seed: number,
  keep: (position: number) => boolean,
): Generator<EpisodeCell> {
  let position = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const task of tasks) {
      for (const strategy of strategies) {
        if (keep(position)) yield { task, strategy, epoch, seed: episodeSeed(seed, task.id, strategy, epoch) };
        position += 1;
      }
    }
  }
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
  let kept = 0;
  await config.existing?.replay((record) => {
    positions.add(record);
    summary.add(record);
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
  );
  if (toRun > 0) prewarmForRepos(config.tasks.map((task) => task.repoSpec));
  const compress = config.existing?.compressed ?? config.compress === true;
  const writer = new EpisodeWriter(join(config.outDir, compress ? EPISODES_GZ_FILE : EPISODES_FILE), { compress });
  const messages = await openMessageStore(config.outDir);
  const withTexts: RunEnvironment = { ...env, texts: messages };
  await writeRunFile(config.outDir, { ...config.runInfo, status: 'running' });
  const progress = startProgress(config.progress, toRun);
  const started = performance.now();
  let firstEpisodeMs: number | undefined;
  let ran = 0;
  try {
    await streamCells(cells, config, async (cell) => {
      const finished = await runEpisode(cell, withTexts);
      const record = config.complete ? await config.complete(finished, cell) : finished;
      summary.add(record);
      positions.add(record);
      await writer.write(record);
      ran += 1;
      // performance.now() counts from process start: this is start-up to the first finished episode.
      firstEpisodeMs ??= Math.round(performance.now());
      progress.tick(record.success);
    });
  } finally {
    await writer.close();
    await messages.close();
    progress.stop();
  }
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
  await writeSummaryFile(config.outDir, built);
  // Peak resident set of the whole process so far (statistics and summary.json included), MB.
  timing['peak_rss_mb'] = Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
  await writeRunFile(config.outDir, {
    ...config.runInfo,
    status: interrupted ? 'interrupted' : 'complete',
    episodes: kept + ran,
    resumed_from: kept,
    ...(config.shard ? { shard: config.shard } : {}),
    timing,
    ...config.atEnd?.(),
    finished_at: new Date().toISOString(),
  });
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
