// messages.jsonl: the texts model_call events reference by hash (messages sent, thinking), each stored once per folder.
import { appendFile, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoredText, storedTextHash, type TextSink } from '../records/index.js';
import { describeReadError, type ReadResult } from './read.js';
import { EpisodeWriter } from './write.js';
import type { Disk } from './disk.js';

export const MESSAGES_FILE = 'messages.jsonl';

/** How every line the writer makes begins (JSON.stringify of a StoredText: `hash` is its first key). */
const LINE_START = '{"hash":"';

/**
 * Parses messages.jsonl text into hash → text. Blank lines are ignored, and so is a torn last line: one with no
 * newline after it that begins as the writer's lines do (a run killed while writing). Any other line that is not JSON,
 * not a StoredText, or whose hash is not storedTextHash(role, content) is skipped with a warning naming `file:line`
 * (`warnings`, worded by `skippedLineWarning`; `damaged` holds the lines themselves, 1-based): the file is a store of
 * texts by hash, so a bad line loses only the texts on it. The episodes that referenced them show their hashes
 * (explain, export), and `run --resume` keeps them with their verdicts (`referencesMissingText` counts them) — a damaged line must not make the
 * folder unreadable. Pure.
 */
export function parseMessages(
  text: string,
  file = MESSAGES_FILE,
): ReadResult<{ texts: Map<string, StoredText>; warnings: string[]; damaged: Array<{ line: number; text: string }> }> {
  const texts = new Map<string, StoredText>();
  const warnings: string[] = [];
  const damaged: Array<{ line: number; text: string }> = [];
  const lines = text.split('\n');
  // The last segment has no newline after it (it is '' when the file ends with one).
  const unterminated = lines.length - 1;
  const skip = (index: number, problem: string): void => {
    warnings.push(skippedLineWarning(`${file}:${index + 1}: ${problem}`));
    damaged.push({ line: index + 1, text: lines[index]! });
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index === unterminated && line.startsWith(LINE_START)) continue; // torn by a kill mid-write
      skip(index, `not valid JSON (${printable((error as Error).message)})`);
      continue;
    }
    const parsed = StoredText.safeParse(value);
    if (!parsed.success) skip(index, 'not a stored message (expected {hash, role, content})');
    else if (storedTextHash(parsed.data.role, parsed.data.content) !== parsed.data.hash) {
      skip(index, `its hash ${printable(parsed.data.hash)} is not the hash of its role and content (the text was altered)`);
    } else texts.set(parsed.data.hash, parsed.data);
  }
  return { ok: true, texts, warnings, damaged };
}

/** `text` with control characters shown as \\uXXXX escapes and cut to 120 characters, for a message on a terminal. */
function printable(text: string): string {
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown;
}

/** The warning for a messages.jsonl line that was skipped because of `problem` ("FILE:LINE: not valid JSON (…)"). */
export function skippedLineWarning(problem: string): string {
  return `${problem}: skipped; the texts on it are lost, and the episodes that used them show their hashes (their verdicts stand)`;
}

/** Where `--resume` moves the damaged lines of messages.jsonl (appended, each with its old line number), so none is lost. */
export const DAMAGED_MESSAGES_FILE = 'messages.damaged.jsonl';

/**
 * Rewrites `dir/messages.jsonl` without its damaged lines (atomically: a temporary file renamed over it), after
 * appending each of them to `dir/messages.damaged.jsonl` as `{"line": N, "text": "…"}`. `--resume` does this before
 * running again the episodes that used them, so later readers do not warn about texts that are back.
 * Returns how many lines were moved.
 */
export async function moveDamagedMessages(dir: string): Promise<number> {
  const path = join(dir, MESSAGES_FILE);
  const text = await readFile(path, 'utf8');
  const parsed = parseMessages(text, path);
  if (!parsed.ok || parsed.damaged.length === 0) return 0;
  await appendFile(join(dir, DAMAGED_MESSAGES_FILE), parsed.damaged.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const dropped = new Set(parsed.damaged.map((line) => line.line - 1));
  const kept = text
    .split('\n')
    .filter((_, index) => !dropped.has(index))
    .filter((line) => line.trim() !== '');
  const tmp = `${path}.tmp`;
  await writeFile(tmp, kept.map((line) => `${line}\n`).join(''));
  await rename(tmp, path);
  return parsed.damaged.length;
}

/**
 * Reads `dir/messages.jsonl` (see parseMessages: corrupt lines are skipped with `warnings`); an absent file is an
 * empty map (scripted runs send no messages; folders before schemaVersion 2). Fails only when the file cannot be read.
 */
export async function readMessages(
  dir: string,
): Promise<ReadResult<{ texts: Map<string, StoredText>; warnings: string[]; damaged: Array<{ line: number; text: string }> }>> {
  const path = join(dir, MESSAGES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, texts: new Map(), warnings: [], damaged: [] };
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
 * whose models send no messages (the scripted stand-in) leave none. Lines are buffered like episodes, and written
 * to `disk` (default: node:fs); `flush` and `close` throw DiskWriteError naming messages.jsonl when it refuses.
 */
export async function openMessageStore(dir: string, disk?: Disk): Promise<MessageStore> {
  await cutTornLastLine(join(dir, MESSAGES_FILE));
  const existing = await readMessages(dir);
  const seen = new Set(existing.ok ? existing.texts.keys() : []);
  let writer: EpisodeWriter | undefined;
  // A refused write (opening or appending) is kept and thrown by the next flush or close, outside the episode that
  // stored the text: the disk's fault must not end that episode as an infrastructure error.
  let failure: unknown;
  return {
    put(text) {
      if (seen.has(text.hash)) return;
      seen.add(text.hash);
      try {
        writer ??= new EpisodeWriter(join(dir, MESSAGES_FILE), disk ? { disk } : {});
        writer.writeLine(JSON.stringify(text));
      } catch (error) {
        failure ??= error;
      }
    },
    flush() {
      if (failure !== undefined) throw failure;
      writer?.flush();
    },
    async close() {
      await writer?.close();
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * Makes `path` end on a line boundary before lines are appended: a last line without its newline is cut off when it
 * is torn (begun as the writer begins its lines, not finished: readers skip it), and completed with the newline
 * otherwise — a whole line (readers, and `--resume`, count its text as stored), or bytes that are not ours, which stay
 * as a damaged line readers warn about. An absent file is left absent.
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
  if (isStoredText(tail) || !tail.trim().startsWith(LINE_START)) await appendFile(path, '\n');
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
