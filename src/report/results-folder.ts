// Reading a results folder (episodes.jsonl + run.json) into validated records, tolerating a torn last line.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EpisodeRecord } from '../runner/record.js';

/**
 * run.json, read defensively: every field optional and unknown fields kept, so that folders written by older or
 * newer versions of the runner can still be compared. Hashes are sha256 hex strings.
 */
export const RunInfo = z.looseObject({
  schemaVersion: z.number().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  suite: z.looseObject({ path: z.string().optional(), hash: z.string().optional() }).optional(),
  models: z.record(z.string(), z.string()).optional().describe('Model serving each role'),
  prompts: z.record(z.string(), z.string()).optional().describe('sha256 of each role prompt'),
  strategies: z.array(z.string()).optional(),
  epochs: z.number().int().optional(),
  seed: z.number().optional(),
});
export type RunInfo = z.infer<typeof RunInfo>;

/** A results folder in memory. `run` is null when run.json is absent (a warning says so). */
export interface ResultsFolder {
  dir: string;
  run: RunInfo | null;
  records: EpisodeRecord[];
  /** Human-readable notes: a skipped torn last line, a missing run.json, repeated episodes. */
  warnings: string[];
}

export type ReadResultsFolderResult = ({ ok: true } & ResultsFolder) | { ok: false; error: string };

export const EPISODES_FILE = 'episodes.jsonl';
export const RUN_FILE = 'run.json';

/** Why a file could not be read: a message naming the path and the system error code. */
function describeReadError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${path}: no such file`;
  if (code === 'EISDIR') return `${path}: is a folder, not a file`;
  return `${path}: cannot read (${code ?? String(error)})`;
}

type ParsedEpisodes = { ok: true; records: EpisodeRecord[]; warnings: string[] } | { ok: false; error: string };

/**
 * Parses episodes.jsonl text: one EpisodeRecord per line, blank lines ignored. The last non-blank line, when it is
 * not valid JSON, is taken as torn (the writer was killed mid-line) and skipped with a warning; any other line that
 * is not valid JSON or not a valid EpisodeRecord is an error naming `file:line`. Pure.
 */
export function parseEpisodes(text: string, file = EPISODES_FILE): ParsedEpisodes {
  const lines = text.split('\n');
  let lastContentLine = lines.length - 1;
  while (lastContentLine >= 0 && (lines[lastContentLine] as string).trim() === '') lastContentLine -= 1;
  const records: EpisodeRecord[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  for (let index = 0; index <= lastContentLine; index += 1) {
    const line = (lines[index] as string).trim();
    if (line === '') continue;
    const lineNumber = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index === lastContentLine) {
        warnings.push(`${file}:${lineNumber}: incomplete last line (a run interrupted while writing?) — skipped`);
        continue;
      }
      return { ok: false, error: `${file}:${lineNumber}: not valid JSON (${(error as Error).message})` };
    }
    const parsed = EpisodeRecord.safeParse(value);
    if (!parsed.success) {
      return { ok: false, error: `${file}:${lineNumber}: not a valid episode record\n${z.prettifyError(parsed.error)}` };
    }
    const record = parsed.data;
    const identity = `${record.strategy}|${record.task}|${record.epoch}`;
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      warnings.push(
        `${file}:${lineNumber}: repeats strategy ${record.strategy}, task ${record.task}, epoch ${record.epoch} of line ${earlier}; the later line is used`,
      );
    }
    seen.set(identity, lineNumber);
    records.push(record);
  }
  // A repeated episode counts once: the later line replaces the earlier one (as the warning says).
  const latest = new Map<string, EpisodeRecord>();
  for (const record of records) {
    const identity = `${record.strategy}|${record.task}|${record.epoch}`;
    latest.delete(identity);
    latest.set(identity, record);
  }
  return { ok: true, records: [...latest.values()], warnings };
}

/**
 * Reads `dir/episodes.jsonl` (required; see parseEpisodes) and `dir/run.json` (optional: absent → run null and a
 * warning; present but not JSON or not matching RunInfo → error). Never throws for bad input: returns
 * `{ ok: false, error }` with a message naming the file (and line).
 */
export async function readResultsFolder(dir: string): Promise<ReadResultsFolderResult> {
  try {
    if (!(await stat(dir)).isDirectory()) return { ok: false, error: `${dir}: not a folder` };
  } catch (error) {
    return { ok: false, error: describeReadError(dir, error) };
  }
  const episodesPath = join(dir, EPISODES_FILE);
  let episodesText: string;
  try {
    episodesText = await readFile(episodesPath, 'utf8');
  } catch (error) {
    return { ok: false, error: describeReadError(episodesPath, error) };
  }
  const episodes = parseEpisodes(episodesText, episodesPath);
  if (!episodes.ok) return episodes;
  const warnings = [...episodes.warnings];

  const runPath = join(dir, RUN_FILE);
  let run: RunInfo | null = null;
  let runText: string | null = null;
  try {
    runText = await readFile(runPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, error: describeReadError(runPath, error) };
    warnings.push(`${runPath}: missing — models, prompts and suite cannot be compared`);
  }
  if (runText !== null) {
    let value: unknown;
    try {
      value = JSON.parse(runText);
    } catch (error) {
      return { ok: false, error: `${runPath}: not valid JSON (${(error as Error).message})` };
    }
    const parsed = RunInfo.safeParse(value);
    if (!parsed.success) return { ok: false, error: `${runPath}: unexpected shape\n${z.prettifyError(parsed.error)}` };
    run = parsed.data;
  }
  return { ok: true, dir, run, records: episodes.records, warnings };
}
