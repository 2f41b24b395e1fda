// The error the CLI turns into exit code 2: bad input or usage, reported before any episode runs.
import { asDiskWriteError } from '../results-folder/index.js';

/** Bad input or usage: the CLI prints the message and exits 2, before any episode runs. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * What a failed write of an output file (a report, an export) becomes: a DiskWriteError naming `path` when the disk
 * refused it (ENOSPC, EROFS, EIO, EDQUOT, EFBIG: exit 5, decision 0033), else a UsageError (exit 2: a path that
 * cannot be written — a missing permission, a folder where a file should be).
 */
export function outputWriteError(path: string, error: unknown): Error {
  const disk = asDiskWriteError(error, path);
  if (disk !== error) return disk as Error;
  return new UsageError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}
