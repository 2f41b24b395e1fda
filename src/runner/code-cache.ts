// The code cache: the results of the repositories' code runs kept on disk between processes (decision 0049).
import { join } from 'node:path';
import { DEFAULT_CACHE_DIR } from '../models/response-cache.js';
import { RunStore, useRunStore, type RunStoreStats } from '../sim-repo/index.js';
import { harnessDigest, type HarnessIdentity } from './harness-identity.js';
import { makeFolder } from '../files/make-folder.js';

/**
 * Where `run` and `validate` keep the code cache unless `--code-cache-dir` says otherwise: beside the validation
 * cache, in the working folder's `.stratbench-cache/` (git-ignored).
 */
export const DEFAULT_CODE_CACHE_DIR = join(DEFAULT_CACHE_DIR, 'code-runs');

/** What run.json records as `timing.code_cache`: the folder (null: `--no-code-cache`) and what it served and kept. */
export type CodeCacheRecord = { dir: string | null } & RunStoreStats;

/**
 * Makes the code cache in `dir` (null or no harness: none, `--no-code-cache`) the one this process's test, `eslint`
 * and `node` runs are served from and written to, in the folder of `harness` (its digest: a rebuilt harness starts
 * empty). `dir` is made one level at a time (makeFolder: Node's recursive mkdir spins on some paths, e.g. under
 * /proc). Never throws: a folder that cannot be made costs `warn` one line and the run has no code cache; what cannot
 * be read serves nothing.
 * @returns the store, or undefined when there is none
 */
export async function openCodeCache(
  dir: string | null,
  harness: HarnessIdentity | undefined,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<RunStore | undefined> {
  useRunStore(undefined);
  if (dir === null || harness === undefined) return undefined;
  try {
    await makeFolder(dir);
  } catch (error) {
    warn(`warning: cannot use the code cache ${dir} (${(error as Error).message}): this run's code runs are neither served from nor kept in it`);
    return undefined;
  }
  const store = new RunStore(dir, harnessDigest(harness), warn);
  useRunStore(store);
  return store;
}

/** Stops using the code cache openCodeCache made current (a later run in the process, tests or the API, opens its own). */
export function closeCodeCache(): void {
  useRunStore(undefined);
}

/** run.json's `timing.code_cache` for `store` (undefined: the cache was off). */
export function codeCacheRecord(store: RunStore | undefined): CodeCacheRecord {
  return store === undefined ? { dir: null, served: 0, stored: 0, skipped: 0 } : { dir: store.root, ...store.stats };
}
