// Owns `git ...` typed into the shell: status, diff, log, show, push, restore/checkout mapped onto the git operations.
import { findCommit, formatLog, formatShow, gitLog } from './git-history.js';
import { gitDiff, gitStatus, restoreFile } from './git-worktree.js';
import { pushBranch } from './push.js';
import type { RepoError } from './results.js';
import type { CommandOutcome, ExecContext } from './script-runner.js';
import { recordChange } from './state.js';

const UNAVAILABLE = new Set(['add', 'commit', 'branch', 'stash', 'reset', 'rebase', 'merge', 'pull', 'fetch', 'clone', 'switch', 'tag', 'rm', 'mv', 'revert', 'cherry-pick']);

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
      const log = gitLog(state, { ...(operands[0] !== undefined ? { path: operands[0] } : {}), ...logLimit(rest) });
      return log.ok ? ok(formatLog(log.commits, rest.includes('--oneline'))) : failed(log);
    }
    case 'show': {
      const found = findCommit(state, operands[0] ?? 'HEAD');
      return found.ok ? ok(formatShow(found.commit)) : failed(found);
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
  return { exit_code: 0, output: sub === 'checkout' ? `Updated ${paths.length} path${paths.length === 1 ? '' : 's'} from the index` : '', side_effect: 'reversible' };
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
    if (arg === '-n' || arg === '--max-count') index++;
    else if (!arg.startsWith('-')) operands.push(arg);
  }
  return operands;
}

/** `-n 5`, `-5`, `--max-count=5`, `--max-count 5`. */
function logLimit(args: readonly string[]): { limit?: number } {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const value = arg === '-n' || arg === '--max-count' ? args[index + 1] : /^-(\d+)$/.exec(arg)?.[1] ?? /^--max-count=(\d+)$/.exec(arg)?.[1];
    if (value !== undefined && /^\d+$/.test(value)) return { limit: Number(value) };
  }
  return {};
}
