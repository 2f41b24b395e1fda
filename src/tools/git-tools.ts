// Owns the git tools: git_log, git_show, git_diff and push.
import { z } from 'zod';
import { OUTPUT_LIMITS } from './cap-output.js';
import { defineTool } from './define-tool.js';
import { fromRepoError, lookupMiss, succeeded, timed } from './tool-result.js';

/** Commits git_log lists when no `limit` is given: one page. */
export const GIT_LOG_PAGE = 10;

export const gitLog = defineTool({
  name: 'git_log',
  description:
    'Show the commit history, newest first: sha, author, date and full message of each commit, ' +
    `${GIT_LOG_PAGE} commits a page (a last line says how many more there are and the skip for the next page). ` +
    'Give a path to see only the commits that changed that file or directory — useful to find what changed recently and why.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Only commits that changed this file or directory (git log -- path)'),
    limit: z.number().int().min(1).max(100).optional().describe(`At most this many commits, newest first (git log -n); default ${GIT_LOG_PAGE}`),
    skip: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .describe('Leave out this many of the newest commits first, for the next page (git log --skip); default 0'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const skip = args.skip ?? 0;
      const limit = args.limit ?? GIT_LOG_PAGE;
      const log = repo.gitLog({ ...(args.path === undefined ? {} : { path: args.path }), limit, skip });
      if (!log.ok) return fromRepoError(log, true);
      if (log.commits.length === 0) {
        if (log.total > 0) return lookupMiss(`No commits past ${log.total}: skip ${skip} leaves none`, 'no_commits');
        return lookupMiss(args.path === undefined ? 'No commits' : `No commits changed ${args.path}`, 'no_commits');
      }
      const more = log.total - skip - log.commits.length;
      if (more <= 0) return succeeded(log.output);
      const next = skip + log.commits.length;
      return succeeded(
        `${log.output}\n\n… ${more} more commit${more === 1 ? '' : 's'} (git_log with skip: ${next} for the next page${args.path === undefined ? ', or a path to narrow' : ''})`,
      );
    }),
});

export const gitShow = defineTool({
  name: 'git_show',
  description:
    'Show one commit: its header and the unified diff of every file it changed. Accepts a sha or a unique prefix of at least 4 characters (as printed by git_log), or HEAD, HEAD~1, ... ' +
    "Give a path for only that file's (or directory's) diff (git show SHA -- path), or stat: true for only the list of changed files with their +/- counts (git show --stat). " +
    'A commit whose diff is longer than the output limit lists its changed files first.',
  args: z.strictObject({
    sha: z.string().min(1).describe('Commit sha or unique prefix (at least 4 hex digits), or HEAD~n'),
    path: z.string().min(1).optional().describe('Only the changes to this file or directory'),
    stat: z.boolean().optional().describe('Only the changed files with their line counts, no diff (default false)'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const shown = repo.gitShow(args.sha, {
        ...(args.path === undefined ? {} : { paths: [args.path] }),
        stat: args.stat ?? false,
        statFirstOver: OUTPUT_LIMITS.totalChars,
      });
      if (!shown.ok) return fromRepoError(shown, true);
      if (shown.files.length === 0 && args.path !== undefined) {
        return lookupMiss(`Commit ${shown.commit.sha.slice(0, 7)} did not change ${args.path}`, 'no_changes');
      }
      return succeeded(shown.output);
    }),
});

export const gitDiff = defineTool({
  name: 'git_diff',
  description:
    'Show the uncommitted changes in the working tree as a unified diff against HEAD (optionally only for one file or directory). Use it to review your edits before finishing.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Only changes to this file or directory'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const diff = repo.gitDiff(args.path);
      if (!diff.ok) return fromRepoError(diff, true);
      if (diff.files.length === 0) {
        return lookupMiss(args.path === undefined ? 'No changes: the working tree matches HEAD' : `No changes to ${args.path}`, 'no_changes');
      }
      return succeeded(diff.output);
    }),
});

export const push = defineTool({
  name: 'push',
  description:
    'Push the current branch to the remote. Irreversible: others see the result at once. Fails with permission denied when the token has no write access; retrying with other flags will not help.',
  args: z.strictObject({
    remote: z.string().min(1).optional().describe('Remote name; the default remote (usually origin) when omitted'),
    branch: z.string().min(1).optional().describe('Remote branch to push to; the current branch when omitted'),
    force: z.boolean().optional().describe('Force-push, overwriting the remote branch (default false)'),
  }),
  sideEffect: 'irreversible',
  readOnly: false,
  execute: (repo, args) =>
    timed(repo, () => {
      const pushed = repo.push(args);
      return pushed.ok ? succeeded(pushed.output, 'irreversible') : fromRepoError(pushed, false);
    }),
});
