// Reading episodes.jsonl one line at a time: a folder of a million episodes is read in memory bounded by a line.
import { createReadStream } from 'node:fs';
import { EpisodeRecord, type RunFile } from '../records/index.js';
import { MatrixPositions } from './completeness.js';
import { describeReadError, isJson, parseResultsJson, type ReadResult } from './read.js';

/** Receives each valid, non-repeated record of a scan with its JSON line (no newline) and 1-based line number. */
export type EpisodeVisitor = (record: EpisodeRecord, line: string, lineNumber: number) => void | Promise<void>;

/** What a scan found besides the records: warnings (a torn last line, repeated episodes) and counts. */
export interface ScanReport {
  warnings: string[];
  /** Records visited. */
  records: number;
  /** Byte length of the file up to the end of its last complete line (a torn tail excluded). */
  completeBytes: number;
}

const identityOf = (record: EpisodeRecord): string => `${record.strategy}|${record.task}|${record.epoch}`;

/**
 * Reads the lines of `path` in order, 1 MiB at a time, calling `onLine(line, lineNumber, last)` for each non-blank
 * line; `last` is true for the final non-blank line (one line of lookahead). Resolves with the byte length up to the
 * end of the last line that ended with a newline. Rejects with the system error when the file cannot be read.
 * Lines are cut on the newline byte and decoded one at a time (decoding whole chunks to one string first was 4–5×
 * slower on a million episodes, issue 15).
 */
async function eachLine(
  path: string,
  onLine: (line: string, lineNumber: number, last: boolean) => Promise<boolean | undefined> | boolean | undefined,
): Promise<number> {
  let rest: Buffer | undefined;
  let lineNumber = 0;
  let pending: { line: string; lineNumber: number } | undefined;
  let completeBytes = 0;
  let stopped = false;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bytes = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
      let start = 0;
      for (let end = bytes.indexOf(NEWLINE, start); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
        const line = bytes.toString('utf8', start, end);
        completeBytes += end + 1 - start;
        start = end + 1;
        lineNumber += 1;
        if (line.trim() === '') continue;
        if (pending && (await onLine(pending.line, pending.lineNumber, false)) === false) {
          stopped = true;
          break;
        }
        pending = { line, lineNumber };
      }
      if (stopped) break;
      rest = start < bytes.length ? bytes.subarray(start) : undefined;
    }
  } finally {
    stream.destroy();
  }
  if (stopped) return completeBytes;
  const tail = rest === undefined ? '' : rest.toString('utf8');
  if (tail.trim() !== '') {
    if (pending) await onLine(pending.line, pending.lineNumber, false);
    pending = { line: tail, lineNumber: lineNumber + 1 };
  }
  if (pending) await onLine(pending.line, pending.lineNumber, true);
  return completeBytes;
}

const NEWLINE = 0x0a;

/**
 * Streams episodes.jsonl at `path` to the visitor `start()` returns (called once): one EpisodeRecord per line, blank
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
  let completeBytes: number;
  try {
    completeBytes = await eachLine(path, async (line, lineNumber, last) => {
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
    return { ok: false, error: describeReadError(path, readError) };
  }
  if (error !== undefined) return { ok: false, error };
  return { ok: true, warnings, records, completeBytes };
}
