// messages.jsonl: the texts model_call events reference by hash (messages sent, thinking), each stored once per folder.
import { appendFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoredText, type TextSink } from '../records/index.js';
import { describeReadError, type ReadResult } from './read.js';
import { EpisodeWriter } from './write.js';

export const MESSAGES_FILE = 'messages.jsonl';

/**
 * Parses messages.jsonl text into hash → text. Blank lines are ignored and a torn last line (a run killed while
 * writing) is skipped silently. Any other line that is not JSON or not a StoredText is skipped too, with a warning
 * naming `file:line` (`warnings`, worded by `skippedLineWarning`): the file is a store of texts by hash, so a bad line
 * loses only the texts on it. The episodes that referenced them show their hashes (explain, export), and
 * `run --resume` runs them again (`referencesMissingText`) — a corrupt line must not make the folder unreadable. Pure.
 */
export function parseMessages(text: string, file = MESSAGES_FILE): ReadResult<{ texts: Map<string, StoredText>; warnings: string[] }> {
  const texts = new Map<string, StoredText>();
  const warnings: string[] = [];
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last -= 1;
  for (let index = 0; index <= last; index += 1) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index !== last) warnings.push(skippedLineWarning(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`));
      continue;
    }
    const parsed = StoredText.safeParse(value);
    if (!parsed.success) {
      warnings.push(skippedLineWarning(`${file}:${index + 1}: not a stored message (expected {hash, role, content})`));
      continue;
    }
    texts.set(parsed.data.hash, parsed.data);
  }
  return { ok: true, texts, warnings };
}

/** The warning for a messages.jsonl line that was skipped because of `problem` ("FILE:LINE: not valid JSON (…)"). */
export function skippedLineWarning(problem: string): string {
  return `${problem}: skipped; the texts on it are lost, the episodes that used them show their hashes, and \`stratbench run --resume\` runs them again`;
}

/**
 * Reads `dir/messages.jsonl` (see parseMessages: corrupt lines are skipped with `warnings`); an absent file is an
 * empty map (scripted runs send no messages; folders before schemaVersion 2). Fails only when the file cannot be read.
 */
export async function readMessages(dir: string): Promise<ReadResult<{ texts: Map<string, StoredText>; warnings: string[] }>> {
  const path = join(dir, MESSAGES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, texts: new Map(), warnings: [] };
    return { ok: false, error: describeReadError(path, error) };
  }
  return parseMessages(text, path);
}

/** A TextSink appending to a folder's messages.jsonl, each hash once (also across a resume); `close()` flushes. */
export interface MessageStore extends TextSink {
  /** Writes the buffered lines now (before the episodes that reference them: EpisodeWriterOptions.beforeFlush). */
  flush(): void;
  close(): Promise<void>;
}

/**
 * Opens `dir/messages.jsonl` for appending. Hashes already in the file (an interrupted run being resumed) are not
 * written again; a torn last line (no newline: the run was killed mid-write) is cut off first, since lines appended
 * after it would leave it in the middle, where readers reject it. The file is created on the first text, so runs
 * whose models send no messages (the scripted stand-in) leave none. Lines are buffered like episodes.
 */
export async function openMessageStore(dir: string): Promise<MessageStore> {
  await cutTornLastLine(join(dir, MESSAGES_FILE));
  const existing = await readMessages(dir);
  const seen = new Set(existing.ok ? existing.texts.keys() : []);
  let writer: EpisodeWriter | undefined;
  return {
    put(text) {
      if (seen.has(text.hash)) return;
      seen.add(text.hash);
      writer ??= new EpisodeWriter(join(dir, MESSAGES_FILE));
      writer.writeLine(JSON.stringify(text));
    },
    flush() {
      writer?.flush();
    },
    async close() {
      await writer?.close();
    },
  };
}

/**
 * Makes `path` end on a line boundary before lines are appended: a last line without its newline is cut off when it
 * is torn (not a stored text: readers skip it), and completed with the newline when it is whole (readers, and
 * `--resume`, count its text as stored). An absent file is left absent.
 */
async function cutTornLastLine(path: string): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  const start = bytes.lastIndexOf(0x0a) + 1;
  const tail = bytes.subarray(start).toString('utf8');
  if (isStoredText(tail)) await appendFile(path, '\n');
  else await truncate(path, start);
}

/** Whether `line` is one whole stored text (what parseMessages keeps from a last line). */
function isStoredText(line: string): boolean {
  try {
    return StoredText.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
  }
}

/**
 * The union of several folders' messages.jsonl (merge), read before anything is written; `warnings` name the lines
 * skipped (the merged file is written without them); an error names a file that cannot be read.
 */
export async function collectMessages(dirs: readonly string[]): Promise<ReadResult<{ texts: Map<string, StoredText>; warnings: string[] }>> {
  const texts = new Map<string, StoredText>();
  const warnings: string[] = [];
  for (const dir of dirs) {
    const read = await readMessages(dir);
    if (!read.ok) return read;
    warnings.push(...read.warnings);
    for (const [hash, text] of read.texts) texts.set(hash, text);
  }
  return { ok: true, texts, warnings };
}

/** Writes `texts` as `dir/messages.jsonl`; nothing when there are none. */
export async function writeMessages(dir: string, texts: ReadonlyMap<string, StoredText>): Promise<void> {
  if (texts.size > 0) await writeFile(join(dir, MESSAGES_FILE), [...texts.values()].map((text) => `${JSON.stringify(text)}\n`).join(''));
}
