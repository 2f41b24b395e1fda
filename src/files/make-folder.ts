// Creating folders safely: one level at a time, so a path the OS cannot hold fails instead of spinning.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` without `{ recursive: true }`: Node's recursive mkdir retries forever on some paths (e.g. under
 * /proc, where mkdir answers ENOENT for an existing parent). Finds the nearest existing ancestor (it must be a
 * folder), then creates each missing level. Throws the first error with a message naming the path and the
 * reason: `"<path>: <parent> is a file, not a folder"`, or the system error code (ENOENT, EACCES, EROFS, …).
 */
export async function makeFolder(path: string): Promise<void> {
  const target = resolve(path);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      const info = await stat(current);
      if (!info.isDirectory()) throw new Error(`${path}: ${current} is a file, not a folder`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new Error(`${path}: cannot create ${level} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
}
