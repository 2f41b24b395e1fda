// Per-episode results as dictionary-encoded columns (typed arrays): what the statistics read, a few bytes per episode.
import { OutcomeStatus } from '../records/index.js';
import type { EpisodeResult } from './statistics-tasks.js';

const STATUSES = OutcomeStatus.options;

/** One task as the columns name it: its family is the task id when the task has none. */
export interface ColumnTask {
  id: string;
  family: string;
  group: string;
}

/**
 * Results of many episodes, one index per episode across the columns: `strategy[i]` indexes `strategies`, `task[i]`
 * indexes `tasks`, `status[i]` indexes OutcomeStatus.options, `success[i]` is 0 or 1. About 12 bytes per episode
 * (1,000,000 episodes ≈ 12 MB) plus the dictionaries.
 */
export interface ResultColumns {
  strategies: string[];
  tasks: ColumnTask[];
  length: number;
  strategy: Uint16Array;
  task: Uint32Array;
  epoch: Uint32Array;
  status: Uint8Array;
  success: Uint8Array;
}

/** Collects results one episode at a time into ResultColumns (arrays grow by doubling). */
export class ResultColumnsBuilder {
  private readonly strategyIndex = new Map<string, number>();
  private readonly taskIndex = new Map<string, number>();
  private readonly strategies: string[] = [];
  private readonly tasks: ColumnTask[] = [];
  private length = 0;
  private strategy = new Uint16Array(1024);
  private task = new Uint32Array(1024);
  private epoch = new Uint32Array(1024);
  private status = new Uint8Array(1024);
  private success = new Uint8Array(1024);

  /** Adds one episode's result. Throws on an outcome status records/ does not define. */
  add(result: EpisodeResult): void {
    if (this.length === this.strategy.length) this.grow();
    let strategy = this.strategyIndex.get(result.strategy);
    if (strategy === undefined) {
      strategy = this.strategies.push(result.strategy) - 1;
      this.strategyIndex.set(result.strategy, strategy);
    }
    let task = this.taskIndex.get(result.task);
    if (task === undefined) {
      task = this.tasks.push({ id: result.task, family: result.family ?? result.task, group: result.group }) - 1;
      this.taskIndex.set(result.task, task);
    }
    const status = STATUSES.indexOf(result.outcome.status);
    if (status < 0) throw new Error(`unknown outcome status ${JSON.stringify(result.outcome.status)}`);
    const i = this.length++;
    this.strategy[i] = strategy;
    this.task[i] = task;
    this.epoch[i] = result.epoch;
    this.status[i] = status;
    this.success[i] = result.success ? 1 : 0;
  }

  private grow(): void {
    const size = this.strategy.length * 2;
    const widen = <T extends Uint8Array | Uint16Array | Uint32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.strategy = widen(this.strategy, (n) => new Uint16Array(n));
    this.task = widen(this.task, (n) => new Uint32Array(n));
    this.epoch = widen(this.epoch, (n) => new Uint32Array(n));
    this.status = widen(this.status, (n) => new Uint8Array(n));
    this.success = widen(this.success, (n) => new Uint8Array(n));
  }

  /** The columns so far (views of the builder's arrays: add nothing after reading them). */
  finish(): ResultColumns {
    const n = this.length;
    return {
      strategies: [...this.strategies],
      tasks: [...this.tasks],
      length: n,
      strategy: this.strategy.subarray(0, n),
      task: this.task.subarray(0, n),
      epoch: this.epoch.subarray(0, n),
      status: this.status.subarray(0, n),
      success: this.success.subarray(0, n),
    };
  }
}

/** Columns of an array of results (for callers that still hold objects). */
export function fromEpisodes(episodes: Iterable<EpisodeResult>): ResultColumns {
  const builder = new ResultColumnsBuilder();
  for (const episode of episodes) builder.add(episode);
  return builder.finish();
}

/** Episode `i` of the columns as an EpisodeResult (a new object per call). */
export function episodeAt(columns: ResultColumns, i: number): EpisodeResult {
  const task = columns.tasks[columns.task[i] as number] as ColumnTask;
  return {
    task: task.id,
    ...(task.family === task.id ? {} : { family: task.family }),
    group: task.group,
    strategy: columns.strategies[columns.strategy[i] as number] as string,
    epoch: columns.epoch[i] as number,
    success: columns.success[i] === 1,
    outcome: { status: STATUSES[columns.status[i] as number] as OutcomeStatus },
  };
}
