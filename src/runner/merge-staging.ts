// A merge's staging folder beside OUT: removing those killed merges left, and moving a finished one into OUT.
import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkFolderNotInUse, LOCK_FILE, RUN_FILE } from '../results-folder/index.js';

/** How old a staging folder without a lock must be before a later merge treats it as a killed one's, ms. */
const UNLOCKED_STAGING_MS = 60_000;

/**
 * Removes the staging folders (`.OUT.merging-XXXXXX` beside OUT) that merges killed by SIGKILL or a power cut left:
 * those whose DIR/.lock names a dead process (checkFolderNotInUse: this host's pid and start, another host's lease),
 * and those without a lock older than UNLOCKED_STAGING_MS (a merge killed between creating the folder and locking
 * it). A live merge's staging is left alone. Returns the paths removed.
 */
export async function removeDeadStaging(out: string): Promise<string[]> {
  const parent = dirname(resolve(out));
  const prefix = `.${basename(resolve(out))}.merging-`;
  const names = (await readdir(parent).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  const removed: string[] = [];
  for (const name of names) {
    const path = join(parent, name);
    let dead: boolean;
    if (existsSync(join(path, LOCK_FILE))) {
      dead = await checkFolderNotInUse(path, 'merge').then(
        () => true,
        () => false,
      );
    } else {
      const since = await stat(path).then(
        (found) => found.mtimeMs,
        () => undefined,
      );
      dead = since !== undefined && Date.now() - since > UNLOCKED_STAGING_MS;
    }
    if (!dead) continue;
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
    removed.push(path);
  }
  return removed;
}

export const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/**
 * Puts the files of `staging` in `out`: renames the folder over `out` when `out` was created for this merge (empty),
 * else moves the files one by one, run.json last (a kill mid-way leaves no run.json describing a half-moved run),
 * and removes `staging`.
 */
export async function moveInto(staging: string, out: string, outExisted: boolean): Promise<void> {
  if (!outExisted || (await readdir(out)).length === 0) {
    await rename(staging, out);
    return;
  }
  const names = (await readdir(staging)).sort((a, b) => Number(a === RUN_FILE) - Number(b === RUN_FILE));
  for (const name of names) await rename(join(staging, name), join(out, name));
  await rm(staging, { recursive: true, force: true });
}
