// Owns the process-wide caches of sandboxed runs, keyed by the exact content of every file a run read.
import { activeRunStore, type StoredForm } from './run-store.js';

/** One cached run: the paths it read with the content it saw (undefined = absent), its result, and its estimated size. */
interface Entry<T> {
  reads: ReadonlyArray<readonly [string, string | undefined]>;
  result: T;
  bytes: number;
}

/** Hit and miss counts since the process started (for `npm run bench`); `entries`/`bytes`: what is held now. */
export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** Estimated bytes held (see RunCache), never above the cache's `maxBytes`. */
  bytes: number;
}

/** Bounds of a RunCache. */
export interface RunCacheLimits<T> {
  /** Runs kept at most; default 4,000. */
  maxEntries?: number;
  /** Runs kept per key (the most recent first); default 16. */
  perKey?: number;
  /** Estimated bytes kept at most; default 16 MiB. */
  maxBytes?: number;
  /** Estimated bytes of a result (default 0); runs larger than `maxBytes` are not kept. */
  sizeOf?: (result: T) => number;
  /**
   * The cache's name in the run store (run-store.ts) and how its results become JSON: given, a miss consults the
   * store in use and every run `set` keeps is written to it. Only for a cache whose keys name content, never a
   * process's own numbers (an id of a spec or a base object).
   */
  stored?: { name: string } & StoredForm<T>;
}

/** A read: a path and the content the run saw there (undefined: absent). */
type Read = readonly [string, string | undefined];

/**
 * The reads every cache keeps of a path: the path once, and one tuple per content the process holds anyway (a fixture's
 * file) or absent. Runs of one task read the same files, so without it each entry held its own tuple and its own copy
 * of the path (a worker's answer arrives as copies; a hidden run's paths are built with a prefix): 46,574 tuples and
 * 11,136 path strings for a few hundred distinct reads, ~5 MB of the main thread's heap in a cold tasks/bench.json run
 * (its heap snapshot). Bounded by SHARED_PATHS paths and SHARED_READS_BYTES estimated bytes (two per character of each
 * path and content it keeps): what it keeps is otherwise held only while a fixture lives, and paths come from the
 * code a run executes (a fresh review pinned 38 MB with long absent paths before the byte bound). Past either bound it
 * starts again; entries keep the tuples they have.
 */
const sharedReads = new Map<string, { path: string; reads: Read[] }>();
const SHARED_PATHS = 16_384;
const SHARED_READS_BYTES = 8 * 1024 * 1024;
/** A path or content longer than this (characters) is not shared: the entry keeps its own. */
const SHARED_READ_MAX_CHARS = 64 * 1024;
let sharedReadsBytes = 0;
/** Contents kept a path (the most recent first): the fixture's and absent, and a few tasks' variants of held files. */
const SHARED_READS_PER_PATH = 8;

/** What the shared reads hold now (tests): paths and estimated bytes. */
export function sharedReadStats(): { paths: number; bytes: number } {
  return { paths: sharedReads.size, bytes: sharedReadsBytes };
}

/** Forgets every shared read (clearTestRunCaches). */
export function clearSharedReads(): void {
  sharedReads.clear();
  sharedReadsBytes = 0;
}

function readBytes(content: string | undefined): number {
  return READ_OVERHEAD_BYTES + 2 * (content?.length ?? 0);
}

function sharedPathEntry(path: string): { path: string; reads: Read[] } | undefined {
  let entry = sharedReads.get(path);
  if (entry === undefined) {
    if (path.length > SHARED_READ_MAX_CHARS) return undefined;
    const bytes = READ_OVERHEAD_BYTES + 2 * path.length;
    if (sharedReads.size >= SHARED_PATHS || sharedReadsBytes + bytes > SHARED_READS_BYTES) clearSharedReads();
    entry = { path, reads: [] };
    sharedReads.set(path, entry);
    sharedReadsBytes += bytes;
  }
  return entry;
}

/** The path as already kept (one string per path), for a read whose content is the entry's own. */
function sharedPath(path: string): string {
  return sharedPathEntry(path)?.path ?? path;
}

/** One frozen tuple per path and held (or absent) content, shared by every entry that read it. */
function sharedRead(path: string, content: string | undefined): Read {
  const entry = sharedPathEntry(path);
  if (entry === undefined) return [path, content];
  for (const read of entry.reads) if (read[1] === content) return read;
  if (content !== undefined && content.length > SHARED_READ_MAX_CHARS) return [entry.path, content];
  if (sharedReadsBytes + readBytes(content) > SHARED_READS_BYTES) return [entry.path, content];
  const read: Read = Object.freeze([entry.path, content] as const);
  if (entry.reads.length >= SHARED_READS_PER_PATH) sharedReadsBytes -= readBytes(entry.reads.pop()![1]);
  entry.reads.unshift(read);
  sharedReadsBytes += readBytes(content);
  return read;
}

/** Bytes counted per entry and per read besides their strings (array, tuple and map slots; an estimate). */
const ENTRY_OVERHEAD_BYTES = 200;
const READ_OVERHEAD_BYTES = 40;

/**
 * A cache of deterministic runs. A run's result depends only on its key (command, file, filters, env) and the
 * content of the files it read, so a later run with the same key whose files still read the same is a hit:
 * repeated repository states cost nothing. Bounded process-wide, least recently used dropped first, by `maxEntries`
 * runs and by `maxBytes` estimated bytes: two per character of each path and of each read content the process does not
 * hold anyway (`set`'s `held`: a fixture's file costs nothing, an episode's written variant does), plus the result's
 * `sizeOf` and fixed overheads. So a run over many distinct tasks holds at most `maxBytes`, not a share per task.
 */
export class RunCache<T> {
  private readonly byKey = new Map<string, Array<Entry<T>>>();
  private size = 0;
  private readonly maxEntries: number;
  private readonly perKey: number;
  readonly maxBytes: number;
  private readonly sizeOf: (result: T) => number;
  private readonly stored: ({ name: string } & StoredForm<T>) | undefined;
  readonly stats: CacheStats = { hits: 0, misses: 0, entries: 0, bytes: 0 };

  constructor(limits: RunCacheLimits<T> = {}) {
    this.maxEntries = limits.maxEntries ?? 4_000;
    this.perKey = limits.perKey ?? 16;
    this.maxBytes = limits.maxBytes ?? 16 * 1024 * 1024;
    this.sizeOf = limits.sizeOf ?? (() => 0);
    this.stored = limits.stored;
  }

  /** The cached result for `key` whose reads all match `files` now, else undefined; `held` as `set`'s. */
  get(key: string, files: (path: string) => string | undefined, held?: (path: string) => string | undefined): T | undefined {
    return this.lookup(key, files, held)?.result;
  }

  /**
   * As `get`, with the reads the result was computed from (the strings the cache holds: see `set`). A miss here is
   * looked up in the run store in use (when the cache is `stored`): a stored run whose reads all read the same is
   * kept in this cache (with `held`, as `set` keeps a computed one) and returned.
   */
  lookup(
    key: string,
    files: (path: string) => string | undefined,
    held?: (path: string) => string | undefined,
  ): { result: T; reads: Entry<T>['reads'] } | undefined {
    const entries = this.byKey.get(key);
    if (entries !== undefined) {
      for (const entry of entries) {
        if (entry.reads.every(([path, content]) => files(path) === content)) {
          this.stats.hits++;
          // Most recently used last.
          this.byKey.delete(key);
          this.byKey.set(key, entries);
          return entry;
        }
      }
    }
    this.stats.misses++;
    const store = this.stored === undefined ? undefined : activeRunStore();
    if (store === undefined || this.stored === undefined) return undefined;
    const found = store.get(this.stored.name, key, files, this.stored);
    if (found === undefined) return undefined;
    const reads = found.paths.map((path): readonly [string, string | undefined] => [path, files(path)]);
    return { result: found.result, reads: this.set(key, reads, found.result, held, false) };
  }

  /**
   * Keeps `result` for `key` with the `reads` it was computed from. `held(path)`: the content the process holds for
   * `path` regardless of this cache (the fixture's file); a read equal to it is stored as that very string and costs
   * only its path (reads answered by a code worker arrive as copies).
   * A `stored` cache writes the run to the run store in use too, unless `store` is false (a run served from it, or
   * one the harness killed at its hard cutoff: the wall clock decided it, not the code).
   * @returns the reads as kept (held strings in place of the worker's copies): a caller that keeps the reads beside
   * the result should keep these, or the copies stay alive uncounted.
   */
  set(key: string, reads: Entry<T>['reads'], result: T, held?: (path: string) => string | undefined, store = true): Entry<T>['reads'] {
    if (store && this.stored !== undefined) activeRunStore()?.put(this.stored.name, key, reads, result, this.stored);
    let bytes = ENTRY_OVERHEAD_BYTES + this.sizeOf(result);
    const kept = reads.map(([path, content]): Read => {
      bytes += READ_OVERHEAD_BYTES + 2 * path.length;
      if (content === undefined) return sharedRead(path, undefined);
      const shared = held?.(path);
      if (shared === content) return sharedRead(path, shared);
      bytes += 2 * content.length;
      return [sharedPath(path), content];
    });
    if (bytes > this.maxBytes || this.maxEntries === 0) return kept;
    let entries = this.byKey.get(key);
    if (entries === undefined) entries = [];
    else this.byKey.delete(key);
    this.byKey.set(key, entries);
    entries.unshift({ reads: kept, result, bytes });
    this.size++;
    this.stats.bytes += bytes;
    if (entries.length > this.perKey) this.drop(entries.pop()!);
    while (this.size > this.maxEntries || this.stats.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.byKey.entries().next().value as [string, Array<Entry<T>>];
      this.drop(oldest.pop()!);
      if (oldest.length === 0) this.byKey.delete(oldestKey);
    }
    this.stats.entries = this.size;
    return kept;
  }

  clear(): void {
    this.byKey.clear();
    this.size = 0;
    this.stats.entries = 0;
    this.stats.bytes = 0;
  }

  private drop(entry: Entry<T>): void {
    this.size--;
    this.stats.bytes -= entry.bytes;
  }
}

/** Two bytes per character of `value`'s JSON (an estimate of a plain result's heap size). */
export function jsonBytes(value: unknown): number {
  return 2 * (JSON.stringify(value)?.length ?? 0);
}
