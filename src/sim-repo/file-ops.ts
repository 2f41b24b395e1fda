// Owns the working-tree file operations: read, list, search, edit and write (no clock, no change log).
import { replaceText } from './edit-text.js';
import { displayPath, isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import { workingFile, workingPaths, type RepoState } from './state.js';

/** One search hit: repo-relative path, 1-based line number, the line's text (without its line ending). */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

/** True when repo-relative `path` is the root or a directory implied by some working-tree file. */
export function isDirectory(state: RepoState, path: string): boolean {
  if (path === '') return true;
  const prefix = path + '/';
  return workingPaths(state).some((file) => file.startsWith(prefix));
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
  const entries = new Set<string>();
  for (const file of workingPaths(state)) {
    if (!file.startsWith(prefix)) continue;
    const slash = file.indexOf('/', prefix.length);
    entries.add(slash === -1 ? file : file.slice(0, slash + 1));
  }
  return { ok: true, path, entries: [...entries].sort() };
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
  const matches: SearchMatch[] = [];
  for (const path of workingPaths(state)) {
    if (!isWithin(path, scope)) continue;
    const content = workingFile(state, path)!;
    if (!content.includes(text)) continue;
    content.split('\n').forEach((line, index) => {
      if (line.includes(text)) matches.push({ path, line: index + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line });
    });
  }
  return { ok: true, matches };
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
