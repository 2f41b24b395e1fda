// Owns the working-tree file operations: read, list, search, edit and write (no clock, no change log).
import { replaceText } from './edit-text.js';
import { displayPath, isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import { workingFile, type RepoState } from './state.js';
import { pushMatchingLines, TRIGRAM_MIN_FILES, type BaseMatches, type SearchMatch } from './tree-index.js';

export type { SearchMatch } from './tree-index.js';

/**
 * True when repo-relative `path` is the root or a directory implied by some working-tree file. O(log files + files
 * added): the base's sorted paths, then the files the episode created.
 */
export function isDirectory(state: RepoState, path: string): boolean {
  if (path === '' || state.base.index.isDirectory(path)) return true;
  const prefix = path + '/';
  for (const file of state.written.keys()) if (file.startsWith(prefix)) return true;
  return false;
}

/** Content of a working-tree file. Errors: path_escape, is_directory, not_found. */
export function readFile(state: RepoState, input: string): RepoResult<{ path: string; content: string }> {
  const resolved = resolveRepoPath(input);
  if (!resolved.ok) return resolved;
  const path = resolved.path;
  const content = workingFile(state, path);
  if (content !== undefined) return { ok: true, path, content };
  if (isDirectory(state, path)) return repoError('is_directory', `${displayPath(path)} is a directory; use list to see its entries`);
  return repoError('not_found', `${displayPath(path)}: no such file`);
}

/**
 * The immediate entries of a directory as sorted repo-relative paths, directories with a trailing `/`.
 * Errors: path_escape, not_a_directory (a file), not_found.
 */
export function listDirectory(state: RepoState, input: string): RepoResult<{ path: string; entries: string[] }> {
  const resolved = resolveRepoPath(input);
  if (!resolved.ok) return resolved;
  const path = resolved.path;
  if (!isDirectory(state, path)) {
    if (workingFile(state, path) !== undefined) return repoError('not_a_directory', `${path} is a file, not a directory; use read to see it`);
    return repoError('not_found', `${displayPath(path)}: no such file or directory`);
  }
  const prefix = path === '' ? '' : path + '/';
  const base = state.base.index.entries(path) ?? [];
  let added: Set<string> | undefined;
  for (const file of state.written.keys()) {
    if (!file.startsWith(prefix) || state.head.has(file)) continue;
    const slash = file.indexOf('/', prefix.length);
    (added ??= new Set(base)).add(slash === -1 ? file : file.slice(0, slash + 1));
  }
  // Linear in the entries returned: the base's are listed once per base; only created files are merged in.
  return { ok: true, path, entries: added === undefined ? [...base] : [...added].sort() };
}

/**
 * Literal (case-sensitive) substring search over working-tree files under `input` (a directory or a
 * file; default the root). Matches are ordered by path, then line. An empty result is `ok` with no matches.
 * Errors: empty_query, path_escape, not_found. The base's lines come from its cache (TreeIndex.linesHolding);
 * only the files the episode wrote are searched as they are now. O(matches + files written) once a text is cached.
 */
export function searchFiles(state: RepoState, text: string, input = '.'): RepoResult<{ matches: SearchMatch[] }> {
  const found = searchScope(state, text, input);
  if (!found.ok) return found;
  if (found.kind === 'merged') return { ok: true, matches: found.matches };
  const { base, ranges } = found;
  return {
    ok: true,
    matches: ranges.length === 1 ? base.matches.slice(ranges[0]!.from, ranges[0]!.to) : ranges.flatMap(({ from, to }) => base.matches.slice(from, to)),
  };
}

/**
 * `searchFiles`' matches printed by `print` (e.g. grep's `path:line:text` lines, or a tool's capped listing), and how
 * many there are. When no file the episode wrote is in the scope, the matches are ranges of the base's cached lines,
 * so the printed text is kept with them under `key` (which must name `print`: the same key, the same printing): the
 * same search on the same base prints nothing again. `print` must be pure; it is not called for a kept text.
 */
export function searchPrinted(
  state: RepoState,
  text: string,
  input: string,
  key: string,
  print: (matches: readonly SearchMatch[]) => string,
): RepoResult<{ output: string; count: number }> {
  const found = searchScope(state, text, input);
  if (!found.ok) return found;
  if (found.kind === 'merged') return { ok: true, output: print(found.matches), count: found.matches.length };
  const { base, ranges } = found;
  let count = 0;
  for (const { from, to } of ranges) count += to - from;
  const cacheKey = `${key}\u0000${ranges.map(({ from, to }) => `${from}-${to}`).join(',')}`;
  let output = base.derived.get(cacheKey);
  if (output === undefined) {
    output = print(ranges.length === 1 ? base.matches.slice(ranges[0]!.from, ranges[0]!.to) : ranges.flatMap(({ from, to }) => base.matches.slice(from, to)));
    base.derived.set(cacheKey, output);
  }
  return { ok: true, output, count };
}

/**
 * A search's matches: ranges of the base's cached lines (`base`: no written file is in the scope), or every match
 * (`merged`: the base's lines of files the episode did not write and the written files' lines, in path order).
 */
type ScopeMatches = { kind: 'base'; base: BaseMatches; ranges: Array<{ from: number; to: number }> } | { kind: 'merged'; matches: SearchMatch[] };

function searchScope(state: RepoState, text: string, input: string): RepoResult<ScopeMatches> {
  if (text === '') return repoError('empty_query', 'search text is empty; give the literal text to look for');
  const resolved = resolveRepoPath(input);
  if (!resolved.ok) return resolved;
  const scope = resolved.path;
  if (workingFile(state, scope) === undefined && !isDirectory(state, scope)) {
    return repoError('not_found', `${displayPath(scope)}: no such file or directory`);
  }
  const { index } = state.base;
  const base = index.linesHolding(text);
  const { exact, start, end } = index.range(scope);
  // The base's files holding the text in scope, as ranges of `base.files`: the scope itself (a file), then its
  // range of sorted paths (every path of that range sorts after the scope's own).
  const spans: Array<[number, number]> = [];
  if (exact !== -1) {
    const k = lowerBoundNumber(base.files, exact);
    if (base.files[k] === exact) spans.push([k, k + 1]);
  }
  spans.push([lowerBoundNumber(base.files, start), lowerBoundNumber(base.files, end)]);
  const written: string[] = [];
  for (const path of state.written.keys()) if (isWithin(path, scope)) written.push(path);
  if (written.length === 0) {
    const ranges = spans.map(([k0, k1]) => ({ from: base.starts[k0]!, to: base.starts[k1]! })).filter(({ from, to }) => to > from);
    return { ok: true, kind: 'base', base, ranges };
  }
  // A written file replaces its base version: the base's other files and the written ones, merged by path.
  const paths: string[] = [];
  const baseLines = new Map<string, [number, number]>();
  for (const [k0, k1] of spans) {
    for (let k = k0; k < k1; k++) {
      const path = index.paths[base.files[k]!]!;
      if (state.written.has(path)) continue;
      paths.push(path);
      baseLines.set(path, [base.starts[k]!, base.starts[k + 1]!]);
    }
  }
  for (const path of written) if (state.written.get(path)!.includes(text)) paths.push(path);
  paths.sort();
  const matches: SearchMatch[] = [];
  for (const path of paths) {
    const lines = baseLines.get(path);
    if (lines === undefined) pushMatchingLines(path, state.written.get(path)!, text, matches);
    else for (let i = lines[0]; i < lines[1]; i++) matches.push(base.matches[i]!);
  }
  return { ok: true, kind: 'merged', matches };
}

/**
 * The working-tree files at or under repo-relative `scope` (`''` = everything; a file or a directory) whose content
 * contains `text`, sorted, and how many files are at or under `scope`. Base files come from the base's answer for the
 * text (TreeIndex.filesHolding, kept per text) or, for a small scope, a scan of its range of sorted paths; written
 * files are checked as they are now. Cost: O(log files + matches + files written) once the text was asked.
 */
export function pathsContaining(state: RepoState, text: string, scope: string): { paths: string[]; filesInScope: number } {
  const hits: string[] = [];
  const { index } = state.base;
  const { exact, start, end } = index.range(scope);
  const containsText = (path: string) => !state.written.has(path) && index.pathHolds(path, text);
  if (exact !== -1 && containsText(index.paths[exact]!)) hits.push(index.paths[exact]!);
  if (end - start < TRIGRAM_MIN_FILES) {
    // A small scope is scanned: cheaper than the whole base's answer (and than its postings).
    for (let i = start; i < end; i++) if (containsText(index.paths[i]!)) hits.push(index.paths[i]!);
  } else {
    // The base's files holding the text, found once per text (filesHolding): ascending path indices, so the scope
    // is one range of them. Checks on the final state ask the same texts in every episode.
    const holding = index.filesHolding(text);
    for (let k = lowerBoundNumber(holding, start); k < holding.length && holding[k]! < end; k++) {
      const path = index.paths[holding[k]!]!;
      if (!state.written.has(path)) hits.push(path);
    }
  }
  // The overlay: files the episode wrote (edited or created) are searched as they are now.
  let overlay = false;
  for (const [path, content] of state.written) {
    if (isWithin(path, scope) && content.includes(text)) {
      hits.push(path);
      overlay = true;
    }
  }
  if (overlay) hits.sort();
  let added = 0;
  for (const path of state.written.keys()) if (!state.head.has(path) && isWithin(path, scope)) added++;
  return { paths: hits, filesInScope: (exact === -1 ? 0 : 1) + (end - start) + added };
}

/** The first index of ascending `values` holding a value ≥ `key`. */
function lowerBoundNumber(values: Int32Array, key: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The outcome of a successful edit. */
export interface EditApplied {
  path: string;
  replacements: number;
  crlfAdapted: boolean;
}

/**
 * Replaces exact text in a working-tree file (see `replaceText` for the uniqueness and CRLF policy).
 * Errors: path_escape, is_directory, not_found, empty_old, old_not_found, ambiguous_match — the file is
 * unchanged byte-for-byte on every error.
 */
export function editFile(state: RepoState, input: string, old: string, replacement: string, replaceAll: boolean): RepoResult<EditApplied> {
  const file = readFile(state, input);
  if (!file.ok) return file;
  const edited = replaceText(file.content, old, replacement, replaceAll, file.path);
  if (!edited.ok) return edited;
  state.written.set(file.path, edited.content);
  return { ok: true, path: file.path, replacements: edited.replacements, crlfAdapted: edited.crlfAdapted };
}

/**
 * Creates or overwrites a working-tree file (parent directories are implied).
 * Errors: path_escape, is_directory (the path is a directory), not_a_directory (a parent is a file).
 */
export function writeFile(state: RepoState, input: string, content: string): RepoResult<{ path: string; created: boolean }> {
  const resolved = resolveRepoPath(input);
  if (!resolved.ok) return resolved;
  const path = resolved.path;
  if (isDirectory(state, path)) return repoError('is_directory', `${displayPath(path)} is a directory; give a file path`);
  const segments = path.split('/');
  for (let depth = 1; depth < segments.length; depth++) {
    const parent = segments.slice(0, depth).join('/');
    if (workingFile(state, parent) !== undefined) return repoError('not_a_directory', `${parent} is a file, so ${path} cannot be created`);
  }
  const created = workingFile(state, path) === undefined;
  state.written.set(path, content);
  return { ok: true, path, created };
}
