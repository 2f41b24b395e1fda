// Writing a results folder: episode records appended to episodes.jsonl as they finish; run.json and summary.json atomically.
import { closeSync, openSync, writeSync } from 'node:fs';
import { writeFile, access, constants, readFile, rename, stat, unlink } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import { SCHEMA_VERSION, type EpisodeRecord, type RunClaim, type RunFile, type RunSummary } from '../records/index.js';
import { EPISODES_FILE, isClaimOnly, RUN_FILE, SUMMARY_FILE } from './read.js';
import { createFileOnce } from './lock.js';

/** Thrown when the results folder cannot be created or written (a usage error: exit 2). */
export class OutputFolderError extends Error {
  override readonly name = 'OutputFolderError';
}

/** Creates `dir` (recursively) and proves it is writable, before any episode runs. */
export async function prepareOutputFolder(dir: string, options: { fresh?: boolean } = {}): Promise<void> {
  try {
    await makeFolder(dir);
    await access(dir, constants.W_OK);
    const probe = join(dir, '.write-test');
    await writeFile(probe, '');
    await unlink(probe);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new OutputFolderError(`cannot write results to ${dir}: ${reason}`);
  }
  if (options.fresh) {
    // Claim the folder: exclusive creation fails if another run (even one started in the same instant) has it.
    try {
      const claim: RunClaim = { schemaVersion: SCHEMA_VERSION, status: 'starting' };
      await writeFile(join(dir, RUN_FILE), `${JSON.stringify(claim)}\n`, { flag: 'wx' });
    } catch {
      throw new OutputFolderError(`${dir} already holds a run (run.json exists): continue it with --resume ${dir}, or choose another --out`);
    }
  }
}

/**
 * Claims fresh results folder `dir` for a run by creating its run.json — the whole description (options included,
 * `status: running`), written atomically, so a run killed at any moment after this leaves a folder `--resume` can
 * continue. A run.json holding only the bare claim of an older stratbench's run stopped before its first episode
 * (and no episodes) is replaced; the returned note says so. Call with the folder's lock held. Throws
 * OutputFolderError when the folder already holds a run.
 */
export async function claimRunFile(dir: string, run: RunFile): Promise<string | null> {
  const path = join(dir, RUN_FILE);
  try {
    if (await createFileOnce(path, `${JSON.stringify(run, null, 2)}\n`)) return null;
  } catch (error) {
    throw new OutputFolderError(`cannot write results to ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const existing = await readFile(path, 'utf8').catch(() => '');
  const episodes = await stat(join(dir, EPISODES_FILE)).then(
    (info) => info.size,
    () => 0,
  );
  if (isClaimOnly(existing) && episodes === 0) {
    await writeRunFile(dir, run);
    return `note: ${dir} held only the claim of a run stopped before its first episode; starting it afresh`;
  }
  throw new OutputFolderError(`${dir} already holds a run (run.json exists): continue it with --resume ${dir}, or choose another --out`);
}

/**
 * Appends one JSON line per finished episode. Lines are encoded straight into a 1 MiB buffer and written with
 * one `writeSync` when it fills, when `maxDelayMs` has passed since the oldest unwritten line (a timer makes
 * sure of it even when no further episode finishes), and on `close()`. A record is never split across writes,
 * so a killed run leaves at most one half-written line at the end (which `--resume` drops); at most
 * `maxDelayMs` of finished episodes can be lost to a SIGKILL, and `--resume` re-runs them.
 * Synchronous writes block the event loop for well under a millisecond per MiB flushed.
 */
export class EpisodeWriter {
  private readonly fd: number;
  private buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly path: string,
    private readonly maxDelayMs = 100,
  ) {
    this.fd = openSync(path, 'a');
  }

  /** Appends a record. Throws if the disk write failed. */
  async write(record: EpisodeRecord): Promise<void> {
    this.writeLine(JSON.stringify(record));
  }

  /** Appends one already-serialised record (no trailing newline). */
  writeLine(json: string): void {
    // UTF-16 code units encode to at most 3 UTF-8 bytes each.
    const worstCase = json.length * 3 + 1;
    if (this.used + worstCase > this.buffer.length) {
      this.flush();
      if (worstCase > this.buffer.length) this.buffer = Buffer.allocUnsafe(worstCase);
    }
    this.used += this.buffer.write(json, this.used, 'utf8');
    this.buffer[this.used++] = 0x0a;
    this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs).unref();
  }

  /** Writes every buffered line to the file now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    let offset = 0;
    while (offset < this.used) offset += writeSync(this.fd, this.buffer, offset, this.used - offset);
    this.used = 0;
  }

  async close(): Promise<void> {
    this.flush();
    closeSync(this.fd);
  }
}

/** Writes a JSON file atomically (tmp + rename); `compact` for large machine-read files (summary.json). */
export async function writeJsonFile(path: string, value: unknown, options: { compact?: boolean } = {}): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeFile(tmp, `${options.compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, path);
}

/** Writes `dir/run.json` atomically (indented: people read it). */
export async function writeRunFile(dir: string, run: RunFile): Promise<void> {
  await writeJsonFile(join(dir, RUN_FILE), run);
}

/** Writes `dir/summary.json` atomically (compact: it holds every episode's result). */
export async function writeSummaryFile(dir: string, summary: RunSummary & { statistics: object }): Promise<void> {
  await writeJsonFile(join(dir, SUMMARY_FILE), summary, { compact: true });
}
