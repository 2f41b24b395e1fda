// Writing a results folder: episode records appended to episodes.jsonl as they finish; run.json and summary.json atomically.
import { closeSync, openSync } from 'node:fs';
import { writeFile, access, constants, readFile, rename, stat, unlink } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import { SCHEMA_VERSION, type EpisodeRecord, type RunClaim, type RunFile, type RunSummary } from '../records/index.js';
import { isClaimOnly, RUN_FILE, SUMMARY_FILE } from './read.js';
import { compressMember, GZIP_LEVEL, locateEpisodes } from './episode-file.js';
import { createFileOnce } from './lock.js';
import { asDiskWriteError, type Disk, DiskWriteError, diskFaultCode, NODE_DISK } from './disk.js';

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
    // A disk that refuses (read-only, full, failing) is not bad input: exit 5 naming the file, as every write.
    const fault = diskFaultCode(error);
    if (fault !== undefined) throw new DiskWriteError((error as NodeJS.ErrnoException).path ?? dir, fault);
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
  const located = await locateEpisodes(dir);
  const episodes =
    'error' in located || !located.exists
      ? 0
      : await stat(located.path).then(
          (info) => info.size,
          () => 0,
        );
  if (isClaimOnly(existing) && episodes === 0) {
    await writeRunFile(dir, run);
    return `note: ${dir} held only the claim of a run stopped before its first episode; starting it afresh`;
  }
  throw new OutputFolderError(`${dir} already holds a run (run.json exists): continue it with --resume ${dir}, or choose another --out`);
}

/** How an EpisodeWriter writes: its flush delay (ms, default 100) and whether it writes gzip members (decision 0015). */
export interface EpisodeWriterOptions {
  maxDelayMs?: number;
  /** Write each flush as one self-delimiting gzip member (episodes.jsonl.gz) instead of plain lines. */
  compress?: boolean;
  /** Deflate level of compressed members (default GZIP_LEVEL, 3). */
  level?: number;
  /**
   * Called before each flush that writes lines, e.g. to write first the messages.jsonl lines those episodes
   * reference: a killed run then never leaves an episode whose texts are not on disk.
   */
  beforeFlush?: () => void;
  /** Where the bytes go (default NODE_DISK); tests pass a disk that refuses writes. */
  disk?: Disk;
}

/** Encodes the lines into the writer's buffer. */
const utf8 = new TextEncoder();

/** Compressed members in flight at once before `write` waits for the oldest (libuv's thread pool has 4 threads). */
const MAX_PENDING_MEMBERS = 4;

/**
 * Appends one JSON line per finished episode. Lines are encoded straight into a 1 MiB buffer and written when it
 * fills, when `maxDelayMs` has passed since the oldest unwritten line (a timer makes sure of it even when no further
 * episode finishes), and on `close()`. A record is never split across writes, so a killed run leaves at most one
 * half-written line at the end (which `--resume` drops); at most `maxDelayMs` of finished episodes can be lost to a
 * SIGKILL, and `--resume` re-runs them. Plain: one `writeSync` per flush, well under a millisecond per MiB.
 * Compressed (`compress`): each flush becomes one gzip member (compressMember) deflated on the thread pool and
 * appended in order as it is ready — a killed run leaves at most one torn member, which readers skip and `--resume`
 * cuts off; up to 4 members (4 MiB of lines) more can be lost to a SIGKILL. `write` and `writeLine` return a promise
 * to wait for when 4 members are in flight (backpressure), else nothing.
 */
export class EpisodeWriter {
  private readonly fd: number;
  private buffer: Buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxDelayMs: number;
  private readonly compress: boolean;
  private readonly level: number;
  /** Compressed members not yet written, and the chain that writes them in order. */
  private pending = 0;
  private written: Promise<void> = Promise.resolve();
  private failure: unknown;
  /** 1 MiB buffers whose lines are written, for the next flushes. */
  private readonly spare: Buffer[] = [];
  private readonly beforeFlush: (() => void) | undefined;
  private readonly disk: Disk;
  private closed = false;

  constructor(
    readonly path: string,
    options: EpisodeWriterOptions = {},
  ) {
    this.maxDelayMs = options.maxDelayMs ?? 100;
    this.compress = options.compress === true;
    this.level = options.level ?? GZIP_LEVEL;
    this.beforeFlush = options.beforeFlush;
    this.disk = options.disk ?? NODE_DISK;
    try {
      this.fd = openSync(path, 'a');
    } catch (error) {
      throw asDiskWriteError(error, path);
    }
  }

  /** Appends a record. Throws if an earlier disk write failed. */
  async write(record: EpisodeRecord): Promise<void> {
    await this.writeLine(JSON.stringify(record));
  }

  /** Appends one already-serialised record (no trailing newline); a promise to await when members are backed up. Throws if a write failed. */
  writeLine(json: string): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure;
    // UTF-16 code units encode to at most 3 UTF-8 bytes each.
    const worstCase = json.length * 3 + 1;
    if (this.used + worstCase > this.buffer.length) {
      this.flush();
      if (worstCase > this.buffer.length) this.buffer = Buffer.allocUnsafe(worstCase);
    }
    // TextEncoder.encodeInto: the same UTF-8 bytes as buffer.write (lone surrogates as U+FFFD), ~1.6× faster on Node 20.
    this.used += utf8.encodeInto(json, this.buffer.subarray(this.used)).written;
    this.buffer[this.used++] = 0x0a;
    // A timer's flush that fails is kept in `failure` (never an uncaught exception): the next write or close throws it.
    this.timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch {}
    }, this.maxDelayMs).unref();
    return this.pending >= MAX_PENDING_MEMBERS ? this.settled() : undefined;
  }

  /**
   * Writes every buffered line to the file now (compressed: starts its member; `close` waits for it). Throws
   * DiskWriteError naming the file when the disk refuses (or what `beforeFlush` threw); after a failure the writer
   * writes nothing more — a line appended after a torn one would leave it mid-file — and throws it again.
   */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.failure !== undefined) throw this.failure;
    if (this.used === 0) return;
    if (!this.compress) {
      try {
        this.beforeFlush?.();
        this.writeAll(this.buffer.subarray(0, this.used));
      } catch (error) {
        this.failure = error;
        throw error;
      } finally {
        this.used = 0;
      }
      return;
    }
    try {
      this.beforeFlush?.();
    } catch (error) {
      this.failure = error;
      this.used = 0;
      throw error;
    }
    const full = this.buffer;
    const lines = full.subarray(0, this.used);
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(1 << 20);
    this.used = 0;
    this.pending += 1;
    const member = compressMember(lines, this.level);
    member.catch(() => undefined);
    this.written = this.written.then(async () => {
      try {
        if (this.failure === undefined) this.writeAll(await member);
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.pending -= 1;
        // Buffers are reused once deflated: a run of any length allocates a few MiB, not one per flush.
        if (full.length === 1 << 20 && this.spare.length < MAX_PENDING_MEMBERS) this.spare.push(full);
      }
    });
  }

  private writeAll(bytes: Buffer): void {
    let offset = 0;
    try {
      while (offset < bytes.length) offset += this.disk.writeSync(this.path, this.fd, bytes, offset);
    } catch (error) {
      throw asDiskWriteError(error, this.path);
    }
  }

  /** Waits for the members in flight to be written; throws the first write failure. */
  private async settled(): Promise<void> {
    await this.written;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Writes what is buffered and closes the file (always; a second call does nothing); throws the first write failure (DiskWriteError naming the file). */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.flush();
      await this.settled();
    } finally {
      // Once: a second close must not close a descriptor number the process has since reused.
      if (!this.closed) closeSync(this.fd);
      this.closed = true;
    }
  }
}

/**
 * Writes a JSON file atomically (tmp + rename): `path` is the old file or the new one, never half of either;
 * `compact` for large machine-read files (summary.json). A write the disk refuses removes the tmp file and throws
 * DiskWriteError naming `path` (the old file, if any, is left as it was).
 */
export async function writeJsonFile(path: string, value: unknown, options: { compact?: boolean; disk?: Disk } = {}): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    await (options.disk ?? NODE_DISK).writeFile(tmp, `${options.compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw asDiskWriteError(error, path);
  }
}

/** Writes `dir/run.json` atomically (indented: people read it); see writeJsonFile for a refused write. */
export async function writeRunFile(dir: string, run: RunFile, disk?: Disk): Promise<void> {
  await writeJsonFile(join(dir, RUN_FILE), run, disk ? { disk } : {});
}

/** Writes `dir/summary.json` atomically (compact: it holds every episode's result); see writeJsonFile for a refused write. */
export async function writeSummaryFile(dir: string, summary: RunSummary & { statistics: object }, disk?: Disk): Promise<void> {
  await writeJsonFile(join(dir, SUMMARY_FILE), summary, { compact: true, ...(disk ? { disk } : {}) });
}
