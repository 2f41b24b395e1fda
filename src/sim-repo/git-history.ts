// Owns the fake git history: log (optionally by path), show by sha prefix or HEAD~n, and their git-style text.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import type { Commit } from './spec.js';
import type { RepoState } from './state.js';

/** Options of `gitLog`: `path` keeps commits that change that file (or anything under that directory). */
export interface LogOptions {
  path?: string;
  limit?: number;
}

/** Commits newest first, filtered by path and cut to `limit`. Errors: path_escape. Empty is `ok`. */
export function gitLog(state: RepoState, options: LogOptions = {}): RepoResult<{ commits: Commit[] }> {
  let commits = state.spec.commits;
  if (options.path !== undefined) {
    const resolved = resolveRepoPath(options.path);
    if (!resolved.ok) return resolved;
    const scope = resolved.path;
    commits = commits.filter((commit) => commit.changes.some((change) => isWithin(change.path, scope)));
  }
  if (options.limit !== undefined) commits = commits.slice(0, Math.max(0, options.limit));
  return { ok: true, commits };
}

const HEAD_REVISION = /^HEAD(?:~(\d+)|(\^+))?$/;

/**
 * Finds one commit by sha prefix (at least 4 hex digits), `HEAD`, `HEAD~n` or `HEAD^`.
 * Errors: not_found (git's "unknown revision" message), ambiguous_sha.
 */
export function findCommit(state: RepoState, revision: string): RepoResult<{ commit: Commit }> {
  const commits = state.spec.commits;
  const unknown = repoError(
    'not_found',
    `fatal: ambiguous argument '${revision}': unknown revision or path not in the working tree.`,
  );
  const head = HEAD_REVISION.exec(revision);
  if (head !== null) {
    const back = head[1] !== undefined ? Number(head[1]) : (head[2]?.length ?? 0);
    const commit = commits[back];
    return commit === undefined ? unknown : { ok: true, commit };
  }
  const prefix = revision.toLowerCase();
  if (!/^[0-9a-f]{4,40}$/.test(prefix)) return unknown;
  const found = commits.filter((commit) => commit.sha.startsWith(prefix));
  if (found.length > 1) {
    return repoError('ambiguous_sha', `error: short object ID ${revision} is ambiguous; use more digits (${found.map((c) => c.sha.slice(0, 10)).join(', ')})`);
  }
  return found[0] === undefined ? unknown : { ok: true, commit: found[0] };
}

/** `git log` text: `commit <sha>`, Author, Date, indented message, a blank line between commits. */
export function formatLog(commits: readonly Commit[], oneline = false): string {
  if (oneline) return commits.map((commit) => `${commit.sha.slice(0, 7)} ${firstLine(commit.message)}`).join('\n');
  return commits.map(formatHeader).join('\n\n');
}

/** `git show` text: the header, then a `diff --git` section per change (before/after may be excerpts). */
export function formatShow(commit: Commit): string {
  const diffs = commit.changes.map((change) => fileDiff(change.path, change.before, change.after));
  return stripTrailingNewlines([formatHeader(commit), ...diffs].join('\n\n'));
}

/**
 * A `diff --git` section between two versions of `path` (null = absent), via jsdiff; '' when equal.
 * Used by both `git show` and `git diff`.
 */
export function fileDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { headerOptions: FILE_HEADERS_ONLY },
  );
  const mode = before === null ? 'new file mode 100644\n' : after === null ? 'deleted file mode 100644\n' : '';
  return stripTrailingNewlines(`diff --git a/${path} b/${path}\n${mode}${patch}`);
}

function formatHeader(commit: Commit): string {
  const message = commit.message
    .trimEnd()
    .split('\n')
    .map((line) => (line === '' ? '' : `    ${line}`))
    .join('\n');
  return `commit ${commit.sha}\nAuthor: ${commit.author}\nDate:   ${commit.date}\n\n${message}`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

/** Removes trailing `\n`s only (a CRLF file's last `\r` stays). */
export function stripTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end);
}
