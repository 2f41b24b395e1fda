// Owns the git tools: git_log, git_show, git_diff and push.
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { fromRepoError, lookupMiss, succeeded, timed } from './tool-result.js';

export const gitLog = defineTool({
  name: 'git_log',
  description:
    'Show the commit history, newest first: sha, author, date and full message of each commit. Give a path to see only the commits that changed that file or directory — useful to find what changed recently and why.',
  args: z.strictObject({
    path: z.string().min(1).optional().describe('Only commits that changed this file or directory'),
    limit: z.number().int().min(1).max(100).optional().describe('At most this many commits (newest first)'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const log = repo.gitLog(args);
      if (!log.ok) return fromRepoError(log, true);
      if (log.commits.length === 0) return lookupMiss(args.path === undefined ? 'No commits' : `No commits changed ${args.path}`, 'no_commits');
      return succeeded(log.output);
    }),
});

export const gitShow = defineTool({
  name: 'git_show',
  description:
    "Show one commit: its header and the unified diff of every file it changed. Accepts a sha or a unique prefix of at least 4 characters (as printed by git_log), or HEAD, HEAD~1, ...",
  args: z.strictObject({
    sha: z.string().min(1).describe('Commit sha or unique prefix (at least 4 hex digits), or HEAD~n'),
  }),
  sideEffect: 'none',
  readOnly: true,
  execute: (repo, args) =>
    timed(repo, () => {
      const shown = repo.gitShow(args.sha);
      return shown.ok ? succeeded(shown.output) : fromRepoError(shown, true);
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
