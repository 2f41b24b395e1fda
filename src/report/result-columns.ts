// ResultColumns: per-episode results as dictionary-encoded typed columns (12 bytes an episode), what the statistics read.
import { OutcomeStatus } from '../records/index.js';

/** The fields of an EpisodeRecord the statistics read; a full EpisodeRecord satisfies it. */
export interface EpisodeResult {
  task: string;
  /** The template family the task is a variant of (the bootstrap's cluster); absent: the task is its own. */
  family?: string | undefined;
  group: string;
  strategy: string;
  epoch: number;
  success: boolean;
  outcome: { status: OutcomeStatus };
}

/** The outcome statuses in the order the `status` column indexes them (records' OutcomeStatus enum). */
export const RESULT_STATUSES: readonly OutcomeStatus[] = OutcomeStatus.options;
/** Index of the `error` status (infrastructure errors, left out of every rate). */
export const ERROR_STATUS = RESULT_STATUSES.indexOf('error');

/** A task as the statistics see it; `family` is the task id when the task has none (each task its own cluster). */
export interface ResultTask {
  id: string;
  family: string;
  group: string;
}

/**
 * Per-episode results, one row per episode in arrival order: `strategy[i]` indexes `strategies`, `task[i]` indexes
 * `tasks`, `status[i]` indexes RESULT_STATUSES, `success[i]` is 0 or 1. Memory: 12 bytes an episode (12 MB for
 * 1,000,000) plus the dictionaries. The typed arrays hold exactly `length` rows.
 */
export interface ResultColumns {
  strategies: readonly string[];
  tasks: readonly ResultTask[];
  strategy: Uint16Array;
  task: Uint32Array;
  epoch: Uint32Array;
  status: Uint8Array;
  success: Uint8Array;
  length: number;
}

/** Most strategies the Uint16 `strategy` column can index. */
export const MAX_STRATEGIES = 65_536;
const INITIAL_CAPACITY = 1_024;

/**
 * Appends episodes to growable columns (capacity doubles, so adding n episodes copies O(n) rows in all). A task id is
 * one dictionary entry: its family and group are those of the last episode added for it. Throws RangeError for an
 * unknown outcome status, a negative or non-integer epoch, or more than MAX_STRATEGIES strategies.
 */
export class ResultColumnsBuilder {
  private readonly strategies: string[] = [];
  private readonly strategyIndex = new Map<string, number>();
  private readonly tasks: ResultTask[] = [];
  private readonly taskIndex = new Map<string, number>();
  private strategy = new Uint16Array(INITIAL_CAPACITY);
  private task = new Uint32Array(INITIAL_CAPACITY);
  private epoch = new Uint32Array(INITIAL_CAPACITY);
  private status = new Uint8Array(INITIAL_CAPACITY);
  private success = new Uint8Array(INITIAL_CAPACITY);
  private length = 0;

  /** Episodes added so far. */
  get size(): number {
    return this.length;
  }

  add(result: EpisodeResult): void {
    const status = RESULT_STATUSES.indexOf(result.outcome.status);
    if (status < 0)
      throw new RangeError(`episode ${result.strategy}/${result.task}/${result.epoch}: unknown outcome status "${String(result.outcome.status)}"`);
    if (!Number.isInteger(result.epoch) || result.epoch < 0 || result.epoch > 0xffff_ffff) {
      throw new RangeError(`episode ${result.strategy}/${result.task}: epoch must be a non-negative integer, got ${result.epoch}`);
    }
    let strategy = this.strategyIndex.get(result.strategy);
    if (strategy === undefined) {
      if (this.strategies.length >= MAX_STRATEGIES) throw new RangeError(`more than ${MAX_STRATEGIES} strategies`);
      strategy = this.strategies.length;
      this.strategies.push(result.strategy);
      this.strategyIndex.set(result.strategy, strategy);
    }
    const family = result.family ?? result.task;
    let task = this.taskIndex.get(result.task);
    if (task === undefined) {
      task = this.tasks.length;
      this.tasks.push({ id: result.task, family, group: result.group });
      this.taskIndex.set(result.task, task);
    } else {
      const entry = this.tasks[task] as ResultTask;
      if (entry.family !== family || entry.group !== result.group) this.tasks[task] = { id: result.task, family, group: result.group };
    }
    if (this.length === this.strategy.length) this.grow();
    const row = this.length++;
    this.strategy[row] = strategy;
    this.task[row] = task;
    this.epoch[row] = result.epoch;
    this.status[row] = status;
    this.success[row] = result.success ? 1 : 0;
  }

  private grow(): void {
    const capacity = this.strategy.length * 2;
    const grown = <T extends Uint8Array | Uint16Array | Uint32Array>(column: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(column);
      return next;
    };
    this.strategy = grown(this.strategy, (n) => new Uint16Array(n));
    this.task = grown(this.task, (n) => new Uint32Array(n));
    this.epoch = grown(this.epoch, (n) => new Uint32Array(n));
    this.status = grown(this.status, (n) => new Uint8Array(n));
    this.success = grown(this.success, (n) => new Uint8Array(n));
  }

  /**
   * The columns so far: views of the first `length` rows, no copy (a million episodes would copy 12 MB per call).
   * The builder may keep adding: later rows land past the views, or in new arrays when it grows.
   */
  finish(): ResultColumns {
    return {
      strategies: [...this.strategies],
      tasks: [...this.tasks],
      strategy: this.strategy.subarray(0, this.length),
      task: this.task.subarray(0, this.length),
      epoch: this.epoch.subarray(0, this.length),
      status: this.status.subarray(0, this.length),
      success: this.success.subarray(0, this.length),
      length: this.length,
    };
  }
}

/** The columns of an in-memory list of episodes (the EpisodeResult[] entry points' adapter). Throws as add() does. */
export function fromEpisodes(episodes: Iterable<EpisodeResult>): ResultColumns {
  const builder = new ResultColumnsBuilder();
  for (const episode of episodes) builder.add(episode);
  return builder.finish();
}

/** Statistics take either form; an array is encoded with fromEpisodes first. */
export type StatisticsInput = ResultColumns | readonly EpisodeResult[];

export function toResultColumns(input: StatisticsInput): ResultColumns {
  return isResultColumns(input) ? input : fromEpisodes(input);
}

function isResultColumns(input: StatisticsInput): input is ResultColumns {
  return !Array.isArray(input) && (input as ResultColumns).strategy instanceof Uint16Array;
}

/**
 * The same columns with their dictionaries in a canonical order — `strategies` and `tasks` as given first (a run's
 * configuration), then any others in order of appearance — and the index columns remapped. The statistics' order
 * (pairs, cluster order of the bootstrap) then does not depend on the order of the lines in episodes.jsonl: a merge of
 * shards, a resumed run and the unsharded run give the same numbers.
 */
export function inCanonicalOrder(columns: ResultColumns, strategies: readonly string[], tasks: readonly string[]): ResultColumns {
  const order = <T>(items: readonly T[], key: (item: T) => string, preferred: readonly string[]): number[] => {
    const rank = new Map(preferred.map((name, index) => [name, index]));
    return items
      .map((item, index) => ({ index, rank: rank.get(key(item)) ?? preferred.length + index }))
      .sort((a, b) => a.rank - b.rank)
      .map((entry) => entry.index);
  };
  const strategyOrder = order(columns.strategies, (name) => name, strategies);
  const taskOrder = order(columns.tasks, (task) => task.id, tasks);
  const strategyMap = new Uint16Array(strategyOrder.length);
  strategyOrder.forEach((old, index) => {
    strategyMap[old] = index;
  });
  const taskMap = new Uint32Array(taskOrder.length);
  taskOrder.forEach((old, index) => {
    taskMap[old] = index;
  });
  // Rows in strategy, task, epoch order too: the statistics meet strategies and tasks in the order of the rows. A
  // counting sort on the (strategy, task) cell keeps arrival order within a cell (4 bytes a row, no comparator), then
  // each cell's rows are put in epoch order (stable: a repeated epoch keeps its arrival order).
  const taskCount = taskOrder.length;
  const cellOf = (row: number): number =>
    (strategyMap[columns.strategy[row] as number] as number) * taskCount + (taskMap[columns.task[row] as number] as number);
  const cells = strategyOrder.length * taskCount;
  const starts = new Uint32Array(cells + 1);
  for (let row = 0; row < columns.length; row += 1) {
    const cell = cellOf(row);
    starts[cell + 1] = (starts[cell + 1] as number) + 1;
  }
  for (let cell = 0; cell < cells; cell += 1) starts[cell + 1] = (starts[cell + 1] as number) + (starts[cell] as number);
  const rows = new Uint32Array(columns.length);
  const next = starts.slice(0, cells);
  for (let row = 0; row < columns.length; row += 1) {
    const cell = cellOf(row);
    rows[next[cell] as number] = row;
    next[cell] = (next[cell] as number) + 1;
  }
  const epochOf = (row: number): number => columns.epoch[row] as number;
  for (let cell = 0; cell < cells; cell += 1) {
    const inCell = rows.subarray(starts[cell], starts[cell + 1]);
    let sorted = true;
    for (let i = 1; i < inCell.length && sorted; i += 1) sorted = epochOf(inCell[i - 1] as number) <= epochOf(inCell[i] as number);
    if (!sorted) inCell.sort((a, b) => epochOf(a) - epochOf(b) || a - b);
  }
  const permute = <T extends Uint8Array | Uint16Array | Uint32Array>(column: T, make: (n: number) => T, map?: ArrayLike<number>): T => {
    const out = make(columns.length);
    for (let i = 0; i < columns.length; i += 1) {
      const value = column[rows[i] as number] as number;
      out[i] = map === undefined ? value : (map[value] as number);
    }
    return out;
  };
  return {
    ...columns,
    strategies: strategyOrder.map((old) => columns.strategies[old] as string),
    tasks: taskOrder.map((old) => columns.tasks[old] as ResultTask),
    strategy: permute(columns.strategy, (n) => new Uint16Array(n), strategyMap),
    task: permute(columns.task, (n) => new Uint32Array(n), taskMap),
    epoch: permute(columns.epoch, (n) => new Uint32Array(n)),
    status: permute(columns.status, (n) => new Uint8Array(n)),
    success: permute(columns.success, (n) => new Uint8Array(n)),
  };
}
