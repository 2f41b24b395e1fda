// Reading episodes.jsonl(.gz) one line at a time: a folder of a million episodes is read in memory bounded by a line.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { EpisodeRecord, type RunFile } from '../records/index.js';
import { MatrixPositions } from './completeness.js';
import { type ChunkReport, EpisodeFileError, gzipChunks } from './episode-file.js';
import { describeReadError, isJson, openResultsFolder, parseResultsJson, type ReadResult, type ResultsFolder } from './read.js';

/** Receives each valid, non-repeated record of a scan with its JSON line (no newline) and 1-based line number. */
export type EpisodeVisitor = (record: EpisodeRecord, line: string, lineNumber: number) => void | Promise<void>;

/** What a scan found besides the records: warnings (a torn last line, repeated episodes) and counts. */
export interface ScanReport {
  warnings: string[];
  /** Records visited. */
  records: number;
  /** Byte length of the file up to the end of its last complete line (plain) or gzip member (a torn tail excluded). */
  completeBytes: number;
  /** The text ends without a newline: a torn last line (plain: completeBytes excludes it; gzip: only a rewrite removes it). */
  endsMidLine: boolean;
}

const identityOf = (record: EpisodeRecord): string => `${record.strategy}|${record.task}|${record.epoch}`;

/** The text of an episodes file in order: plain (1 MiB reads) or gzip (one member at a time), decoded as UTF-8. */
async function* textChunks(path: string, compressed: boolean, report: ChunkReport): AsyncGenerator<string> {
  if (!compressed) {
    const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    try {
      yield* stream as AsyncIterable<string>;
    } finally {
      stream.destroy();
    }
    return;
  }
  const decoder = new StringDecoder('utf8');
  for await (const chunk of gzipChunks(path, report)) yield decoder.write(chunk);
  const tail = decoder.end();
  if (tail !== '') yield tail;
}

/** Where the complete part of a file ends, and what its last line and member were. */
interface LinesEnd {
  /** Bytes up to the end of the last complete line (plain) or member (gzip). */
  completeBytes: number;
  /** The text ended without a newline (a torn or unterminated last line). */
  endsMidLine: boolean;
  /** A torn last gzip member. */
  warning?: string;
}

/**
 * Reads the lines of `path` (episodes.jsonl, or episodes.jsonl.gz when `compressed`) in order, calling
 * `onLine(line, lineNumber, last)` for each non-blank line; `last` is true for the final non-blank line (one line of
 * lookahead). Rejects with the system error when the file cannot be read, EpisodeFileError for bad gzip.
 */
async function eachLine(
  path: string,
  compressed: boolean,
  onLine: (line: string, lineNumber: number, last: boolean) => Promise<boolean | undefined> | boolean | undefined,
): Promise<LinesEnd> {
  let rest = '';
  let lineNumber = 0;
  let pending: { line: string; lineNumber: number } | undefined;
  let completeBytes = 0;
  let stopped = false;
  const report: ChunkReport = {};
  const chunks = textChunks(path, compressed, report);
  try {
    for await (const chunk of chunks) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
        const line = text.slice(start, end);
        start = end + 1;
        lineNumber += 1;
        if (!compressed) completeBytes += Buffer.byteLength(line) + 1;
        if (line.trim() === '') continue;
        if (pending && (await onLine(pending.line, pending.lineNumber, false)) === false) {
          stopped = true;
          break;
        }
        pending = { line, lineNumber };
      }
      if (stopped) break;
      rest = text.slice(start);
    }
  } finally {
    await chunks.return(undefined);
  }
  const end = (): LinesEnd => ({
    completeBytes: compressed ? (report.completeBytes ?? 0) : completeBytes,
    endsMidLine: rest !== '',
    ...(report.warning === undefined ? {} : { warning: report.warning }),
  });
  if (stopped) return end();
  if (rest.trim() !== '') {
    if (pending) await onLine(pending.line, pending.lineNumber, false);
    pending = { line: rest, lineNumber: lineNumber + 1 };
  }
  if (pending) await onLine(pending.line, pending.lineNumber, true);
  return end();
}

/**
 * Streams episodes.jsonl (or episodes.jsonl.gz: a `path` ending in .gz, read member by member, a torn last member
 * skipped with a warning — see gzipChunks) at `path` to the visitor `start()` returns (called once): one EpisodeRecord per line, blank
 * lines ignored, the same rules as parseEpisodes — the last non-blank line, when not valid JSON, is torn (the writer
 * was killed mid-line) and skipped with a warning; any other line that is not valid JSON, of a schemaVersion this
 * code does not read, or not a valid EpisodeRecord is an error naming `file:line`; an episode given twice counts
 * once: the first line is visited, each repeat is skipped with a warning naming both lines. One pass; memory: one
 * line at a time, plus one bit per cell of `matrix` (run.json's config) — episodes outside it, or all without it,
 * cost a string and a line number each. Never throws for bad input: `{ ok: false, error }` names the file and problem.
 */
export async function scanEpisodes(
  path: string,
  start: () => EpisodeVisitor,
  matrix?: Pick<RunFile['config'], 'strategies' | 'tasks' | 'epochs'>,
): Promise<ReadResult<ScanReport>> {
  const warnings: string[] = [];
  let records = 0;
  let error: string | undefined;
  // Episodes of the run's matrix are remembered as one bit each (with the line of the first, looked up only for a
  // repeat's warning); only others (none, normally) as strings.
  const positions = matrix ? new MatrixPositions(matrix) : undefined;
  const seen = new Map<string, number>();
  const visit = start();
  let end: Awaited<ReturnType<typeof eachLine>>;
  try {
    end = await eachLine(path, path.endsWith('.gz'), async (line, lineNumber, last) => {
      if (last && !isJson(line)) {
        warnings.push(`${path}:${lineNumber}: incomplete last line (a run interrupted while writing?) — skipped`);
        return true;
      }
      const parsed = parseResultsJson(line, EpisodeRecord, `${path}:${lineNumber}`, 'episode record');
      if (!parsed.ok) {
        error = parsed.error;
        return false;
      }
      const record = parsed.value;
      const position = positions ? positions.positionOf(record) : -1;
      const identity = identityOf(record);
      const repeated = position >= 0 ? positions!.has(position) : seen.has(identity);
      if (repeated) {
        warnings.push(
          `${path}:${lineNumber}: repeats strategy ${record.strategy}, task ${record.task}, epoch ${record.epoch}` +
            `${seen.has(identity) ? ` of line ${seen.get(identity)}` : ''}; the first line is used`,
        );
        return true;
      }
      if (position >= 0) positions!.set(position);
      else seen.set(identity, lineNumber);
      records += 1;
      await visit(record, line, lineNumber);
      return true;
    });
  } catch (readError) {
    return { ok: false, error: readError instanceof EpisodeFileError ? readError.message : describeReadError(path, readError) };
  }
  if (error !== undefined) return { ok: false, error };
  if (end.warning !== undefined) warnings.push(end.warning);
  return { ok: true, warnings, records, completeBytes: end.completeBytes, endsMidLine: end.endsMidLine };
}

/** What compare reads of an episode: its cell, result and status (no trace, checks or metrics). */
export interface EpisodeOutcome {
  task: string;
  family?: string;
  group: string;
  strategy: string;
  epoch: number;
  success: boolean;
  outcome: { readonly status: EpisodeRecord['outcome']['status'] };
}

/** A results folder's episodes as outcomes: run.json, the first episode's models (for a folder without run.json). */
export interface FolderOutcomes {
  dir: string;
  run: RunFile | null;
  records: EpisodeOutcome[];
  /** The models of the first episode (absent: no episodes). */
  models?: Record<string, string>;
  warnings: string[];
}

/**
 * Reads a results folder's episodes one line at a time into small outcome objects (strings interned, one frozen
 * outcome per status): about 100 bytes an episode instead of a parsed trace. Never throws for bad input.
 */
export async function readFolderOutcomes(dir: string): Promise<ReadResult<FolderOutcomes>> {
  const folder = await openResultsFolder(dir);
  if (!folder.ok) return folder;
  const strings = new Map<string, string>();
  const intern = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
  const outcomes = new Map<string, { readonly status: EpisodeRecord['outcome']['status'] }>();
  const outcomeOf = (status: EpisodeRecord['outcome']['status']) => {
    let outcome = outcomes.get(status);
    if (outcome === undefined) outcomes.set(status, (outcome = Object.freeze({ status })));
    return outcome;
  };
  let records: EpisodeOutcome[] = [];
  let models: Record<string, string> | undefined;
  const scanned = await scanEpisodes(
    folder.episodesPath,
    () => {
      records = [];
      return (record) => {
        models ??= record.models;
        records.push({
          task: intern(record.task),
          ...(record.family === undefined ? {} : { family: intern(record.family) }),
          group: intern(record.group),
          strategy: intern(record.strategy),
          epoch: record.epoch,
          success: record.success,
          outcome: outcomeOf(record.outcome.status),
        });
      };
    },
    folder.run?.config,
  );
  if (!scanned.ok) return scanned;
  return { ok: true, dir, run: folder.run, records, ...(models ? { models } : {}), warnings: [...scanned.warnings, ...folder.warnings] };
}

/**
 * Reads `dir`'s episodes (episodes.jsonl or episodes.jsonl.gz; see scanEpisodes for the rules), run.json (optional:
 * absent → run null and a warning) and checks summary.json (optional) into memory — every record, traces included,
 * for the commands that need them (explain, export, the HTML report). Never throws for bad input: returns
 * `{ ok: false, error }` with a message naming the file (and line or byte) and the problem.
 */
export async function readResultsFolder(dir: string): Promise<ReadResult<ResultsFolder>> {
  const opened = await openResultsFolder(dir);
  if (!opened.ok) return opened;
  const records: EpisodeRecord[] = [];
  const scanned = await scanEpisodes(opened.episodesPath, () => (record) => {
    records.push(record);
  });
  if (!scanned.ok) return scanned;
  return { ok: true, dir, run: opened.run, records, warnings: [...scanned.warnings, ...opened.warnings] };
}
