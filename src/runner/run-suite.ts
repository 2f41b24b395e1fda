// The episode matrix: tasks × strategies × epochs, run with p-limit, written as they finish, summarised at the end.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import pLimit from 'p-limit';
import cliProgress from 'cli-progress';
import type { StrategyName } from '../strategies/index.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';
import { EpisodeWriter, writeJsonFile } from './results-writer.js';
import { SummaryBuilder, type RunSummary } from './summary.js';

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
  /** Written to run.json as is. */
  runInfo: Record<string, unknown>;
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
  const cells: EpisodeCell[] = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const task of tasks) {
      for (const strategy of strategies) cells.push({ task, strategy, epoch, seed: episodeSeed(seed, task.id, strategy, epoch) });
    }
  }
  return cells;
}

/**
 * Runs every cell with at most `concurrency` episodes in flight, appending each record to
 * `<out>/episodes.jsonl` as soon as it finishes, then writes `run.json` and `summary.json`.
 * Throws only when a results file cannot be written.
 */
export async function runMatrix(config: MatrixConfig, env: RunEnvironment): Promise<RunSummary> {
  const cells = buildMatrix(config.tasks, config.strategies, config.epochs, config.seed);
  const writer = new EpisodeWriter(join(config.outDir, 'episodes.jsonl'));
  await writeJsonFile(join(config.outDir, 'run.json'), { ...config.runInfo, status: 'running' });
  const summary = new SummaryBuilder(config.groups, config.strategies);
  const progress = startProgress(config.progress, cells.length);
  const limit = pLimit(Math.max(1, config.concurrency));
  let writing: Promise<void> = Promise.resolve();
  await Promise.all(
    cells.map((cell) =>
      limit(async () => {
        const record = await runEpisode(cell, env);
        summary.add(record);
        writing = writing.then(() => writer.write(record));
        await writing;
        progress.tick(record.success);
      }),
    ),
  );
  await writer.close();
  progress.stop();
  const built = summary.build();
  await writeJsonFile(join(config.outDir, 'summary.json'), built);
  await writeJsonFile(join(config.outDir, 'run.json'), { ...config.runInfo, status: 'complete', episodes: cells.length });
  return built;
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
