// Owns the process-wide cache of sandboxed runs, keyed by the exact content of every file a run read.

/** One cached run: the paths it read with the content it saw (undefined = absent), and its result. */
interface Entry<T> {
  reads: ReadonlyArray<readonly [string, string | undefined]>;
  result: T;
}

/** Hit and miss counts since the process started (for `npm run bench`). */
export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
}

/**
 * A cache of deterministic runs. A run's result depends only on its key (command, file, filters, env) and the
 * content of the files it read, so a later run with the same key whose files still read the same is a hit:
 * repeated repository states cost nothing. Bounded: at most `maxEntries` runs are kept (oldest dropped first).
 */
export class RunCache<T> {
  private readonly byKey = new Map<string, Array<Entry<T>>>();
  private size = 0;
  readonly stats: CacheStats = { hits: 0, misses: 0, entries: 0 };

  constructor(
    private readonly maxEntries = 4_000,
    private readonly perKey = 16,
  ) {}

  /** The cached result for `key` whose reads all match `files` now, else undefined. */
  get(key: string, files: (path: string) => string | undefined): T | undefined {
    const entries = this.byKey.get(key);
    if (entries !== undefined) {
      for (const entry of entries) {
        if (entry.reads.every(([path, content]) => files(path) === content)) {
          this.stats.hits++;
          return entry.result;
        }
      }
    }
    this.stats.misses++;
    return undefined;
  }

  set(key: string, reads: Entry<T>['reads'], result: T): void {
    let entries = this.byKey.get(key);
    if (entries === undefined) this.byKey.set(key, (entries = []));
    entries.unshift({ reads, result });
    this.size++;
    if (entries.length > this.perKey) {
      entries.pop();
      this.size--;
    }
    while (this.size > this.maxEntries) {
      const oldest = this.byKey.keys().next().value as string;
      this.size -= this.byKey.get(oldest)!.length;
      this.byKey.delete(oldest);
    }
    this.stats.entries = this.size;
  }

  clear(): void {
    this.byKey.clear();
    this.size = 0;
    this.stats.entries = 0;
  }
}
