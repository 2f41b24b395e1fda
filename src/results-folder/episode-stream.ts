// Reading episodes.jsonl(.gz) one line at a time: a folder of a million episodes is read in memory bounded by a line.
import { open } from 'node:fs/promises';
import { EpisodeRecord, type RunFile } from '../records/index.js';
import { MatrixPositions } from './completeness.js';
import { diskFaultCode } from './disk.js';
import { type ChunkReport, EpisodeFileError, gzipChunks } from './episode-file.js';
import { describeReadError, isJson, openResultsFolder, parseResultsJson, type ReadResult, type ResultsFolder } from './read.js';

/** Where a line is in the (decompressed) text of an episodes file: its first byte and its length in bytes (no newline). */
export interface LineAt {
  start: number;
  length: number;
}

/**
 * Receives each valid, non-repeated record of a scan with its JSON line (no newline), 1-based line number and where
 * the line is in the text (decompressed for .gz), so a reader can come back to it (see readEpisodeLine).
 */
export type EpisodeVisitor = (record: EpisodeRecord, line: string, lineNumber: number, at: LineAt) => void | Promise<void>;

/** What a scan found besides the records: warnings (a torn last line, repeated episodes) and counts. */
export interface ScanReport {
  warnings: string[];
  /** Records visited. */
  records: number;
  /** Byte length of the file up to the end of its last complete line (plain) or gzip member (a torn tail excluded). */
  completeBytes: number;
  /** The text ends without a newline: a torn last line (plain: completeBytes excludes it; gzip: only a rewrite removes it). */
  endsMidLine: boolean;
  /**
   * The last line was torn (not JSON: a run killed or a disk full while writing it), whether or not a newline follows
   * it; skipped, and (plain) excluded from completeBytes, so `--resume` cuts it off before appending. Gzip: its
   * offset is in the decompressed text, so only a rewrite removes it.
   */
  tornLastLine: boolean;
}

const identityOf = (record: EpisodeRecord): string => `${record.strategy}|${record.task}|${record.epoch}`;

/**
 * The bytes of an episodes file in order: plain (1 MiB reads into one buffer, reused: a chunk is valid until the next
 * is asked for) or gzip (one member at a time, see gzipChunks).
 */
async function* byteChunks(path: string, compressed: boolean, report: ChunkReport): AsyncGenerator<Buffer> {
  if (!compressed) {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafeSlow(1 << 20);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }
  yield* gzipChunks(path, report);
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
 * `onLine(line, lineNumber, last, startByte)` for each non-blank line; `last` is true for the final non-blank line (one
 * line of lookahead); `startByte` is where the line starts in the (decompressed) text, `byteLength` its length in bytes. Rejects with the system error when the file cannot be read, EpisodeFileError for bad gzip.
 * Lines are cut on the newline byte and decoded one at a time (decoding whole chunks to one string first was 4–5×
 * slower on a million episodes, issue 15).
 */
async function eachLine(
  path: string,
  compressed: boolean,
  onLine: (line: string, lineNumber: number, last: boolean, startByte: number, byteLength: number) => Promise<boolean | undefined> | boolean | undefined,
): Promise<LinesEnd> {
  let rest: Buffer | undefined;
  let lineNumber = 0;
  let pending: { line: string; lineNumber: number; startByte: number; byteLength: number } | undefined;
  let completeBytes = 0;
  let stopped = false;
  const report: ChunkReport = {};
  const chunks = byteChunks(path, compressed, report);
  try {
    /** Takes the complete lines of `bytes` from `from`; returns where the unfinished rest starts, or -1 when onLine stopped. */
    const takeLines = async (bytes: Buffer, from: number): Promise<number> => {
      let start = from;
      for (let end = bytes.indexOf(NEWLINE, start); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
        const line = bytes.toString('utf8', start, end);
        const startByte = completeBytes;
        const byteLength = end - start;
        completeBytes += end + 1 - start;
        start = end + 1;
        lineNumber += 1;
        if (line.trim() === '') continue;
        if (pending && (await onLine(pending.line, pending.lineNumber, false, pending.startByte, pending.byteLength)) === false) return -1;
        pending = { line, lineNumber, startByte, byteLength };
      }
      return start;
    };
    // A chunk's memory may be reused by the next read (plain files): the unfinished line is copied out, and joined with
    // the next chunk's first line only (never a whole chunk copied: 1.5 GB of garbage buffers on a 765 MB file).
    for await (const chunk of chunks) {
      let start = 0;
      if (rest !== undefined) {
        const first = chunk.indexOf(NEWLINE);
        if (first < 0) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        const joined = Buffer.concat([rest, chunk.subarray(0, first + 1)]);
        rest = undefined;
        if ((await takeLines(joined, 0)) < 0) {
          stopped = true;
          break;
        }
        start = first + 1;
      }
      const end = await takeLines(chunk, start);
      if (end < 0) {
        stopped = true;
        break;
      }
      rest = end < chunk.length ? Buffer.from(chunk.subarray(end)) : undefined;
    }
  } finally {
    await chunks.return(undefined);
  }
  const end = (): LinesEnd => ({
    completeBytes: compressed ? (report.completeBytes ?? 0) : completeBytes,
    endsMidLine: rest !== undefined && rest.length > 0,
    ...(report.warning === undefined ? {} : { warning: report.warning }),
  });
  if (stopped) return end();
  const tail = rest === undefined ? '' : rest.toString('utf8');
  if (tail.trim() !== '') {
    if (pending) await onLine(pending.line, pending.lineNumber, false, pending.startByte, pending.byteLength);
    pending = { line: tail, lineNumber: lineNumber + 1, startByte: completeBytes, byteLength: (rest as Buffer).length };
  }
  if (pending) await onLine(pending.line, pending.lineNumber, true, pending.startByte, pending.byteLength);
  return end();
}

const NEWLINE = 0x0a;

/** Carries a disk fault that a scan's visitor threw (DiskWriteError) past the scan's handling of its own read errors. */
class VisitorDiskFault {
  constructor(readonly fault: unknown) {}
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
 * A disk fault the visitor throws (DiskWriteError: merge or resume copying lines onto a full disk) rejects as it is; so
 * does DiskReadError when the device fails a read (EIO). The visitor's other errors end the scan as `cannot read (…)`.
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
  let tornAt: number | undefined;
  try {
    end = await eachLine(path, path.endsWith('.gz'), async (line, lineNumber, last, startByte, byteLength) => {
      if (last && !isJson(line)) {
        warnings.push(`${path}:${lineNumber}: incomplete last line (a run interrupted while writing?) — skipped`);
        tornAt = startByte;
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
      try {
        await visit(record, line, lineNumber, { start: startByte, length: byteLength });
      } catch (visitError) {
        // A write the disk refused while the visitor copied a line (merge, resume's rewrite) is not a read of this file.
        throw diskFaultCode(visitError) === undefined ? visitError : new VisitorDiskFault(visitError);
      }
      return true;
    });
  } catch (readError) {
    if (readError instanceof VisitorDiskFault) throw readError.fault;
    return { ok: false, error: readError instanceof EpisodeFileError ? readError.message : describeReadError(path, readError) };
  }
  if (error !== undefined) return { ok: false, error };
  if (end.warning !== undefined) warnings.push(end.warning);
  const plain = !path.endsWith('.gz');
  return {
    ok: true,
    warnings,
    records,
    // A torn last line is not complete even when a newline follows it (plain: where it starts).
    completeBytes: plain && tornAt !== undefined ? Math.min(tornAt, end.completeBytes) : end.completeBytes,
    endsMidLine: end.endsMidLine,
    tornLastLine: tornAt !== undefined,
  };
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
