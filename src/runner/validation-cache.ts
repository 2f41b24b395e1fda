// The validation cache: which tasks' references passed `run`'s check under this harness, so the next run skips them.
import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFolder } from '../files/make-folder.js';
import { DEFAULT_CACHE_DIR } from '../models/response-cache.js';
import { harnessDigest, type HarnessIdentity } from './harness-identity.js';

/**
 * Where `run` and `validate` keep the validation cache unless `--validation-cache-dir` says otherwise: beside the
 * response cache and the judge's calibration, in the working folder's `.stratbench-cache/` (git-ignored).
 */
export const DEFAULT_VALIDATION_CACHE_DIR = join(DEFAULT_CACHE_DIR, 'validation');

/** Bumped when the file's shape or the meaning of an entry changes; files of another format are ignored and rewritten. */
const CACHE_FORMAT = 1;
const CACHE_FILE = /^harness-[0-9a-f]{64}\.json$/;
const TEMP_FILE = /^harness-[0-9a-f]{64}\.json\.[0-9a-f]+\.tmp$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** The file operations the cache uses; tests pass ones that fail (a read-only disk, as root ignores permissions). */
export interface CacheFiles {
  readFile(path: string): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  makeFolder(path: string): Promise<void>;
}

/** node:fs. */
export const NODE_CACHE_FILES: CacheFiles = {
  readFile: (path) => readFile(path, 'utf8'),
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
  rename,
  unlink,
  makeFolder,
};

/** One cache file: the tasks that passed under one harness, by task digest (suite/task-digest.ts). */
interface CacheFile {
  format: number;
  /** harnessDigest(harness): checked on read, so a renamed or copied file is not trusted. */
  harness_digest: string;
  harness: HarnessIdentity;
  /** task digest → task id (the id for people reading the file; the digest covers it). */
  passed: Record<string, string>;
}

/** What a cache read found: the passed tasks' digests, and a one-line warning when the file was there but unusable. */
export interface CacheRead {
  file: string;
  passed: Map<string, string>;
  warning?: string;
}

/** The cache file of `harness` in `dir`: `harness-<sha256 of the identity>.json`. */
export function validationCacheFile(dir: string, harness: HarnessIdentity): string {
  return join(dir, `harness-${harnessDigest(harness)}.json`);
}

/**
 * Reads the tasks that passed under `harness` from `dir`. Never throws: a missing file is an empty cache; a file that
 * cannot be read, is not JSON, or is not this format and harness (a corrupt or foreign file) is an empty cache plus
 * a one-line `warning` (the tasks are replayed, and the next save rewrites the file whole).
 */
export async function readValidationCache(dir: string, harness: HarnessIdentity, files: CacheFiles = NODE_CACHE_FILES): Promise<CacheRead> {
  const file = validationCacheFile(dir, harness);
  const ignored = (why: string): CacheRead => ({
    file,
    passed: new Map(),
    warning: `warning: ignoring the validation cache ${file} (${why}); every task's reference is replayed and the file rewritten`,
  });
  let text: string;
  try {
    text = await files.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file, passed: new Map() };
    return ignored(`cannot read it: ${code ?? (error as Error).message}`);
  }
  let data: Partial<CacheFile>;
  try {
    data = JSON.parse(text) as Partial<CacheFile>;
  } catch (error) {
    return ignored(`not JSON: ${(error as Error).message}`);
  }
  if (data === null || typeof data !== 'object') return ignored('not a JSON object');
  if (data.format !== CACHE_FORMAT) return ignored(`format ${String(data.format)}, expected ${CACHE_FORMAT}`);
  if (data.harness_digest !== harnessDigest(harness)) return ignored('written for another harness');
  const passed = data.passed;
  if (passed === null || typeof passed !== 'object' || Array.isArray(passed)) return ignored('no "passed" object');
  const entries = Object.entries(passed);
  if (!entries.every(([digest, id]) => DIGEST.test(digest) && typeof id === 'string')) return ignored('an entry is not a task digest and id');
  return { file, passed: new Map(entries) };
}

/**
 * Adds `passed` (task digest → id) to the cache file of `harness` in `dir`, with the entries `known` held when it was
 * read: written to a temporary file and renamed over it, so a reader never sees half a file (two runs saving at once
 * keep the last one's entries; the other's tasks are replayed once more). Never throws: returns a one-line warning
 * when the folder or file cannot be written (a read-only disk does not fail the run), else undefined.
 */
export async function saveValidationCache(
  dir: string,
  harness: HarnessIdentity,
  known: ReadonlyMap<string, string>,
  passed: ReadonlyMap<string, string>,
  files: CacheFiles = NODE_CACHE_FILES,
): Promise<string | undefined> {
  if (passed.size === 0) return undefined;
  const file = validationCacheFile(dir, harness);
  const content: CacheFile = {
    format: CACHE_FORMAT,
    harness_digest: harnessDigest(harness),
    harness,
    passed: Object.fromEntries([...known, ...passed]),
  };
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await files.makeFolder(dir);
    await files.writeFile(temporary, `${JSON.stringify(content, null, 1)}\n`);
    await files.rename(temporary, file);
    return undefined;
  } catch (error) {
    await files.unlink(temporary).catch(() => undefined);
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `warning: cannot write the validation cache ${file} (${why}); the run goes on, and the next one replays the references again`;
  }
}

/**
 * Deletes the validation cache's own files in `dir` (`harness-<sha256>.json` and leftover temporary files); other
 * files and the folder are left alone. Returns the cache files removed, or null when there is no folder.
 * Throws the file system's error when the folder cannot be listed or a file cannot be removed.
 */
export async function clearValidationCache(dir: string): Promise<number | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!CACHE_FILE.test(name) && !TEMP_FILE.test(name)) continue;
    await unlink(join(dir, name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    if (CACHE_FILE.test(name)) removed += 1;
  }
  return removed;
}
