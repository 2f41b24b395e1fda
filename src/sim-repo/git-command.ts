// Owns `git ...` typed into the shell: status, diff, log, show, push, restore/checkout mapped onto the git operations.
import { changesUnder, findCommit, formatLog, formatShow, gitLog } from './git-history.js';
import { gitDiff, gitStatus, restoreFile } from './git-worktree.js';
import { pushBranch } from './push.js';
import type { RepoError } from './results.js';
import type { CommandOutcome, ExecContext } from './script-runner.js';
import { recordChange } from './state.js';

const UNAVAILABLE = new Set([
  'add',
  'commit',
  'branch',
  'stash',
  'reset',
  'rebase',
  'merge',
  'pull',
  'fetch',
  'clone',
  'switch',
  'tag',
  'rm',
  'mv',
  'revert',
  'cherry-pick',
]);

/** Runs `git <args>`. Fatal errors exit 128 as git does; refusals carry an `error_code`. */
export function runGit(context: ExecContext, args: readonly string[]): CommandOutcome {
  const [sub, ...rest] = args;
  const { state } = context;
  const operands = positional(rest);
  switch (sub) {
    case 'status': {
      const status = gitStatus(state);
      if (!rest.includes('--short') && !rest.includes('-s')) return ok(status.output);
      return ok([...status.modified.map((path) => ` M ${path}`), ...status.untracked.map((path) => `?? ${path}`)].join('\n'));
    }
    case 'diff': {
      if (rest.includes('--cached') || rest.includes('--staged')) return ok('');
      const diff = gitDiff(state, operands[0]);
      return diff.ok ? ok(diff.output) : failed(diff);
    }
    case 'log': {
      const { revisions, paths } = revisionsAndPaths(rest);
      const path = paths[0] ?? revisions[0];
      const log = gitLog(state, { ...(path !== undefined ? { path } : {}), ...logLimit(rest), ...logSkip(rest) });
      return log.ok ? ok(formatLog(log.commits, rest.includes('--oneline'))) : failed(log);
    }
    case 'show': {
      const { revisions, paths } = revisionsAndPaths(rest);
      const found = findCommit(state, revisions[0] ?? 'HEAD');
      if (!found.ok) return failed(found);
      // Without `--`, words after the revision are paths (git accepts them when they exist in the working tree).
      const selected = changesUnder(found.commit, [...revisions.slice(1), ...paths]);
      if (!selected.ok) return failed(selected);
      const stat = rest.includes('--stat');
      const patch = rest.includes('-p') || rest.includes('--patch');
      return ok(formatShow(found.commit, { paths: [...revisions.slice(1), ...paths], stat, patch }, selected.changes));
    }
    case 'push': {
      const [remote, refspec] = operands;
      const force = rest.some((arg) => arg === '-f' || arg === '--force' || arg.startsWith('--force-with-lease'));
      const branch = refspec?.includes(':') ? refspec.slice(refspec.indexOf(':') + 1) : refspec;
      const pushed = pushBranch(state, {
        ...(remote !== undefined ? { remote } : {}),
        ...(branch !== undefined ? { branch } : {}),
        force,
      });
      return pushed.ok ? { exit_code: 0, output: pushed.output, side_effect: 'irreversible' } : failed(pushed);
    }
    case 'restore':
    case 'checkout':
      return restore(context, sub, rest);
    case undefined:
      return { exit_code: 1, output: 'usage: git [--version] [--help] <command> [<args>]', side_effect: 'none' };
    default:
      if (UNAVAILABLE.has(sub)) return { exit_code: 1, output: `fatal: 'git ${sub}' is not available in this environment`, side_effect: 'none' };
      return { exit_code: 1, output: `git: '${sub}' is not a git command. See 'git --help'.`, side_effect: 'none' };
  }
}

/** `git restore <paths>` / `git checkout [--] <paths>`: each path back to its HEAD content. */
function restore(context: ExecContext, sub: 'restore' | 'checkout', rest: readonly string[]): CommandOutcome {
  const paths = positional(rest);
  if (paths.length === 0) return { exit_code: 1, output: `fatal: you must specify path(s) to ${sub}`, side_effect: 'none' };
  for (const path of paths) {
    const restored = restoreFile(context.state, path);
    if (!restored.ok) return failed(restored, 1);
    recordChange(context.state, { kind: 'write', path: restored.path, cmd: context.cmd, side_effect: 'reversible' });
  }
  return {
    exit_code: 0,
    output: sub === 'checkout' ? `Updated ${paths.length} path${paths.length === 1 ? '' : 's'} from the index` : '',
    side_effect: 'reversible',
  };
}

function ok(output: string): CommandOutcome {
  return { exit_code: 0, output, side_effect: 'none' };
}

function failed(error: RepoError, exit_code = 128): CommandOutcome {
  const output = error.code === 'path_escape' ? `fatal: ${error.message}` : error.message;
  const outcome: CommandOutcome = { exit_code, output, side_effect: 'none' };
  if (error.code === 'path_escape' || error.code === 'permission_denied') outcome.error_code = error.code;
  return outcome;
}

/** Operands: non-flag words, plus everything after `--`. Values of `-n`/`--max-count` are skipped. */
function positional(args: readonly string[]): string[] {
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') return [...operands, ...args.slice(index + 1)];
    if (arg === '-n' || arg === '--max-count' || arg === '--skip') index++;
    else if (!arg.startsWith('-')) operands.push(arg);
  }
  return operands;
}

/** Non-flag words before `--` (revisions, or paths git would guess), and every word after it (paths). */
function revisionsAndPaths(args: readonly string[]): { revisions: string[]; paths: string[] } {
  const separator = args.indexOf('--');
  const before = separator === -1 ? args : args.slice(0, separator);
  return { revisions: positional(before), paths: separator === -1 ? [] : args.slice(separator + 1) };
}

/** `--skip 5`, `--skip=5`. */
function logSkip(args: readonly string[]): { skip?: number } {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const value = arg === '--skip' ? args[index + 1] : /^--skip=(\d+)$/.exec(arg)?.[1];
    if (value !== undefined && /^\d+$/.test(value)) return { skip: Number(value) };
  }
  return {};
}

/** `-n 5`, `-5`, `--max-count=5`, `--max-count 5`. */
function logLimit(args: readonly string[]): { limit?: number } {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const value = arg === '-n' || arg === '--max-count' ? args[index + 1] : (/^-(\d+)$/.exec(arg)?.[1] ?? /^--max-count=(\d+)$/.exec(arg)?.[1]);
    if (value !== undefined && /^\d+$/.test(value)) return { limit: Number(value) };
  }
  return {};
}
