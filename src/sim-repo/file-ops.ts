// Owns the working-tree file operations: read, list, search, edit and write (no clock, no change log).
import { replaceText } from './edit-text.js';
import { displayPath, isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import { workingFile, type RepoState } from './state.js';
import { TRIGRAM_MIN_FILES } from './tree-index.js';

/** One search hit: repo-relative path, 1-based line number, the line's text (without its line ending). */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

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
 * Errors: empty_query, path_escape, not_found.
 */
export function searchFiles(state: RepoState, text: string, input = '.'): RepoResult<{ matches: SearchMatch[] }> {
  if (text === '') return repoError('empty_query', 'search text is empty; give the literal text to look for');
  const resolved = resolveRepoPath(input);
  if (!resolved.ok) return resolved;
  const scope = resolved.path;
  if (workingFile(state, scope) === undefined && !isDirectory(state, scope)) {
    return repoError('not_found', `${displayPath(scope)}: no such file or directory`);
  }
  const hits = pathsContaining(state, text, scope).paths;
  const matches: SearchMatch[] = [];
  for (const path of hits) {
    workingFile(state, path)!
      .split('\n')
      .forEach((line, number) => {
        if (line.includes(text)) matches.push({ path, line: number + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line });
      });
  }
  return { ok: true, matches };
}

/**
 * The working-tree files at or under repo-relative `scope` (`''` = everything; a file or a directory) whose content
 * contains `text`, sorted, and how many files are at or under `scope`. Base files come from the base's trigram
 * postings (texts of 3+ characters in big bases) or a scan of the scope's range of sorted paths; written files are
 * checked as they are now. Cost: O(log files + candidates + files written), not O(files) for a specific text.
 */
export function pathsContaining(state: RepoState, text: string, scope: string): { paths: string[]; filesInScope: number } {
  const hits: string[] = [];
  const { index } = state.base;
  const { exact, start, end } = index.range(scope);
  const containsText = (path: string) => !state.written.has(path) && index.pathHolds(path, text);
  if (exact !== -1 && containsText(index.paths[exact]!)) hits.push(index.paths[exact]!);
  // A small scope is scanned: cheaper than the postings (and than building them on a base's first search).
  const candidates = end - start >= TRIGRAM_MIN_FILES ? index.candidates(text) : undefined;
  if (candidates === undefined) {
    for (let i = start; i < end; i++) if (containsText(index.paths[i]!)) hits.push(index.paths[i]!);
  } else {
    // Postings are ascending path indices: the scope is one range of them.
    for (let k = lowerBoundNumber(candidates, start); k < candidates.length && candidates[k]! < end; k++) {
      if (containsText(index.paths[candidates[k]!]!)) hits.push(index.paths[candidates[k]!]!);
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
