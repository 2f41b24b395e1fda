// Reading a results folder (episodes.jsonl, run.json, summary.json) into validated records: every problem is a
// value naming the file and what is wrong with it, never an exception.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EpisodeRecord, RunClaim, RunFile, schemaVersionProblem, SummaryFile } from '../records/index.js';
import { EPISODES_FILE, locateEpisodes } from './episode-file.js';
import { DiskReadError } from './disk.js';

export { EPISODES_FILE, EPISODES_GZ_FILE } from './episode-file.js';
export const RUN_FILE = 'run.json';
export const SUMMARY_FILE = 'summary.json';

/** A results folder in memory. `run` is null when run.json is absent (a warning says so). */
export interface ResultsFolder {
  dir: string;
  run: RunFile | null;
  records: EpisodeRecord[];
  /** Human-readable notes: a skipped torn last line, a missing run.json, repeated episodes. */
  warnings: string[];
}

export type ReadResult<T> = ({ ok: true } & T) | { ok: false; error: string };

/** Why a file could not be read: a message naming the path and the system error code. */
export function describeReadError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // A device error is not a bad folder: it ends the command with the disk-fault exit code (5), naming the file.
  if (code === 'EIO') throw new DiskReadError(path, code);
  if (code === 'ENOENT') return `${path}: no such file`;
  if (code === 'EISDIR') return `${path}: is a folder, not a file`;
  return `${path}: cannot read (${code ?? String(error)})`;
}

/** The first lines of zod's readable error, indented under the file's line. */
function shapeProblem(error: z.ZodError): string {
  const lines = z.prettifyError(error).split('\n');
  return lines.length > 12 ? [...lines.slice(0, 12), `… ${lines.length - 12} more line(s)`].join('\n') : lines.join('\n');
}

/**
 * Parses one results-file JSON value (run.json, summary.json, an episodes.jsonl line): JSON, then the
 * schemaVersion (newer or older than this code reads → a message saying what to do), then the shape.
 * `where` names the file (and line) in every message. Pure.
 */
export function parseResultsJson<T>(text: string, schema: z.ZodType<T>, where: string, what: string): ReadResult<{ value: T }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const empty = text.trim() === '' ? 'empty (a run killed while writing it?)' : `not valid JSON (${(error as Error).message})`;
    return { ok: false, error: `${where}: ${empty}` };
  }
  const versionProblem = schemaVersionProblem(value);
  if (versionProblem !== null) return { ok: false, error: `${where}: ${versionProblem}` };
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const version = (value as { schemaVersion: number }).schemaVersion;
    return { ok: false, error: `${where}: not a valid ${what} (schemaVersion ${version})\n${shapeProblem(parsed.error)}` };
  }
  return { ok: true, value: parsed.data };
}

type ParsedEpisodes = ReadResult<{ records: EpisodeRecord[]; warnings: string[] }>;

const identityOf = (record: EpisodeRecord): string => `${record.strategy}|${record.task}|${record.epoch}`;

/**
 * Parses episodes.jsonl text: one EpisodeRecord per line, blank lines ignored. The last non-blank line, when it is
 * not valid JSON, is taken as torn (the writer was killed mid-line) and skipped with a warning; any other line that
 * is not valid JSON, of a schemaVersion this code does not read, or not a valid EpisodeRecord is an error naming
 * `file:line`. An episode given twice counts once (the first line, with a warning, as scanEpisodes). Pure.
 */
export function parseEpisodes(text: string, file = EPISODES_FILE): ParsedEpisodes {
  const lines = text.split('\n');
  let lastContentLine = lines.length - 1;
  while (lastContentLine >= 0 && (lines[lastContentLine] as string).trim() === '') lastContentLine -= 1;
  const warnings: string[] = [];
  const latest = new Map<string, EpisodeRecord>();
  const seenAt = new Map<string, number>();
  for (let index = 0; index <= lastContentLine; index += 1) {
    const line = (lines[index] as string).trim();
    if (line === '') continue;
    const lineNumber = index + 1;
    if (index === lastContentLine && !isJson(line)) {
      warnings.push(`${file}:${lineNumber}: incomplete last line (a run interrupted while writing?) — skipped`);
      continue;
    }
    const parsed = parseResultsJson(line, EpisodeRecord, `${file}:${lineNumber}`, 'episode record');
    if (!parsed.ok) return parsed;
    const record = parsed.value;
    const identity = identityOf(record);
    const earlier = seenAt.get(identity);
    if (earlier !== undefined) {
      warnings.push(
        `${file}:${lineNumber}: repeats strategy ${record.strategy}, task ${record.task}, epoch ${record.epoch} of line ${earlier}; the first line is used`,
      );
      // A repeated episode counts once: the first line (as the warning says, and as scanEpisodes streams it).
      continue;
    }
    seenAt.set(identity, lineNumber);
    latest.set(identity, record);
  }
  return { ok: true, records: [...latest.values()], warnings };
}

/** Whether `text` parses as JSON (a torn last line does not). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads and validates `dir/run.json`. `required: false` makes an absent file `run: null` (callers warn).
 * A run.json that holds only the claim of a run that never started, is empty, not JSON, of a schemaVersion this
 * code does not read, or of the wrong shape is an error naming the file and the problem.
 */
export async function readRunFile(dir: string, options: { required: boolean }): Promise<ReadResult<{ run: RunFile | null }>> {
  const path = join(dir, RUN_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !options.required) return { ok: true, run: null };
    const reason = describeReadError(path, error);
    return { ok: false, error: (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${reason} (is ${dir} a results folder?)` : reason };
  }
  if (isClaimOnly(text)) {
    return {
      ok: false,
      error:
        `${path}: the run that claimed this folder was stopped before its first episode and recorded no options: ` +
        `start it again with \`stratbench run --out ${dir}\` and the options you gave it`,
    };
  }
  const parsed = parseResultsJson(text, RunFile, path, 'run.json');
  return parsed.ok ? { ok: true, run: parsed.value } : parsed;
}

/** Whether run.json text is only the `{status: "starting"}` claim of a run stopped before it recorded its options. */
export function isClaimOnly(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return RunClaim.safeParse(value).success || (typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'starting');
  } catch {
    return false;
  }
}

/**
 * Checks `dir/summary.json` when it is there (absent is fine: a run killed before the end, or a merge in
 * progress). Nothing reads its numbers back (they are recomputed from episodes.jsonl), but a corrupt one means
 * the folder was damaged, and every command says so rather than trusting the rest.
 */
export async function checkSummaryFile(dir: string): Promise<ReadResult<object>> {
  const path = join(dir, SUMMARY_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true };
    return { ok: false, error: describeReadError(path, error) };
  }
  const parsed = parseResultsJson(text, SummaryFile, path, 'summary.json');
  return parsed.ok ? { ok: true } : parsed;
}

/** A results folder checked but not yet read: its run.json, and where its episodes are (for scanEpisodes: episodes.jsonl or episodes.jsonl.gz). */
export interface OpenedResultsFolder {
  dir: string;
  run: RunFile | null;
  episodesPath: string;
  /** A missing run.json. */
  warnings: string[];
}

/**
 * Checks `dir` (a folder), its run.json (optional: absent → run null and a warning) and summary.json (optional),
 * and that its episodes file exists (episodes.jsonl or episodes.jsonl.gz; both is an error naming both; neither
 * names episodes.jsonl), without reading the episodes. Never throws for bad input.
 */
export async function openResultsFolder(dir: string): Promise<ReadResult<OpenedResultsFolder>> {
  try {
    if (!(await stat(dir)).isDirectory()) return { ok: false, error: `${dir}: not a folder` };
  } catch (error) {
    return { ok: false, error: describeReadError(dir, error) };
  }
  const run = await readRunFile(dir, { required: false });
  if (!run.ok) return run;
  const summary = await checkSummaryFile(dir);
  if (!summary.ok) return summary;
  const located = await locateEpisodes(dir);
  if ('error' in located) return { ok: false, error: located.error };
  const episodesPath = located.path;
  try {
    if (!(await stat(episodesPath)).isFile()) return { ok: false, error: describeReadError(episodesPath, Object.assign(new Error(), { code: 'EISDIR' })) };
  } catch (error) {
    return { ok: false, error: describeReadError(episodesPath, error) };
  }
  const warnings = run.run === null ? [`${join(dir, RUN_FILE)}: missing — models, prompts and suite cannot be compared`] : [];
  return { ok: true, dir, run: run.run, episodesPath, warnings };
}
