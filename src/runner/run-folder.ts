// A run's results folder: choosing and preparing it, its exclusive lock, resuming what it holds, claiming it with run.json.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunDescription, Shard } from '../records/index.js';
import {
  claimRunFile,
  commandLine,
  FolderLockedError,
  loadForResume,
  lockResultsFolder,
  OutputFolderError,
  parseShard,
  prepareOutputFolder,
  ResumeError,
  type Disk,
  type FolderLock,
  type ResumeEpisodes,
} from '../results-folder/index.js';
import { UsageError } from './usage-error.js';

/** The lock a command holds on its results folder, set once taken (released by the command on every way out). */
export interface HeldLock {
  lock?: FolderLock;
}

/** `results/<UTC timestamp>`'s timestamp: `2026-12-04_16-30-00-000`. */
function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 23);
}

/**
 * Takes the exclusive lock of results folder `dir` into `held` (see lockResultsFolder); a folder that does not exist
 * is left to the caller's own message. Throws UsageError (exit 2) naming the process that holds it.
 */
export async function lockFolder(dir: string, command: string, held: HeldLock): Promise<void> {
  const isFolder = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) return;
  try {
    held.lock = await lockResultsFolder(dir, command, { onWait: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    if (error instanceof FolderLockedError) throw new UsageError(error.message);
    throw error;
  }
  if (held.lock.note !== null) process.stderr.write(`${held.lock.note}\n`);
}

/**
 * `disk` with every write preceded by `lock.assertHeld()`: a run that lost its folder's lock (another process took it
 * over while this one was stopped past its lease) writes nothing more and ends with FolderLockLostError.
 */
export function guardedDisk(disk: Disk, lock: FolderLock | undefined): Disk {
  if (lock === undefined) return disk;
  return {
    writeSync(path, fd, bytes, offset) {
      lock.assertHeld();
      return disk.writeSync(path, fd, bytes, offset);
    },
    async writeFile(path, text) {
      lock.assertHeld();
      await disk.writeFile(path, text);
    },
  };
}

/**
 * The folder of a run (`--out`, default `results/<timestamp>`) made ready and locked, and its `--shard`. Throws
 * UsageError (exit 2) for a bad shard, a folder that holds another run or cannot be created, or one another process holds.
 */
export async function prepareRunFolder(options: Record<string, unknown>, held: HeldLock): Promise<{ outDir: string; shard: Shard | undefined }> {
  const outDir = typeof options['out'] === 'string' ? options['out'] : join('results', timestamp());
  try {
    // A resumed shard of a folder written before row slicing keeps slicing by episode (run-resume.ts).
    const unit = options['shardUnit'] === 'episode' ? 'episode' : 'row';
    const shard = typeof options['shard'] === 'string' ? parseShard(options['shard'], unit) : undefined;
    await prepareOutputFolder(outDir);
    if (held.lock === undefined) await lockFolder(outDir, commandLine(), held);
    return { outDir, shard };
  } catch (error) {
    if (error instanceof OutputFolderError || error instanceof ResumeError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * On `--resume`, the finished episodes `outDir` keeps for a run of `configHash` (what was dropped and why on stderr);
 * undefined for a new run. Throws UsageError (exit 2) for a folder of another configuration or one that cannot be read.
 */
export async function loadResumed(options: Record<string, unknown>, outDir: string, configHash: string): Promise<ResumeEpisodes | undefined> {
  if (typeof options['resume'] !== 'string') return undefined;
  try {
    const loaded = await loadForResume(outDir, configHash);
    for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (options['compress'] === true && loaded.compressed === false) {
      process.stderr.write(`note: --compress does not apply: ${outDir} continues in its own episodes.jsonl (a resumed run keeps the folder's format)\n`);
    }
    process.stderr.write(
      `resuming ${outDir}: ${loaded.kept} finished episode(s) kept` +
        `${loaded.keptWithLostTexts > 0 ? ` (${loaded.keptWithLostTexts} of them reference messages or thinking that messages.jsonl lacks: kept with their verdicts, the texts shown as lost)` : ''}` +
        `${loaded.droppedTornLine ? `, a half-written last ${loaded.compressed ? 'gzip member' : 'line'} dropped` : ''}` +
        `${loaded.rerunErrors > 0 ? `, ${loaded.rerunErrors} errored episode(s) to run again` : ''}\n`,
    );
    return loaded;
  } catch (error) {
    if (error instanceof ResumeError) throw new UsageError(error.message);
    throw error;
  }
}

/** A new run writes run.json (`status: running`) before its first episode; a resume keeps the folder's. Throws UsageError for a folder another run claimed. */
export async function claimRunFolder(options: Record<string, unknown>, outDir: string, runInfo: RunDescription): Promise<void> {
  if (typeof options['resume'] === 'string') return;
  try {
    const note = await claimRunFile(outDir, { ...runInfo, status: 'running' });
    if (note !== null) process.stderr.write(`${note}\n`);
  } catch (error) {
    if (error instanceof OutputFolderError) throw new UsageError(error.message);
    throw error;
  }
}
