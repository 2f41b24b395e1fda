// Owns what package scripts do when run: tests, install, migrations, declared commands, and package-manager messages.
import type { Action, PackageManager } from './command-resolve.js';
import { evaluatePredicate } from './predicates.js';
import type { ScriptSpec, SideEffect } from './spec.js';
import { recordChange, type RepoState } from './state.js';
import { runTests } from './test-runner.js';
import { runLint } from './lint-command.js';
import { parseCommandLine } from './shell-parse.js';

/** What one simple command did. `error_code` marks refusals (a path outside the repo, a denied push). */
export interface CommandOutcome {
  exit_code: number;
  output: string;
  /** What the command actually changed. */
  side_effect: SideEffect;
  error_code?: 'path_escape' | 'permission_denied';
}

/** Everything a running command sees: the state, its environment, and its text for the change log. */
export interface ExecContext {
  state: RepoState;
  env: Readonly<Record<string, string>>;
  cmd: string;
}

/** Runs a script behaviour; the package manager's `header` (if any) is printed first. */
export function runScript(context: ExecContext, action: Extract<Action, { kind: 'script' }>): CommandOutcome {
  const outcome = runBehaviour(context, action.script, action.args);
  if (action.header === null) return outcome;
  const headed = Object.assign({}, outcome);
  headed.output = outcome.output === '' ? action.header : `${action.header}\n\n${outcome.output}`;
  return headed;
}

function runBehaviour(context: ExecContext, script: ScriptSpec, args: readonly string[]): CommandOutcome {
  const { state } = context;
  switch (script.kind) {
    case 'test': {
      const run = runTests(state, context.env, [...commandArgs(script.cmd, 'vitest', state.spec.env), ...args]);
      return { exit_code: run.exit_code, output: run.output, side_effect: 'none' };
    }
    case 'lint':
      return { ...runLint(state, context.env, [...commandArgs(script.cmd, 'eslint', state.spec.env), ...args]), side_effect: 'none' };
    case 'install': {
      state.installed = true;
      recordChange(state, { kind: 'command', cmd: context.cmd, side_effect: 'reversible' });
      return { exit_code: 0, output: `Packages: +312\nDone in ${(script.duration_ms / 1000).toFixed(1)}s`, side_effect: 'reversible' };
    }
    case 'migrate': {
      if (state.pending.length === 0) return { exit_code: 0, output: 'No pending migrations', side_effect: 'none' };
      const applied = state.pending;
      state.pending = [];
      for (const id of applied) {
        state.applied.push(id);
        recordChange(state, { kind: 'migration', cmd: context.cmd, detail: id, side_effect: 'irreversible' });
      }
      return { exit_code: 0, output: `Applied ${applied.join(', ')}`, side_effect: 'irreversible' };
    }
    case 'migrate_status': {
      const list = (ids: readonly string[]) => (ids.length === 0 ? '(none)' : ids.join(', '));
      return {
        exit_code: state.pending.length > 0 ? 1 : 0,
        output: `Applied: ${list(state.applied)}\nPending: ${list(state.pending)}`,
        side_effect: 'none',
      };
    }
    case 'command': {
      if (script.passes_when !== undefined && !evaluatePredicate(script.passes_when, state, context.env)) {
        return { exit_code: 1, output: script.failure, side_effect: 'none' };
      }
      Object.assign(state.flags, script.sets_flags);
      if (script.side_effect !== 'none') recordChange(state, { kind: 'command', cmd: context.cmd, side_effect: script.side_effect });
      return { exit_code: 0, output: script.output, side_effect: script.side_effect };
    }
  }
}

/**
 * The words of a script's command after its program (`vitest run --exclude "tests/e2e/**"` → `run`, `--exclude`,
 * `tests/e2e/**`), quotes removed as the shell does; a leading `npx`/`pnpm exec` is skipped.
 */
function commandArgs(cmd: string, program: string, env: Readonly<Record<string, string>>): string[] {
  const parsed = parseCommandLine(cmd, env);
  const words = parsed.ok ? (parsed.segments[0]?.words ?? []) : cmd.split(/\s+/);
  const at = words.indexOf(program);
  return at < 0 ? words.slice(1) : words.slice(at + 1);
}

/** Outcomes of package-manager calls that run no script. */
export function packageManagerMessage(
  action: Extract<Action, { kind: 'noop_script' | 'list_scripts' | 'missing_script' | 'manifest_error' | 'pm_unknown' }>,
): CommandOutcome {
  switch (action.kind) {
    case 'noop_script':
      return { exit_code: 0, output: action.header, side_effect: 'none' };
    case 'list_scripts':
      return { exit_code: 0, output: listing(action.scripts), side_effect: 'none' };
    case 'missing_script':
      return { exit_code: 1, output: missingScript(action.pm, action.name), side_effect: 'none' };
    case 'manifest_error':
      return { exit_code: 1, output: action.message, side_effect: 'none' };
    case 'pm_unknown':
      return { exit_code: 1, output: unknownSubcommand(action.pm, action.subcommand), side_effect: 'none' };
  }
}

function listing(scripts: Record<string, string>): string {
  const entries = Object.entries(scripts);
  if (entries.length === 0) return 'There are no scripts specified.';
  return ['Commands available via "run":', ...entries.flatMap(([name, cmd]) => [`  ${name}`, `    ${cmd}`])].join('\n');
}

function missingScript(pm: PackageManager, name: string): string {
  switch (pm) {
    case 'pnpm':
      return ` ERR_PNPM_NO_SCRIPT  Missing script: ${name}\n\nCommand "${name}" not found. To list the available scripts, run: pnpm run`;
    case 'npm':
      return `npm error Missing script: "${name}"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run`;
    case 'yarn':
      return `error Command "${name}" not found. To list the available scripts, run: yarn run`;
  }
}

function unknownSubcommand(pm: PackageManager, subcommand: string): string {
  if (subcommand === '') return `Usage: ${pm} [command] [flags]\nRun "${pm} run" to list the package scripts.`;
  if (subcommand === 'exec') return `${pm} error: no command given to run`;
  return `Unknown command: "${subcommand}"\n\nTo see a list of supported npm commands, run:\n  npm help`;
}
