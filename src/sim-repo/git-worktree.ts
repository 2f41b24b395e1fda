// Owns the working tree against HEAD: git diff, git status and restoring a file to HEAD.
import { fileDiff } from './git-history.js';
import { displayPath, isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import { workingFile, type RepoState } from './state.js';

/** Paths whose working-tree content differs from HEAD, sorted; `untracked` ones are absent from HEAD. */
export interface WorktreeChanges {
  modified: string[];
  untracked: string[];
}

/** The working-tree changes against HEAD. */
export function worktreeChanges(state: RepoState): WorktreeChanges {
  const modified: string[] = [];
  const untracked: string[] = [];
  for (const [path, content] of state.written) {
    const committed = state.head.get(path);
    if (committed === undefined) untracked.push(path);
    else if (committed !== content) modified.push(path);
  }
  return { modified: modified.sort(), untracked: untracked.sort() };
}

/**
 * Unified diff (git style, via jsdiff) of the working tree against HEAD for every changed file under
 * `path` (default: all). New files are shown as added. `output` is '' and `files` empty when nothing changed.
 * Errors: path_escape, not_found (the path exists neither in HEAD nor in the working tree).
 */
export function gitDiff(state: RepoState, path?: string): RepoResult<{ files: string[]; output: string }> {
  let scope = '';
  if (path !== undefined) {
    const resolved = resolveRepoPath(path);
    if (!resolved.ok) return resolved;
    scope = resolved.path;
    // HEAD is the base's file map: its index answers in O(log files); the overlay is scanned.
    const inHead = state.head.has(scope) || state.base.index.isDirectory(scope);
    if (!inHead && ![...state.written.keys()].some((file) => isWithin(file, scope))) {
      return repoError('not_found', `fatal: ambiguous argument '${path}': unknown revision or path not in the working tree.`);
    }
  }
  const changes = worktreeChanges(state);
  const files = [...changes.modified, ...changes.untracked].filter((file) => isWithin(file, scope)).sort();
  const output = files.map((file) => fileDiff(file, state.head.get(file) ?? null, workingFile(state, file) ?? null)).join('\n');
  return { ok: true, files, output };
}

/** `git status` text for the current branch: modified and untracked files, or "working tree clean". */
export function gitStatus(state: RepoState): { output: string } & WorktreeChanges {
  const changes = worktreeChanges(state);
  const branch = state.spec.branch;
  const lines = [`On branch ${branch}`, `Your branch is up to date with '${state.spec.remote}/${branch}'.`, ''];
  if (changes.modified.length === 0 && changes.untracked.length === 0) {
    lines.push('nothing to commit, working tree clean');
    return { output: lines.join('\n'), ...changes };
  }
  if (changes.modified.length > 0) {
    lines.push('Changes not staged for commit:', '  (use "git add <file>..." to update what will be committed)');
    lines.push(...changes.modified.map((file) => `\tmodified:   ${file}`), '');
  }
  if (changes.untracked.length > 0) {
    lines.push('Untracked files:', '  (use "git add <file>..." to include in what will be committed)');
    lines.push(...changes.untracked.map((file) => `\t${file}`), '');
  }
  lines.push('no changes added to commit (use "git add" and/or "git commit -a")');
  return { output: lines.join('\n'), ...changes };
}

/**
 * Discards working-tree changes to a tracked file (`git restore <path>` / `git checkout -- <path>`).
 * Errors: path_escape, not_found (the path is not in HEAD).
 */
export function restoreFile(state: RepoState, path: string): RepoResult<{ path: string }> {
  const resolved = resolveRepoPath(path);
  if (!resolved.ok) return resolved;
  if (!state.head.has(resolved.path)) {
    return repoError('not_found', `error: pathspec '${displayPath(resolved.path)}' did not match any file(s) known to git`);
  }
  state.written.delete(resolved.path);
  return { ok: true, path: resolved.path };
}
