// Owns the run store: the results of sandboxed runs kept on disk between processes, by content (decision 0049).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/** Bumped when a file's shape or the meaning of an entry changes; files of another format are ignored and rewritten. */
const STORE_FORMAT = 1;
/** Lists of paths kept per key (the files its runs read: a test file and its imports), newest first. */
const PATH_LISTS_PER_KEY = 64;
/** A result whose JSON is longer than this (characters) is not stored: the disk is for the many small runs. */
const MAX_RESULT_CHARS = 256 * 1024;
/** Files one harness's folder holds at most (~2 KB each on tasks/bench.json); past it new runs are not stored. */
const MAX_FILES = 50_000;
/** Bytes one harness's folder holds at most; past it new runs are not stored (a warning line says so). */
const MAX_BYTES = 256 * 1024 * 1024;
/** Other harnesses' folders kept beside the current one (older builds, most recently written first); the rest are removed. */
const OTHER_HARNESSES_KEPT = 2;
const HARNESS_FOLDER = /^harness-[0-9a-f]{64}$/;
const STORE_FILE = /^[0-9a-f]{40}\.json$/;

/** How a cache of RunCache turns its results into JSON values and back (default: as they are). */
export interface StoredForm<T> {
  encode(result: T): unknown;
  decode(value: unknown): T;
}

/** What a store served and wrote since it was opened (run.json `timing.code_cache`). */
export interface RunStoreStats {
  /** Runs served from the disk (their result was not in the process's caches). */
  served: number;
  /** Runs written to the disk. */
  stored: number;
  /** Results not written: they do not come back equal from JSON, are too large, or the folder is full. */
  skipped: number;
}

/** A key's index: the lists of paths its stored runs read, newest first. */
interface IndexFile {
  format: number;
  cache: string;
  key: string;
  paths: string[][];
}

/** One stored run: what it read (path → 32 hex digits of the content's sha256, null = absent) and its encoded result. */
interface RunFile {
  format: number;
  cache: string;
  key: string;
  reads: Array<[string, string | null]>;
  result: unknown;
}

/** 32 hex digits of the sha256 of a read file's content (128 bits: no two contents of one store meet by chance). */
function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}

/** 40 hex digits of the sha256 of `parts` joined by NUL: a store file's name. */
function fileName(...parts: string[]): string {
  return `${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 40)}.json`;
}

/**
 * The results of deterministic sandboxed runs (test files, `eslint`, `node`) on disk, one folder per harness: a run
 * is served again, by a later process, when its cache, key and the content of every file it read are the same. The
 * in-process caches (RunCache) consult it on a miss and write every run they compute into it, so a suite run twice
 * runs its code once (the second run's references are served by the validation cache, its episodes' test runs by
 * this store).
 *
 * Two kinds of file, each named by 40 hex digits of a sha256: a key's index (of cache and key) lists the paths its
 * runs read, at most PATH_LISTS_PER_KEY lists newest first; a run's file (of cache, key and every read with its
 * content's hash) holds its result. A lookup reads the index, hashes the listed files as they are now and opens the
 * run's file of that name: O(lists × files read), whatever the number of states stored. Each file is a first line
 * holding the sha256 of the rest, then the JSON; written to a temporary name and renamed, so a reader never sees half
 * a file, and two processes writing one index keep the last writer's (the other's runs are computed once more later).
 * Never throws: a file that cannot be read, is torn, edited or of another format serves nothing; a folder that cannot
 * be written costs one warning line and stops the writes. Bounded: MAX_FILES files and MAX_BYTES bytes per harness;
 * older harnesses' folders beyond the OTHER_HARNESSES_KEPT most recent are removed when the first run is written.
 */
export class RunStore {
  readonly stats: RunStoreStats = { served: 0, stored: 0, skipped: 0 };
  private writable = true;
  private fullWarned = false;
  private holds: boolean | undefined;
  private usage: { files: number; bytes: number } | undefined;
  private readonly maxFiles: number;
  private readonly maxBytes: number;

  /**
   * @param root the store's folder (`--code-cache-dir`, default `.stratbench-cache/code-runs`)
   * @param harness the running harness's digest (64 hex digits, runner/harness-identity.ts): its folder's name
   * @param warn where the one-line warnings go
   * @param limits the folder's bounds (default MAX_FILES files, MAX_BYTES bytes; tests make them small)
   */
  constructor(
    readonly root: string,
    readonly harness: string,
    private readonly warn: (line: string) => void,
    limits: { maxFiles?: number; maxBytes?: number } = {},
  ) {
    this.maxFiles = limits.maxFiles ?? MAX_FILES;
    this.maxBytes = limits.maxBytes ?? MAX_BYTES;
  }

  /** Whether this harness's folder holds a stored run (read once: a run that finds none prewarms a code worker). */
  holdsRuns(): boolean {
    if (this.holds === undefined) {
      try {
        this.holds = readdirSync(this.dir).some((name) => STORE_FILE.test(name));
      } catch {
        this.holds = false;
      }
    }
    return this.holds;
  }

  /** This harness's folder. */
  get dir(): string {
    return join(this.root, `harness-${this.harness}`);
  }

  /** The checked JSON of a store file, or undefined (absent, unreadable, torn or edited). */
  private read(name: string): unknown {
    let text: string;
    try {
      text = readFileSync(join(this.dir, name), 'utf8');
    } catch {
      return undefined;
    }
    if (text.indexOf('\n') !== 64 || createHash('sha256').update(text.slice(65)).digest('hex') !== text.slice(0, 64)) return undefined;
    try {
      return JSON.parse(text.slice(65));
    } catch {
      return undefined;
    }
  }

  private readIndex(cache: string, key: string): IndexFile | undefined {
    const index = this.read(fileName(cache, key)) as IndexFile | undefined;
    return index?.format === STORE_FORMAT && index.cache === cache && index.key === key && Array.isArray(index.paths) ? index : undefined;
  }

  /** Writes `value` as the store file `name` (checksum line, temporary name, rename); returns its bytes. */
  private write(name: string, value: unknown): number {
    const body = JSON.stringify(value);
    const text = `${createHash('sha256').update(body).digest('hex')}\n${body}`;
    const path = join(this.dir, name);
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, text);
    try {
      renameSync(temporary, path);
    } catch (error) {
      try {
        unlinkSync(temporary);
      } catch {}
      throw error;
    }
    return Buffer.byteLength(text);
  }

  /**
   * The stored result of `cache`'s run `key` whose reads all read the same in `files` now, with the paths it read;
   * undefined when there is none (or its result does not decode).
   */
  get<T>(cache: string, key: string, files: (path: string) => string | undefined, form: StoredForm<T>): { result: T; paths: string[] } | undefined {
    const index = this.readIndex(cache, key);
    if (index === undefined) return undefined;
    const hashes = new Map<string, string | null>();
    const now = (path: string): string | null => {
      let hash = hashes.get(path);
      if (hash === undefined) {
        const content = files(path);
        hash = content === undefined ? null : contentHash(content);
        hashes.set(path, hash);
      }
      return hash;
    };
    for (const paths of index.paths) {
      if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) continue;
      const reads = paths.map((path): [string, string | null] => [path, now(path)]);
      const run = this.read(fileName(cache, key, JSON.stringify(reads))) as RunFile | undefined;
      if (run?.format !== STORE_FORMAT || run.cache !== cache || run.key !== key || !isDeepStrictEqual(run.reads, reads)) continue;
      try {
        const result = form.decode(run.result);
        this.stats.served++;
        return { result, paths };
      } catch {}
    }
    return undefined;
  }

  /**
   * Writes `cache`'s run `key` with the `reads` it was computed from and its `result`, unless the result would not
   * come back from JSON deep-equal (isDeepStrictEqual: an undefined property, a Map left unencoded), is longer than
   * MAX_RESULT_CHARS, or the folder is full. Never throws.
   */
  put<T>(cache: string, key: string, reads: ReadonlyArray<readonly [string, string | undefined]>, result: T, form: StoredForm<T>): void {
    if (!this.writable) return;
    let encoded: unknown;
    try {
      encoded = form.encode(result);
      const json = JSON.stringify(encoded);
      if (json === undefined || json.length > MAX_RESULT_CHARS || !isDeepStrictEqual(form.decode(JSON.parse(json)), result)) {
        this.stats.skipped++;
        return;
      }
    } catch {
      this.stats.skipped++;
      return;
    }
    try {
      const usage = this.measure();
      if (usage.files >= this.maxFiles || usage.bytes >= this.maxBytes) {
        this.stats.skipped++;
        if (!this.fullWarned) {
          this.fullWarned = true;
          this.warn(
            `warning: the code cache ${this.dir} is full (${this.maxFiles} files or ${this.maxBytes / 1024 / 1024} MiB): new runs are not kept; stratbench cache clear empties it`,
          );
        }
        return;
      }
      const hashed = reads.map(([path, content]): [string, string | null] => [path, content === undefined ? null : contentHash(content)]);
      const runName = fileName(cache, key, JSON.stringify(hashed));
      usage.bytes += this.write(runName, { format: STORE_FORMAT, cache, key, reads: hashed, result: encoded } satisfies RunFile);
      usage.files++;
      const paths = hashed.map(([path]) => path);
      const index = this.readIndex(cache, key);
      if (index === undefined) usage.files++;
      if (index === undefined || !index.paths.some((listed) => isDeepStrictEqual(listed, paths))) {
        const lists = [paths, ...(index?.paths ?? [])].slice(0, PATH_LISTS_PER_KEY);
        usage.bytes += this.write(fileName(cache, key), { format: STORE_FORMAT, cache, key, paths: lists } satisfies IndexFile);
      }
      this.stats.stored++;
    } catch (error) {
      this.writable = false;
      this.warn(
        `warning: cannot write the code cache ${this.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): this run's code runs are not kept for the next`,
      );
    }
  }

  /** The folder's files and bytes, counted at the first write (which makes the folder and prunes older harnesses'). */
  private measure(): { files: number; bytes: number } {
    if (this.usage !== undefined) return this.usage;
    // One level, in a root the runner made (openCodeCache): a recursive mkdir spins on some paths (under /proc).
    if (!existsSync(this.dir)) mkdirSync(this.dir);
    this.pruneOtherHarnesses();
    let files = 0;
    let bytes = 0;
    for (const name of readdirSync(this.dir)) {
      if (!STORE_FILE.test(name)) continue;
      files++;
      try {
        bytes += statSync(join(this.dir, name)).size;
      } catch {}
    }
    this.usage = { files, bytes };
    return this.usage;
  }

  /** Removes other harnesses' folders but the OTHER_HARNESSES_KEPT most recently modified (older builds' runs). */
  private pruneOtherHarnesses(): void {
    const others: Array<{ path: string; mtime: number }> = [];
    for (const name of readdirSync(this.root)) {
      if (!HARNESS_FOLDER.test(name) || name === `harness-${this.harness}`) continue;
      try {
        others.push({ path: join(this.root, name), mtime: statSync(join(this.root, name)).mtimeMs });
      } catch {}
    }
    others.sort((a, b) => b.mtime - a.mtime);
    for (const old of others.slice(OTHER_HARNESSES_KEPT)) rmSync(old.path, { recursive: true, force: true });
  }
}

/**
 * Removes every harness folder of the run store in `root` (`stratbench cache clear`); other files are left alone.
 * @returns the folders removed, or null when `root` does not exist. Throws what node:fs throws otherwise.
 */
export function clearRunStore(root: string): number | null {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!HARNESS_FOLDER.test(name)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** The store the process's run caches use (useRunStore), if any. */
let active: RunStore | undefined;

/** Makes `store` the one every RunCache of the process reads and writes (undefined: none, the default). */
export function useRunStore(store: RunStore | undefined): void {
  active = store;
}

/** The store in use, if any. */
export function activeRunStore(): RunStore | undefined {
  return active;
}
