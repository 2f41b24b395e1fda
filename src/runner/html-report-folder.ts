// Reading a results folder into the HTML report's data one episode line at a time (two passes, no record list),
// with the index of where each episode's line is, which `view --serve` reads single episodes back through.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EpisodeRecord, SummaryFile as SummaryFileSchema, type RunFile, type StoredText } from '../records/index.js';
import {
  openEpisodeLineReader,
  openResultsFolder,
  readMessages,
  referencesMissingText,
  scanEpisodes,
  SUMMARY_FILE,
  type LineAt,
} from '../results-folder/index.js';
import { SummaryBuilder, withStatistics, type SummaryFile } from '../report/index.js';
import { DEFAULT_DETAIL_BUDGET_BYTES, ReportDataBuilder, type CounterfactualVerdict, type ReportData } from '../report/html/report-data.js';
import { wallTimeKey, type CompareFolder } from '../report/compare-input.js';
import { ResultColumnsBuilder } from '../report/result-columns.js';
import { UsageError } from './usage-error.js';

/** Where each episode of a folder is in its episodes file (see positionOf). */
export interface EpisodeIndex {
  /** The episodes file (episodes.jsonl or episodes.jsonl.gz). */
  path: string;
  /** Task → strategy → file position (the order of the lines) by epoch; a missing epoch is a hole. ~1 MB for 100k episodes. */
  positions: Map<string, Map<string, number[]>>;
  /** Per file position: where its line starts in the (decompressed) text, in bytes. */
  starts: Float64Array;
  /** Per file position: its line's length in bytes. */
  lengths: Uint32Array;
}

/** The file position of one episode, or undefined when the folder has none such. */
export function positionOf(index: EpisodeIndex, task: string, strategy: string, epoch: number): number | undefined {
  return index.positions.get(task)?.get(strategy)?.[epoch];
}

function setPosition(index: EpisodeIndex, task: string, strategy: string, epoch: number, position: number): void {
  let byStrategy = index.positions.get(task);
  if (byStrategy === undefined) index.positions.set(task, (byStrategy = new Map()));
  let epochs = byStrategy.get(strategy);
  if (epochs === undefined) byStrategy.set(strategy, (epochs = []));
  epochs[epoch] = position;
}

/** A folder read for its HTML report: the page's data, the episode index, the stored texts, and (for compare) its columns. */
export interface ReportFolder {
  data: ReportData;
  index: EpisodeIndex;
  texts: ReadonlyMap<string, StoredText>;
  compare: CompareFolder;
}

/** summary.json when it is there and valid with statistics (they are reused), else null (recomputed while streaming). */
async function storedSummary(dir: string): Promise<SummaryFile | null> {
  try {
    const parsed = SummaryFileSchema.safeParse(JSON.parse(await readFile(join(dir, SUMMARY_FILE), 'utf8')));
    if (parsed.success && Array.isArray((parsed.data.statistics as { comparisons?: unknown }).comparisons)) return parsed.data as unknown as SummaryFile;
  } catch {
    // absent or unreadable: recomputed
  }
  return null;
}

/** One record's own counterfactual replay (`run --counterfactual`) as the report shows it, or null. */
export function counterfactualOfRecord(record: EpisodeRecord): CounterfactualVerdict | null {
  if (!record.counterfactual) return null;
  return {
    task: record.task,
    strategy: record.strategy,
    epoch: record.epoch,
    counterfactual: record.counterfactual.component,
    replaced: Object.fromEntries(Object.entries(record.counterfactual.swaps).map(([role, swap]) => [role, swap.success])),
    agrees: record.counterfactual.agrees_with_rules,
  };
}

/** counterfactual.json's episodes (folders written before replays were kept in the records); [] when absent or unreadable. */
export async function counterfactualFile(dir: string): Promise<CounterfactualVerdict[]> {
  try {
    const value = JSON.parse(await readFile(join(dir, 'counterfactual.json'), 'utf8')) as { episodes?: unknown };
    return Array.isArray(value.episodes) ? (value.episodes as CounterfactualVerdict[]) : [];
  } catch {
    return [];
  }
}

/** The environment variable that sets the inlined details' budget in bytes (default DEFAULT_DETAIL_BUDGET_BYTES, 4 MiB). */
export const DETAIL_BUDGET_VARIABLE = 'STRATBENCH_HTML_DETAIL_BUDGET';

/**
 * The budget of inlined details (base64 bytes) STRATBENCH_HTML_DETAIL_BUDGET sets: a whole number of bytes, with an
 * optional k/M suffix (1024-based); 0 inlines none. Default DEFAULT_DETAIL_BUDGET_BYTES (4 MiB). Throws UsageError
 * (exit 2) for anything else.
 */
export function detailBudgetFromEnvironment(environment: NodeJS.ProcessEnv = process.env): number {
  const text = environment[DETAIL_BUDGET_VARIABLE];
  if (text === undefined || text === '') return DEFAULT_DETAIL_BUDGET_BYTES;
  const match = /^(\d+)([kM]?)$/.exec(text.trim());
  if (!match) throw new UsageError(`${DETAIL_BUDGET_VARIABLE}=${text}: expected a number of bytes such as 4000000, 512k or 4M`);
  return Number(match[1]) * (match[2] === 'k' ? 1024 : match[2] === 'M' ? 1024 * 1024 : 1);
}

const grow = <T extends Float64Array | Uint32Array>(array: T, at: number, make: (n: number) => T): T => {
  if (at < array.length) return array;
  const grown = make(array.length * 2);
  grown.set(array);
  return grown;
};

/**
 * The second pass of readReportFolder: the lines whose detail the page may inline (ReportDataBuilder.nextBatch),
 * read again by position in file order, validated again and offered to `builder`. Throws `fail`'s error when the file
 * changed under the reader (a line no longer a valid record, or not where the first pass found it).
 */
async function inlineDetails(builder: ReportDataBuilder, episodesPath: string, index: EpisodeIndex, fail: (error: string) => Error): Promise<void> {
  const reader = await openEpisodeLineReader(episodesPath);
  try {
    for (let batch = builder.nextBatch(); batch !== null; batch = builder.nextBatch()) {
      for (const position of batch) {
        const line = await reader.read({ start: index.starts[position] as number, length: index.lengths[position] as number });
        const parsed = EpisodeRecord.safeParse(JSON.parse(line));
        if (!parsed.success) throw new Error(`episode ${position + 1} (in file order) is no longer a valid record`);
        builder.offer(position, parsed.data);
      }
    }
  } catch (error) {
    throw fail(`${episodesPath} changed while it was read (${(error as Error).message}); run the command again once the run has stopped`);
  } finally {
    await reader.close();
  }
}

/**
 * Reads `dir` for its HTML report in two passes over its episodes file (episodes.jsonl or .gz), never holding the
 * records: (1) scanEpisodes validates each line and keeps its row, where it is (EpisodeIndex), its result columns
 * (compare) and — without a valid summary.json — the streaming SummaryBuilder; (2) only the lines whose detail may be
 * inlined (ReportDataBuilder.nextBatch: failures first, then the sample, up to the budget; then episodes whose detail
 * may equal an inlined one) are read again by position, in file order, and validated again. Memory: one row per episode plus about the
 * detail budget. Warnings go to stderr. Throws UsageError (exit 2) naming the folder for an unusable folder.
 */
export async function readReportFolder(dir: string, options: { detailBudgetBytes?: number } = {}): Promise<ReportFolder> {
  const fail = (error: string) => new UsageError(`cannot read results folder ${dir}: ${error}`);
  const detailBudgetBytes = options.detailBudgetBytes ?? detailBudgetFromEnvironment();
  const opened = await openResultsFolder(dir);
  if (!opened.ok) throw fail(opened.error);
  const messages = await readMessages(dir);
  if (!messages.ok) throw fail(messages.error);
  const run: RunFile | null = opened.run;
  const stored = await storedSummary(dir);
  const fromFile = await counterfactualFile(dir);
  const builder = new ReportDataBuilder(messages.texts, {
    counterfactuals: fromFile,
    detailBudgetBytes,
  });
  let summary: SummaryBuilder | null = null;
  let columns = new ResultColumnsBuilder();
  let wallMs = new Map<string, number>();
  let models: Record<string, string> | undefined;
  let missing = 0;
  let ownVerdicts = 0;
  const index: EpisodeIndex = { path: opened.episodesPath, positions: new Map(), starts: new Float64Array(1024), lengths: new Uint32Array(1024) };
  const scanned = await scanEpisodes(
    opened.episodesPath,
    () => {
      summary = stored ? null : new SummaryBuilder(run?.config.groups ?? [], run?.strategies ?? []);
      columns = new ResultColumnsBuilder();
      wallMs = new Map();
      return (record: EpisodeRecord, _line: string, _lineNumber: number, at: LineAt) => {
        const own = counterfactualOfRecord(record);
        if (own) ownVerdicts += 1;
        const position = builder.add(record, own);
        index.starts = grow(index.starts, position, (n) => new Float64Array(n));
        index.lengths = grow(index.lengths, position, (n) => new Uint32Array(n));
        index.starts[position] = at.start;
        index.lengths[position] = at.length;
        setPosition(index, record.task, record.strategy, record.epoch, position);
        summary?.add(record);
        columns.add(record);
        models ??= record.models;
        const key = wallTimeKey(record.strategy, record.task);
        wallMs.set(key, (wallMs.get(key) ?? 0) + (typeof record.wall_ms === 'number' && Number.isFinite(record.wall_ms) ? record.wall_ms : 0));
        if (referencesMissingText(record, messages.texts)) missing += 1;
      };
    },
    run?.config,
  );
  if (!scanned.ok) throw fail(scanned.error);
  const warnings = [...scanned.warnings, ...opened.warnings];
  for (const warning of [...warnings, ...messages.warnings]) process.stderr.write(`warning: ${warning}\n`);
  if (missing > 0) {
    process.stderr.write(
      `warning: ${missing} episode(s) reference messages or thinking that ${dir}/messages.jsonl lacks (shown as their hashes); ` +
        `their verdicts stand (scored when each episode ended)\n`,
    );
  }
  builder.plan();
  await inlineDetails(builder, opened.episodesPath, index, fail);
  const summaryFile = stored ?? withStatistics(summary ?? new SummaryBuilder([], []), run?.seed ?? 1);
  // A folder whose records carry their replays shows only those (counterfactual.json is for older folders).
  const data = builder.build(summaryFile, run, { ownVerdictsOnly: ownVerdicts > 0 });
  return {
    data,
    index,
    texts: messages.texts,
    compare: { dir, run, columns: columns.finish(), ...(models ? { models } : {}), warnings, wallMs },
  };
}
