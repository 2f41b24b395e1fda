// Owns the shell built-ins: cat, ls, pwd, echo, grep, env, printenv, true, false — mapped onto the file operations.
import type { BuiltinName } from './command-resolve.js';
import { listDirectory, readFile, searchPrinted, type SearchMatch } from './file-ops.js';
import { REPO_ROOT } from './paths.js';
import type { CommandOutcome, ExecContext } from './script-runner.js';

/** Runs a built-in with its arguments (quotes already removed). Paths outside /repo print "Permission denied". */
export function runBuiltin(context: ExecContext, name: BuiltinName, args: readonly string[]): CommandOutcome {
  switch (name) {
    case 'pwd':
      return done(0, REPO_ROOT);
    case 'echo':
      return done(0, (args[0] === '-n' || args[0] === '-e' ? args.slice(1) : args).join(' '));
    case 'true':
      return done(0, '');
    case 'false':
      return done(1, '');
    case 'env':
      return done(
        0,
        Object.entries(context.env)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, value]) => `${key}=${value}`)
          .join('\n'),
      );
    case 'printenv':
      return printenv(context, args);
    case 'cat':
      return cat(context, args);
    case 'ls':
      return ls(context, args);
    case 'grep':
      return grep(context, args);
  }
}

function done(exit_code: number, output: string): CommandOutcome {
  return { exit_code, output, side_effect: 'none' };
}

function printenv(context: ExecContext, args: readonly string[]): CommandOutcome {
  if (args.length === 0) return runBuiltin(context, 'env', []);
  const values = args.map((name) => context.env[name]).filter((value): value is string => value !== undefined);
  return done(values.length === args.length ? 0 : 1, values.join('\n'));
}

function cat(context: ExecContext, args: readonly string[]): CommandOutcome {
  const paths = args.filter((arg) => !arg.startsWith('-'));
  if (paths.length === 0) return done(0, '');
  const parts: string[] = [];
  let exit_code = 0;
  let escaped = false;
  for (const path of paths) {
    const file = readFile(context.state, path);
    if (file.ok) {
      parts.push(file.content.endsWith('\n') ? file.content.slice(0, -1) : file.content);
      continue;
    }
    exit_code = 1;
    escaped ||= file.code === 'path_escape';
    const reason = file.code === 'is_directory' ? 'Is a directory' : file.code === 'path_escape' ? 'Permission denied' : 'No such file or directory';
    parts.push(`cat: ${path}: ${reason}`);
  }
  return { exit_code, output: parts.join('\n'), side_effect: 'none', ...(escaped ? { error_code: 'path_escape' as const } : {}) };
}

function ls(context: ExecContext, args: readonly string[]): CommandOutcome {
  const paths = args.filter((arg) => !arg.startsWith('-'));
  const path = paths[0] ?? '.';
  const listed = listDirectory(context.state, path);
  if (listed.ok) {
    const prefix = listed.path === '' ? '' : listed.path + '/';
    return done(0, listed.entries.map((entry) => entry.slice(prefix.length)).join('\n'));
  }
  if (listed.code === 'not_a_directory') return done(0, path);
  if (listed.code === 'path_escape') {
    return { exit_code: 2, output: `ls: cannot open directory '${path}': Permission denied`, side_effect: 'none', error_code: 'path_escape' };
  }
  return done(2, `ls: cannot access '${path}': No such file or directory`);
}

/** `grep [-rnFi...] <text> [path]`: a literal search printed as `path:line:text`; exit 1 when nothing matches. */
function grep(context: ExecContext, args: readonly string[]): CommandOutcome {
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-e') operands.push(args[++index] ?? '');
    else if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    } else if (!arg.startsWith('-')) operands.push(arg);
  }
  const [text, path] = operands;
  if (text === undefined) return done(2, 'Usage: grep [OPTION]... PATTERNS [FILE]...');
  const found = searchPrinted(context.state, text, path ?? '.', 'grep', printGrep);
  if (!found.ok) {
    if (found.code === 'path_escape') {
      return { exit_code: 2, output: `grep: ${path}: Permission denied`, side_effect: 'none', error_code: 'path_escape' };
    }
    return done(2, found.code === 'empty_query' ? '' : `grep: ${path}: No such file or directory`);
  }
  return found.count === 0 ? done(1, '') : done(0, found.output);
}

/** grep -rn's output: one `path:line:text` line a match. */
const printGrep = (matches: readonly SearchMatch[]): string => matches.map((match) => `${match.path}:${match.line}:${match.text}`).join('\n');
