// Owns the per-base index of a frozen fixture: sorted paths, directory entries and a trigram index for search.

/** Bases with fewer files than this are searched by a plain scan (an index would cost more than it saves). */
export const TRIGRAM_MIN_FILES = 256;

/**
 * Lookup structures over one immutable file map, built once per base (see docs/decisions/0012-copy-on-write-
 * repositories.md): `paths` sorted (UTF-16 order, as `Array.prototype.sort`), so every directory's files are one
 * contiguous range; `directories` maps each directory (`''` = root) to its sorted immediate entries (directories
 * end in `/`); the trigram postings are built on the first search of a big base.
 */
export class TreeIndex {
  readonly paths: readonly string[];
  private directoryEntries: Map<string, readonly string[]> | undefined;
  private trigrams: Map<number, Int32Array> | undefined;

  constructor(private readonly files: ReadonlyMap<string, string>) {
    this.paths = [...files.keys()].sort();
  }

  /** True when `directory` (repo-relative, `''` = root) holds at least one file. O(log files). */
  isDirectory(directory: string): boolean {
    if (directory === '') return this.paths.length > 0;
    const prefix = directory + '/';
    const first = this.paths[lowerBound(this.paths, prefix)];
    return first?.startsWith(prefix) === true;
  }

  /** The sorted immediate entries of `directory` (directories with a trailing `/`), or undefined when it is none. */
  entries(directory: string): readonly string[] | undefined {
    this.directoryEntries ??= buildDirectoryEntries(this.paths);
    return this.directoryEntries.get(directory);
  }

  /** `[start, end)` indices into `paths` of the files at or under `scope` (`''` = everything). O(log files). */
  range(scope: string): { exact: number; start: number; end: number } {
    if (scope === '') return { exact: -1, start: 0, end: this.paths.length };
    const exact = this.files.has(scope) ? lowerBound(this.paths, scope) : -1;
    const prefix = scope + '/';
    // '/' + 1 = '0': the first string past every `prefix…` one.
    return { exact, start: lowerBound(this.paths, prefix), end: lowerBound(this.paths, scope + '0') };
  }

  /** Whether the base file `path` contains `text`. */
  pathHolds(path: string, text: string): boolean {
    return this.files.get(path)?.includes(text) === true;
  }

  /**
   * Indices into `paths` (ascending) of the files that may contain `text`: for a text of three or more UTF-16 units
   * in a base of at least TRIGRAM_MIN_FILES files, the files holding every one of its trigrams (a superset of the
   * matches: callers still check with `includes`); else undefined (the caller scans).
   */
  candidates(text: string): Int32Array | undefined {
    if (text.length < 3 || this.paths.length < TRIGRAM_MIN_FILES) return undefined;
    this.trigrams ??= buildTrigrams(this.paths, this.files);
    const lists: Int32Array[] = [];
    for (const gram of new Set(trigramsOf(text))) {
      const list = this.trigrams.get(gram);
      if (list === undefined) return new Int32Array(0);
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    let result = lists[0]!;
    for (const list of lists.slice(1)) {
      if (result.length === 0) break;
      result = intersect(result, list);
    }
    return result;
  }
}

/** The first index whose path is ≥ `key` (binary search on the sorted array). */
export function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

function buildDirectoryEntries(paths: readonly string[]): Map<string, readonly string[]> {
  const sets = new Map<string, Set<string>>();
  for (const path of paths) {
    let slash = path.indexOf('/');
    let directory = '';
    for (;;) {
      let entries = sets.get(directory);
      if (entries === undefined) sets.set(directory, (entries = new Set()));
      if (slash === -1) {
        entries.add(path);
        break;
      }
      entries.add(path.slice(0, slash + 1));
      directory = path.slice(0, slash);
      slash = path.indexOf('/', slash + 1);
    }
  }
  const entries = new Map<string, readonly string[]>();
  for (const [directory, set] of sets) entries.set(directory, [...set].sort());
  return entries;
}

/** Each trigram of `text` as one number (three UTF-16 units of 16 bits: exact, below 2^53). */
function* trigramsOf(text: string): Generator<number> {
  for (let i = 0; i + 2 < text.length; i++) yield text.charCodeAt(i) * 0x1_0000_0000 + text.charCodeAt(i + 1) * 0x1_0000 + text.charCodeAt(i + 2);
}

function buildTrigrams(paths: readonly string[], files: ReadonlyMap<string, string>): Map<number, Int32Array> {
  const postings = new Map<number, number[]>();
  const seen = new Set<number>();
  paths.forEach((path, index) => {
    seen.clear();
    const content = files.get(path)!;
    for (let i = 0; i + 2 < content.length; i++) {
      const gram = content.charCodeAt(i) * 0x1_0000_0000 + content.charCodeAt(i + 1) * 0x1_0000 + content.charCodeAt(i + 2);
      if (seen.has(gram)) continue;
      seen.add(gram);
      const list = postings.get(gram);
      if (list === undefined) postings.set(gram, [index]);
      else list.push(index);
    }
  });
  const packed = new Map<number, Int32Array>();
  for (const [gram, list] of postings) packed.set(gram, Int32Array.from(list));
  return packed;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
