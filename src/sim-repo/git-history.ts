// Owns the fake git history: log (optionally by path), show by sha prefix or HEAD~n, and their git-style text.
import { createTwoFilesPatch, FILE_HEADERS_ONLY, structuredPatch } from 'diff';
import { isWithin, resolveRepoPath } from './paths.js';
import { repoError, type RepoResult } from './results.js';
import type { Commit } from './spec.js';

/** One file a commit changed (before/after: null = absent). */
type CommitChange = Commit['changes'][number];
import type { RepoState } from './state.js';

/** Options of `gitLog`: `path` keeps commits that change that file (or anything under that directory). */
export interface LogOptions {
  path?: string;
  /** At most this many commits (`git log -n`). */
  limit?: number;
  /** Leave out this many of the newest matching commits first (`git log --skip`). */
  skip?: number;
}

/**
 * Commits newest first, filtered by path, then `skip` left out and cut to `limit`; `total` counts every commit
 * that matched the path. Errors: path_escape. Empty is `ok`.
 */
export function gitLog(state: RepoState, options: LogOptions = {}): RepoResult<{ commits: Commit[]; total: number }> {
  let commits = state.spec.commits;
  if (options.path !== undefined) {
    const resolved = resolveRepoPath(options.path);
    if (!resolved.ok) return resolved;
    const scope = resolved.path;
    commits = commits.filter((commit) => commit.changes.some((change) => isWithin(change.path, scope)));
  }
  const total = commits.length;
  const skip = Math.max(0, options.skip ?? 0);
  if (skip > 0 || options.limit !== undefined) commits = commits.slice(skip, options.limit === undefined ? undefined : skip + Math.max(0, options.limit));
  return { ok: true, commits, total };
}

/** Options of `git show`: which changed files, and whether to print the file list (`--stat`) instead of or before the diff. */
export interface ShowOptions {
  /** Only changes to these files or directories (`git show SHA -- path…`); a commit changing none of them prints nothing. */
  paths?: readonly string[];
  /** `--stat`: the file list with change counts instead of the diff. */
  stat?: boolean;
  /** With `stat`, the diff too (`git show --stat --patch`): header, `---`, the file list, a blank line, the diff. */
  patch?: boolean;
}

/** The commit's changes under `paths` (all without), in git's order (by path). Errors: path_escape. */
export function changesUnder(commit: Commit, paths: readonly string[] = []): RepoResult<{ changes: CommitChange[] }> {
  const scopes: string[] = [];
  for (const path of paths) {
    const resolved = resolveRepoPath(path);
    if (!resolved.ok) return resolved;
    scopes.push(resolved.path);
  }
  const changes = commit.changes.filter((change) => scopes.length === 0 || scopes.some((scope) => isWithin(change.path, scope)));
  return { ok: true, changes: changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

const HEAD_REVISION = /^HEAD(?:~(\d+)|(\^+))?$/;

/**
 * Finds one commit by sha prefix (at least 4 hex digits), `HEAD`, `HEAD~n` or `HEAD^`.
 * Errors: not_found (git's "unknown revision" message), ambiguous_sha.
 */
export function findCommit(state: RepoState, revision: string): RepoResult<{ commit: Commit }> {
  const commits = state.spec.commits;
  const unknown = repoError('not_found', `fatal: ambiguous argument '${revision}': unknown revision or path not in the working tree.`);
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

/**
 * `git show` text: the header, then a `diff --git` section per change (before/after may be excerpts); with `stat`
 * the file list instead (git's `--stat`), with `stat` and `patch` the file list and then the diffs. `changes`
 * defaults to every change of the commit; when `paths` were given and none of `changes` is left, git prints nothing.
 */
export function formatShow(commit: Commit, options: ShowOptions = {}, changes: readonly CommitChange[] = commit.changes): string {
  if (changes.length === 0 && (options.paths?.length ?? 0) > 0) return '';
  const diffs = () => changes.map((change) => fileDiff(change.path, change.before, change.after));
  if (options.stat !== true) return stripTrailingNewlines([formatHeader(commit), ...diffs()].join('\n\n'));
  if (changes.length === 0) return formatHeader(commit);
  if (options.patch !== true) return `${formatHeader(commit)}\n\n${formatStat(changes)}`;
  return stripTrailingNewlines([`${formatHeader(commit)}\n---\n${formatStat(changes)}`, ...diffs()].join('\n\n'));
}

/**
 * `git diff --stat` lines as git prints them for a non-terminal (80 columns): ` path | N ++--` per file, the name
 * shortened to `...tail` and the graph scaled when they do not fit (git's diff.c show_stats), then
 * ` 2 files changed, 3 insertions(+), 1 deletion(-)`.
 */
export function formatStat(changes: readonly CommitChange[], width = 80): string {
  if (changes.length === 0) return '';
  const counts = changes.map((change) => ({ path: change.path, ...lineCounts(change.before, change.after) }));
  const maxChange = Math.max(0, ...counts.map((c) => c.added + c.deleted));
  const maxName = Math.max(0, ...counts.map((c) => c.path.length));
  const numberWidth = String(maxChange).length;
  const total = Math.max(width, 16 + 6 + numberWidth);
  let graphWidth = maxChange;
  let nameWidth = maxName;
  if (nameWidth + numberWidth + 6 + graphWidth > total) {
    if (graphWidth > Math.trunc((total * 3) / 8) - numberWidth - 6) graphWidth = Math.max(6, Math.trunc((total * 3) / 8) - numberWidth - 6);
    if (nameWidth > total - numberWidth - 6 - graphWidth) nameWidth = total - numberWidth - 6 - graphWidth;
    else graphWidth = total - numberWidth - 6 - nameWidth;
  }
  const lines = counts.map(({ path, added, deleted }) => {
    let name = path;
    let room = nameWidth;
    if (nameWidth < path.length) {
      room -= 3;
      name = path.slice(path.length - room);
      const slash = name.indexOf('/');
      name = `...${slash === -1 ? name : name.slice(slash)}`;
      room += 3;
    }
    let plus = added;
    let minus = deleted;
    if (graphWidth <= maxChange) {
      let scaled = scaleLinear(added + deleted, graphWidth, maxChange);
      if (scaled < 2 && added > 0 && deleted > 0) scaled = 2;
      if (added < deleted) {
        plus = scaleLinear(added, graphWidth, maxChange);
        minus = scaled - plus;
      } else {
        minus = scaleLinear(deleted, graphWidth, maxChange);
        plus = scaled - minus;
      }
    }
    const changed = added + deleted;
    return ` ${name.padEnd(room)} | ${String(changed).padStart(numberWidth)}${changed > 0 ? ' ' : ''}${'+'.repeat(plus)}${'-'.repeat(minus)}`;
  });
  const insertions = counts.reduce((sum, c) => sum + c.added, 0);
  const deletions = counts.reduce((sum, c) => sum + c.deleted, 0);
  let summary = ` ${counts.length} file${counts.length === 1 ? '' : 's'} changed`;
  if (insertions > 0 || deletions === 0) summary += `, ${insertions} insertion${insertions === 1 ? '' : 's'}(+)`;
  if (deletions > 0 || insertions === 0) summary += `, ${deletions} deletion${deletions === 1 ? '' : 's'}(-)`;
  return [...lines, summary].join('\n');
}

/** git's scale_linear: at least one column for any change, the rest scaled as if the width were one column less. */
function scaleLinear(count: number, width: number, maxChange: number): number {
  return count === 0 ? 0 : 1 + Math.trunc((count * (width - 1)) / maxChange);
}

/** Added and deleted lines between two versions (null = absent), as the unified diff counts them. */
function lineCounts(before: string | null, after: string | null): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  if (before === after) return { added, deleted };
  for (const hunk of structuredPatch('a', 'b', before ?? '', after ?? '', undefined, undefined, { context: 0 }).hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) deleted++;
    }
  }
  return { added, deleted };
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
