// The code cache: the results of the repositories' code runs kept on disk between processes (decision 0049).
import { join } from 'node:path';
import { DEFAULT_CACHE_DIR } from '../models/response-cache.js';
import { RunStore, useRunStore, type RunStoreStats } from '../sim-repo/index.js';
import { harnessDigest, type HarnessIdentity } from './harness-identity.js';

/**
 * Where `run` and `validate` keep the code cache unless `--code-cache-dir` says otherwise: beside the validation
 * cache, in the working folder's `.stratbench-cache/` (git-ignored).
 */
export const DEFAULT_CODE_CACHE_DIR = join(DEFAULT_CACHE_DIR, 'code-runs');

/** What run.json records as `timing.code_cache`: the folder (null: `--no-code-cache`) and what it served and kept. */
export type CodeCacheRecord = { dir: string | null } & RunStoreStats;

/**
 * Makes the code cache in `dir` (null or no harness: none, `--no-code-cache`) the one this process's test, `eslint` and `node`
 * runs are served from and written to, in the folder of `harness` (its digest: a rebuilt harness starts empty).
 * Never throws; what cannot be read serves nothing and a folder that cannot be written costs `warn` one line.
 * @returns the store, or undefined for null
 */
export function openCodeCache(
  dir: string | null,
  harness: HarnessIdentity | undefined,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): RunStore | undefined {
  const store = dir === null || harness === undefined ? undefined : new RunStore(dir, harnessDigest(harness), warn);
  useRunStore(store);
  return store;
}

/** run.json's `timing.code_cache` for `store` (undefined: the cache was off). */
export function codeCacheRecord(store: RunStore | undefined): CodeCacheRecord {
  return store === undefined ? { dir: null, served: 0, stored: 0, skipped: 0 } : { dir: store.root, ...store.stats };
}
