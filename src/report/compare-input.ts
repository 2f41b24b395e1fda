// What `compare` reads of a results folder: run.json, its episodes as result columns (12 bytes an episode), and how
// the episodes of two folders pair up (strategy × task × epoch).
import type { RunFile } from '../records/index.js';
import { MatrixPositions, openResultsFolder, scanEpisodes, type ReadResult } from '../results-folder/index.js';
import { ERROR_STATUS, fromEpisodes, ResultColumnsBuilder, type ResultColumns } from './result-columns.js';
import type { EpisodeResult } from './statistics-tasks.js';

/**
 * One side of a comparison: the folder's run.json (null without one), its episodes as columns in file order (a
 * repeated episode counted once, as scanEpisodes reads it), the models of its first episode (absent: no episodes;
 * what compare shows for a folder without run.json) and the read's warnings.
 */
export interface CompareFolder {
  dir: string;
  run: RunFile | null;
  columns: ResultColumns;
  models?: Record<string, string>;
  warnings: string[];
  /** Wall time (ms) of each strategy × task's episodes, errors included, keyed by wallTimeKey (absent: unknown, 0). */
  wallMs?: ReadonlyMap<string, number>;
}

/** The key of a strategy × task in CompareFolder.wallMs. */
export const wallTimeKey = (strategy: string, task: string): string => `${strategy}\u0000${task}`;

/** Adds one episode's wall time (ms; a record without one adds 0) to its strategy × task in `totals`. */
function addWallTime(totals: Map<string, number>, record: { strategy: string; task: string; wall_ms?: number }): void {
  const key = wallTimeKey(record.strategy, record.task);
  totals.set(key, (totals.get(key) ?? 0) + (typeof record.wall_ms === 'number' && Number.isFinite(record.wall_ms) ? record.wall_ms : 0));
}

/** A folder read whole (records in memory: the HTML report's path), which compareResults also takes. */
export interface RecordsFolder {
  dir: string;
  run: RunFile | null;
  records: readonly (EpisodeResult & { models?: Record<string, string>; wall_ms?: number })[];
  models?: Record<string, string>;
  warnings: string[];
}

/** The CompareFolder of a folder read whole (its records encoded as columns). */
export function toCompareFolder(folder: CompareFolder | RecordsFolder): CompareFolder {
  if ('columns' in folder) return folder;
  const models = folder.models ?? folder.records[0]?.models;
  const wallMs = new Map<string, number>();
  for (const record of folder.records) addWallTime(wallMs, record);
  return { dir: folder.dir, run: folder.run, columns: fromEpisodes(folder.records), ...(models ? { models } : {}), warnings: folder.warnings, wallMs };
}

/**
 * Reads a results folder for compare one episode line at a time into result columns: memory 12 bytes an episode
 * (12 MB for a million) plus a line and a wall-time total per strategy × task, never a record list. Never throws for bad input: `{ ok: false, error }` names
 * the file (and line) and the problem, as openResultsFolder and scanEpisodes do.
 */
export async function readCompareFolder(dir: string): Promise<ReadResult<CompareFolder>> {
  const folder = await openResultsFolder(dir);
  if (!folder.ok) return folder;
  let builder = new ResultColumnsBuilder();
  let models: Record<string, string> | undefined;
  let wallMs = new Map<string, number>();
  const scanned = await scanEpisodes(
    folder.episodesPath,
    () => {
      builder = new ResultColumnsBuilder();
      wallMs = new Map();
      return (record) => {
        models ??= record.models;
        builder.add(record);
        addWallTime(wallMs, record);
      };
    },
    folder.run?.config,
  );
  if (!scanned.ok) return scanned;
  return {
    ok: true,
    dir,
    run: folder.run,
    columns: builder.finish(),
    ...(models ? { models } : {}),
    warnings: [...scanned.warnings, ...folder.warnings],
    wallMs,
  };
}

/** How each base episode pairs with the head: NOT_IN_HEAD, or the head's copy scored (HEAD_SCORED) or errored (HEAD_ERROR). */
export const NOT_IN_HEAD = -1;
export const HEAD_SCORED = 0;
export const HEAD_ERROR = 1;

/**
 * For each base row, whether the head has the same strategy × task × epoch and whether the head's copy is an
 * infrastructure error (NOT_IN_HEAD, HEAD_SCORED, HEAD_ERROR). Strategies and tasks are matched by name. Memory: one
 * sorted number per head episode and one byte per base episode; time O((base + head) log head). Throws RangeError
 * when strategies × tasks × epochs exceed 2^52 (the sort key's exact range). Pure.
 */
export function matchRows(base: ResultColumns, head: ResultColumns): Int8Array {
  const taskCount = head.tasks.length;
  let span = 1;
  for (let i = 0; i < head.length; i += 1) span = Math.max(span, (head.epoch[i] as number) + 1);
  if (head.strategies.length * taskCount * span * 2 > 2 ** 53) {
    throw new RangeError(`compare: ${head.strategies.length} strategies × ${taskCount} tasks × ${span} epochs are too many to pair episodes`);
  }
  // One sorted key per head episode: cell × span + epoch, doubled, plus 1 for an error.
  const keys = new Float64Array(head.length);
  for (let i = 0; i < head.length; i += 1) {
    const cell = (head.strategy[i] as number) * taskCount + (head.task[i] as number);
    keys[i] = (cell * span + (head.epoch[i] as number)) * 2 + (head.status[i] === ERROR_STATUS ? 1 : 0);
  }
  keys.sort();
  const headStrategy = new Map(head.strategies.map((name, index) => [name, index]));
  const headTask = new Map(head.tasks.map((task, index) => [task.id, index]));
  const strategyInHead = Int32Array.from(base.strategies, (name) => headStrategy.get(name) ?? -1);
  const taskInHead = Int32Array.from(base.tasks, (task) => headTask.get(task.id) ?? -1);
  const matches = new Int8Array(base.length).fill(NOT_IN_HEAD);
  for (let i = 0; i < base.length; i += 1) {
    const strategy = strategyInHead[base.strategy[i] as number] as number;
    const task = taskInHead[base.task[i] as number] as number;
    const epoch = base.epoch[i] as number;
    if (strategy < 0 || task < 0 || epoch >= span) continue;
    const key = ((strategy * taskCount + task) * span + epoch) * 2;
    // Lower bound of key: the head's copy is key (scored) or key + 1 (errored).
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((keys[middle] as number) < key) low = middle + 1;
      else high = middle;
    }
    if (keys[low] === key) matches[i] = HEAD_SCORED;
    else if (keys[low] === key + 1) matches[i] = HEAD_ERROR;
  }
  return matches;
}

/** The rows of `columns` whose `keep` entry is true, in order, with the same dictionaries. Pure. */
export function selectRows(columns: ResultColumns, keep: (row: number) => boolean): ResultColumns {
  let kept = 0;
  const rows = new Uint32Array(columns.length);
  for (let i = 0; i < columns.length; i += 1) if (keep(i)) rows[kept++] = i;
  const pick = <T extends Uint8Array | Uint16Array | Uint32Array>(column: T, make: (n: number) => T): T => {
    const picked = make(kept);
    for (let index = 0; index < kept; index += 1) picked[index] = column[rows[index] as number] as number;
    return picked;
  };
  return {
    strategies: columns.strategies,
    tasks: columns.tasks,
    strategy: pick(columns.strategy, (n) => new Uint16Array(n)),
    task: pick(columns.task, (n) => new Uint32Array(n)),
    epoch: pick(columns.epoch, (n) => new Uint32Array(n)),
    status: pick(columns.status, (n) => new Uint8Array(n)),
    success: pick(columns.success, (n) => new Uint8Array(n)),
    length: kept,
  };
}

/** The matrix positions (one bit each) of run.json's matrix that the columns hold; episodes outside it are not counted. */
export function positionsOf(run: Pick<RunFile, 'config'>, columns: ResultColumns): MatrixPositions {
  const positions = new MatrixPositions(run.config);
  const cell = { strategy: '', task: '', epoch: 0 };
  for (let i = 0; i < columns.length; i += 1) {
    cell.strategy = columns.strategies[columns.strategy[i] as number] as string;
    cell.task = (columns.tasks[columns.task[i] as number] as ResultColumns['tasks'][number]).id;
    cell.epoch = columns.epoch[i] as number;
    positions.add(cell);
  }
  return positions;
}

/** The cell (strategy, task, epoch) of row `i`: a fresh object, for the rare row that is named (coverage, messages). */
export function cellOf(columns: ResultColumns, i: number): { strategy: string; task: string; epoch: number } {
  return {
    strategy: columns.strategies[columns.strategy[i] as number] as string,
    task: (columns.tasks[columns.task[i] as number] as ResultColumns['tasks'][number]).id,
    epoch: columns.epoch[i] as number,
  };
}
