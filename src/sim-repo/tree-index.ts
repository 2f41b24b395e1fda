// Owns the per-base index of a frozen fixture: sorted paths, directory entries and a trigram index for search.

/** Bases with fewer files than this are searched by a plain scan (an index would cost more than it saves). */
export const TRIGRAM_MIN_FILES = 256;

/**
 * Scans of a base before its trigram postings are built (by `candidates`): a scan of the 10,000-file bench tree
 * (3.8 MB) takes 0.2–1.4 ms, building its postings ~90–130 ms, so a base searched for a few texts (each text's lines
 * are kept: linesHolding) never pays for them, and one searched for many pays at most about twice the best choice.
 */
export const TRIGRAM_AFTER_SCANS = 64;

/** Texts whose holding files a base keeps (filesHolding): a suite's checks and claims ask a few texts each. */
const FILES_HOLDING_TEXTS = 256;

/**
 * Matched lines a base keeps cached over all its texts (about 100 bytes each plus the line's text, shared with the
 * file): past it the least recently searched texts are dropped. One text's lines are kept even when they alone exceed it.
 */
export const CACHED_MATCH_LINES = 100_000;

/** One search hit: repo-relative path, 1-based line number, the line's text (without its line ending). */
export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/**
 * Every line of a base's files that holds one text, in path then line order (what a search of the whole base prints).
 * `files`: ascending indices into `TreeIndex.paths` of the files whose content contains the text (also those where
 * it only spans lines, with no matched line); the lines of `files[k]` are `matches[starts[k] .. starts[k + 1])`.
 * `derived`: values computed from ranges of `matches` by callers (e.g. grep's printed text), kept as long as this is.
 */
export interface BaseMatches {
  readonly files: Int32Array;
  readonly starts: Int32Array;
  readonly matches: readonly SearchMatch[];
  readonly derived: Map<string, string>;
}

/**
 * Lookup structures over one immutable file map, built once per base (see docs/decisions/0012-copy-on-write-
 * repositories.md): `paths` sorted (UTF-16 order, as `Array.prototype.sort`), so every directory's files are one
 * contiguous range; `directories` maps each directory (`''` = root) to its sorted immediate entries (directories
 * end in `/`); the trigram postings are built on the first search of a big base.
 */
export class TreeIndex {
  readonly paths: readonly string[];
  private directoryEntries: Map<string, readonly string[]> | undefined;
  private trigrams: Postings | undefined;
  /** Scans answered without postings (candidates), until TRIGRAM_AFTER_SCANS builds them. */
  private scans = 0;
  /** filesHolding's answers, by text, least recently used first. */
  private readonly holding = new Map<string, Int32Array>();
  /** pathsMatching's answers, by pattern. */
  private readonly matching = new Map<string, readonly string[]>();
  /** Search results by text, least recently used first, and how many lines they hold together. */
  private readonly searched = new Map<string, BaseMatches>();
  private searchedLines = 0;

  constructor(private readonly files: ReadonlyMap<string, string>) {
    this.paths = [...files.keys()].sort();
  }

  /**
   * The paths `pattern` matches (no `g` or `y` flag: it is tested path by path), sorted; found once per pattern (by
   * its source and flags) and kept: O(files) the first time, O(1) after.
   */
  pathsMatching(pattern: RegExp): readonly string[] {
    const key = `${pattern.flags}/${pattern.source}`;
    let paths = this.matching.get(key);
    if (paths === undefined) {
      paths = this.paths.filter((path) => pattern.test(path));
      if (this.matching.size < 64) this.matching.set(key, paths);
    }
    return paths;
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
   * Ascending indices into `paths` of the files containing `text`, found once per text (through the postings where
   * `candidates` gives them, else a scan) and kept for the last FILES_HOLDING_TEXTS texts: the base never changes.
   */
  filesHolding(text: string): Int32Array {
    const cached = touch(this.holding, text);
    if (cached !== undefined) return cached;
    const candidates = this.candidates(text);
    const found: number[] = [];
    if (candidates === undefined) {
      for (let k = 0; k < this.paths.length; k++) if (this.files.get(this.paths[k]!)!.includes(text)) found.push(k);
    } else {
      for (const k of candidates) if (this.files.get(this.paths[k]!)!.includes(text)) found.push(k);
    }
    const holding = Int32Array.from(found);
    this.holding.set(text, holding);
    if (this.holding.size > FILES_HOLDING_TEXTS) this.holding.delete(this.holding.keys().next().value as string);
    return holding;
  }

  /**
   * The lines of the base holding `text` (non-empty), built on the first search of it (through the trigram postings
   * where `candidates` gives them, else a scan of every file) and kept until CACHED_MATCH_LINES pushes it out: the
   * base never changes, so neither does its answer.
   */
  linesHolding(text: string): BaseMatches {
    const cached = touch(this.searched, text);
    if (cached !== undefined) return cached;
    const built = this.buildMatches(text);
    this.searched.set(text, built);
    this.searchedLines += built.matches.length;
    for (const [oldest, entry] of this.searched) {
      if (this.searchedLines <= CACHED_MATCH_LINES || oldest === text) break;
      this.searched.delete(oldest);
      this.searchedLines -= entry.matches.length;
    }
    return built;
  }

  private buildMatches(text: string): BaseMatches {
    const candidates = this.candidates(text);
    const count = candidates === undefined ? this.paths.length : candidates.length;
    const files: number[] = [];
    const starts: number[] = [];
    const matches: SearchMatch[] = [];
    for (let k = 0; k < count; k++) {
      const index = candidates === undefined ? k : candidates[k]!;
      const path = this.paths[index]!;
      const content = this.files.get(path)!;
      if (!content.includes(text)) continue;
      files.push(index);
      starts.push(matches.length);
      pushMatchingLines(path, content, text, matches);
    }
    starts.push(matches.length);
    return { files: Int32Array.from(files), starts: Int32Array.from(starts), matches, derived: new Map() };
  }

  /**
   * Indices into `paths` (ascending) of the files that may contain `text`: for a text of three or more UTF-16 units
   * in a base of at least TRIGRAM_MIN_FILES files, once it was scanned TRIGRAM_AFTER_SCANS times, the files holding
   * every one of its trigrams (a superset of the matches: callers still check with `includes`); else undefined (the
   * caller scans, and the scan is counted).
   */
  candidates(text: string): Int32Array | undefined {
    if (text.length < 3 || this.paths.length < TRIGRAM_MIN_FILES) return undefined;
    if (this.trigrams === undefined && this.scans < TRIGRAM_AFTER_SCANS) {
      this.scans++;
      return undefined;
    }
    this.trigrams ??= buildTrigrams(this.paths, this.files);
    const { offsets, postings } = this.trigrams;
    const lists: Int32Array[] = [];
    for (const bucket of trigramsOf(text)) lists.push(postings.subarray(offsets[bucket]!, offsets[bucket + 1]!));
    lists.sort((a, b) => a.length - b.length);
    let result = lists[0]!;
    for (const list of lists.slice(1)) {
      if (result.length === 0) break;
      result = intersect(result, list);
    }
    return result;
  }
}

/**
 * Appends to `into` one match per line of `content` that contains `text` (lines split at `\n`; a line's `\r` ending
 * is dropped from the printed text but searched, so a text with a `\n` never matches). O(length of content).
 */
export function pushMatchingLines(path: string, content: string, text: string, into: SearchMatch[]): void {
  if (text.includes('\n')) return;
  let line = 1;
  let lineStart = 0;
  for (let at = content.indexOf(text); at !== -1; ) {
    for (let newline = content.indexOf('\n', lineStart); newline !== -1 && newline < at; newline = content.indexOf('\n', lineStart)) {
      line++;
      lineStart = newline + 1;
    }
    const newline = content.indexOf('\n', at);
    const lineEnd = newline === -1 ? content.length : newline;
    const end = lineEnd > lineStart && content.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    into.push({ path, line, text: content.slice(lineStart, end) });
    if (newline === -1) break;
    line++;
    lineStart = newline + 1;
    at = content.indexOf(text, lineStart);
  }
}

/** `map`'s value for `key`, moved to the end (most recently used last), or undefined. */
function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
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

/** Trigram buckets: 2^18 (a 1 MB offset table per indexed base); trigrams sharing a bucket only add candidates. */
const BUCKET_BITS = 18;
const BUCKET_MASK = (1 << BUCKET_BITS) - 1;

/** The bucket of the trigram at `i` (a multiplicative hash of its three UTF-16 units). */
function bucketAt(text: string, i: number): number {
  return Math.imul(text.charCodeAt(i) * 961 + text.charCodeAt(i + 1) * 31 + text.charCodeAt(i + 2), 0x9e3779b1) >>> (32 - BUCKET_BITS);
}

/** The trigram buckets of `text`, each once. */
function trigramsOf(text: string): Set<number> {
  const buckets = new Set<number>();
  for (let i = 0; i + 2 < text.length; i++) buckets.add(bucketAt(text, i));
  return buckets;
}

/** Postings of every bucket: file indices `postings[offsets[b] .. offsets[b + 1])`, ascending (two passes, no per-bucket arrays). */
interface Postings {
  offsets: Uint32Array;
  postings: Int32Array;
}

function buildTrigrams(paths: readonly string[], files: ReadonlyMap<string, string>): Postings {
  const lastFile = new Int32Array(BUCKET_MASK + 1).fill(-1);
  const offsets = new Uint32Array(BUCKET_MASK + 2);
  const visit = (add: (bucket: number, index: number) => void) => {
    lastFile.fill(-1);
    paths.forEach((path, index) => {
      const content = files.get(path)!;
      for (let i = 0; i + 2 < content.length; i++) {
        const bucket = bucketAt(content, i);
        if (lastFile[bucket] === index) continue;
        lastFile[bucket] = index;
        add(bucket, index);
      }
    });
  };
  visit((bucket) => offsets[bucket + 1]!++);
  for (let b = 1; b < offsets.length; b++) offsets[b]! += offsets[b - 1]!;
  const postings = new Int32Array(offsets[offsets.length - 1]!);
  const next = offsets.slice(0, -1);
  visit((bucket, index) => (postings[next[bucket]!++] = index));
  return { offsets, postings };
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
