// The disk seam of a results folder's writers, and what a write the disk refuses (ENOSPC, EROFS, EIO…) becomes.
import { writeSync } from 'node:fs';
import { lstat, unlink, writeFile } from 'node:fs/promises';

/**
 * The two writes a run makes to its results folder: appends to an open file (episodes.jsonl, messages.jsonl) and
 * whole files (run.json, summary.json, through a temporary file renamed over them). Tests pass one that refuses.
 */
export interface Disk {
  /** Writes `bytes` from `offset` to its end to open file `fd` (which is `path`); returns the bytes written, as fs.writeSync. */
  writeSync(path: string, fd: number, bytes: Buffer, offset: number): number;
  /** Writes `text` as the whole file `path`, as fs.promises.writeFile. */
  writeFile(path: string, text: string): Promise<void>;
}

/** The real disk: node:fs. */
export const NODE_DISK: Disk = {
  writeSync: (_path, fd, bytes, offset) => writeSync(fd, bytes, offset, bytes.length - offset),
  writeFile: (path, text) => writeFile(path, text),
};

/**
 * The errno codes of a disk that refuses a write, with what each means (Linux's strerror): a full disk or quota, a
 * read-only file system (a remount after an I/O error), a device error, a file over the size limit.
 */
const DISK_FAULTS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  EFBIG: 'file too large',
};

/** `stratbench` exits with this code when the disk refused a write (README: exit codes). Never 1, compare's "regressed". */
export const DISK_FAULT_EXIT_CODE = 5;

/** A write to `path` that the disk refused with errno `code` (one of ENOSPC, EDQUOT, EROFS, EIO, EFBIG). */
export class DiskWriteError extends Error {
  override readonly name = 'DiskWriteError';
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot write ${path}: ${code} (${DISK_FAULTS[code] ?? 'the disk refused the write'})`);
  }
}

/**
 * A read of `path` that the device failed (EIO): not bad input, so not exit 2 — the command ends with
 * DISK_FAULT_EXIT_CODE and this message naming the file. Thrown by describeReadError (read.ts) for EIO.
 */
export class DiskReadError extends Error {
  override readonly name = 'DiskReadError';
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot read ${path}: ${code} (${DISK_FAULTS[code] ?? 'the device failed the read'})`);
  }
}

/** The errno code of `error` when it is a disk refusing a write (see DISK_FAULTS), else undefined. */
export function diskFaultCode(error: unknown): string | undefined {
  if (error instanceof DiskWriteError || error instanceof DiskReadError) return error.code;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in DISK_FAULTS ? code : undefined;
}

/** `error` as a DiskWriteError naming `path` when it is a disk fault; any other error unchanged (to rethrow). */
export function asDiskWriteError(error: unknown, path: string): unknown {
  if (error instanceof DiskWriteError) return error;
  const code = diskFaultCode(error);
  return code === undefined ? error : new DiskWriteError(path, code);
}

/**
 * Removes what a refused write left of output file `path` (a report, an export: empty or cut short), so that no
 * consumer reads it as whole (a CI step parsing an empty junit.xml). Only a regular file is removed — never a device
 * such as /dev/full or a symlink's target. Never throws.
 */
export async function removePartialFile(path: string): Promise<void> {
  const found = await lstat(path).catch(() => undefined);
  if (found?.isFile() === true) await unlink(path).catch(() => undefined);
}
