// Owns what a simple command means before it runs: which script, built-in or git call, its duration and side effect.
import {
  DEFAULT_INSTALL_MS,
  DEFAULT_LINT_MS,
  DEFAULT_TEST_RUN_MS,
  NODE_RUN_MS,
  LOOKUP_MS,
  PACKAGE_MANAGER_MS,
  PUSH_MS,
  SHELL_BUILTIN_MS,
  UNKNOWN_COMMAND_MS,
} from './durations.js';
import { readManifest } from './package-manifest.js';
import type { ScriptSpec, SideEffect } from './spec.js';
import type { RepoState } from './state.js';

export type PackageManager = 'pnpm' | 'npm' | 'yarn';

/** Shell built-ins the simulated shell answers itself. */
export const BUILTINS = ['cat', 'ls', 'pwd', 'echo', 'grep', 'env', 'printenv', 'true', 'false'] as const;
export type BuiltinName = (typeof BUILTINS)[number];

/** A resolved simple command; discriminated on `kind`. */
export type Action =
  /** Run a script behaviour. `header` is what the package manager prints first (`> cmd`), null when run directly. */
  | { kind: 'script'; name: string | null; script: ScriptSpec; header: string | null; args: string[] }
  /** A package.json script with no declared behaviour: prints its header and succeeds. */
  | { kind: 'noop_script'; header: string }
  | { kind: 'list_scripts'; pm: PackageManager; scripts: Record<string, string> }
  | { kind: 'missing_script'; pm: PackageManager; name: string }
  | { kind: 'manifest_error'; message: string }
  | { kind: 'pm_unknown'; pm: PackageManager; subcommand: string }
  | { kind: 'builtin'; name: BuiltinName; args: string[] }
  | { kind: 'git'; args: string[] }
  /** `node FILE …`, `node -e CODE`: repository code run in the sandbox. */
  | { kind: 'node'; args: string[] }
  | { kind: 'unknown'; word: string }
  | { kind: 'empty' };

/**
 * Resolves a simple command (`words`, already unquoted; `text` = words joined by single spaces).
 * Order: pnpm/npm/yarn look the script up by name in the working-tree package.json; any other command
 * equal to some script's `cmd` (first in declaration order) runs that script; then npx, `vitest`,
 * built-ins and git; anything else is unknown (exit 127).
 */
export function resolveCommand(state: RepoState, words: readonly string[], text: string): Action {
  const [command, ...rest] = words;
  if (command === undefined) return { kind: 'empty' };
  if (command !== 'pnpm' && command !== 'npm' && command !== 'yarn') {
    const direct = state.base.scriptCommands.find((entry) => entry.cmd === text);
    if (direct !== undefined) return { kind: 'script', name: direct.name, script: direct.script, header: null, args: [] };
  }
  switch (command) {
    case 'pnpm':
      return resolvePnpm(state, dropFlags(rest));
    case 'npm':
      return resolveNpm(state, dropFlags(rest));
    case 'yarn':
      return resolveYarn(state, dropFlags(rest));
    case 'npx':
      return resolveBinary(state, dropFlags(rest), 'npm');
    case 'git':
      return { kind: 'git', args: rest };
    default:
      if (command === 'vitest') return vitest(state, text);
      if (command === 'eslint')
        return { kind: 'script', name: null, script: { kind: 'lint', cmd: text, duration_ms: DEFAULT_LINT_MS }, header: null, args: [] };
      if (command === 'node') return { kind: 'node', args: rest };
      if ((BUILTINS as readonly string[]).includes(command)) return { kind: 'builtin', name: command as BuiltinName, args: rest };
      return { kind: 'unknown', word: command };
  }
}

/** Simulated duration of an action in ms (see durations.ts). */
export function actionDuration(action: Action): number {
  switch (action.kind) {
    case 'script':
      return action.script.duration_ms;
    case 'noop_script':
    case 'list_scripts':
    case 'missing_script':
    case 'manifest_error':
    case 'pm_unknown':
      return PACKAGE_MANAGER_MS;
    case 'builtin':
      return SHELL_BUILTIN_MS;
    case 'git':
      return action.args[0] === 'push' ? PUSH_MS : LOOKUP_MS;
    case 'node':
      return NODE_RUN_MS;
    case 'unknown':
      return UNKNOWN_COMMAND_MS;
    case 'empty':
      return 0;
  }
}

/** The side-effect class an action has if it succeeds (worst case, known before it runs). */
export function actionSideEffect(action: Action): SideEffect {
  if (action.kind === 'git') {
    const sub = action.args[0];
    return sub === 'push' ? 'irreversible' : sub === 'restore' || sub === 'checkout' ? 'reversible' : 'none';
  }
  if (action.kind !== 'script') return 'none';
  switch (action.script.kind) {
    case 'test':
    case 'lint':
    case 'migrate_status':
      return 'none';
    case 'install':
      return 'reversible';
    case 'migrate':
      return 'irreversible';
    case 'command':
      return action.script.side_effect;
  }
}

function resolvePnpm(state: RepoState, args: string[]): Action {
  const [sub, ...rest] = args;
  switch (sub) {
    case undefined:
      return { kind: 'pm_unknown', pm: 'pnpm', subcommand: '' };
    case 'install':
    case 'i':
    case 'add':
      return install(state);
    case 'run':
    case 'run-script':
      return rest[0] === undefined ? listScripts(state, 'pnpm') : packageScript(state, 'pnpm', rest[0], rest.slice(1));
    case 'test':
    case 't':
      return packageScript(state, 'pnpm', 'test', rest);
    case 'exec':
    case 'dlx':
      return resolveBinary(state, rest, 'pnpm');
    default:
      return packageScript(state, 'pnpm', sub, rest, args);
  }
}

function resolveNpm(state: RepoState, args: string[]): Action {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'install':
    case 'i':
    case 'ci':
      return install(state);
    case 'run':
    case 'run-script':
      return rest[0] === undefined ? listScripts(state, 'npm') : packageScript(state, 'npm', rest[0], rest.slice(1));
    case 'test':
    case 't':
    case 'start':
      return packageScript(state, 'npm', sub === 'start' ? 'start' : 'test', rest);
    case 'exec':
    case 'x':
      return resolveBinary(state, rest, 'npm');
    default:
      return { kind: 'pm_unknown', pm: 'npm', subcommand: sub ?? '' };
  }
}

function resolveYarn(state: RepoState, args: string[]): Action {
  const [sub, ...rest] = args;
  switch (sub) {
    case undefined:
    case 'install':
    case 'add':
      return install(state);
    case 'run':
      return rest[0] === undefined ? listScripts(state, 'yarn') : packageScript(state, 'yarn', rest[0], rest.slice(1));
    case 'test':
      return packageScript(state, 'yarn', 'test', rest);
    default:
      return packageScript(state, 'yarn', sub, rest, args);
  }
}

/** `npx <words>` / `pnpm exec <words>`: a script's exact command, vitest, or a built-in; else unknown. */
function resolveBinary(state: RepoState, words: string[], pm: PackageManager): Action {
  if (words.length === 0) return { kind: 'pm_unknown', pm, subcommand: 'exec' };
  const resolved = resolveCommand(state, words, words.join(' '));
  return resolved.kind === 'builtin' || resolved.kind === 'script' || resolved.kind === 'node' ? resolved : { kind: 'unknown', word: words[0]! };
}

/**
 * A script named in package.json. `binaryFallback`: the words to try as a binary when the name is not a
 * script (pnpm and yarn run `pnpm vitest run` that way).
 */
function packageScript(state: RepoState, pm: PackageManager, name: string, args: string[], binaryFallback?: string[]): Action {
  const manifest = readManifest(state);
  if (!manifest.ok) return { kind: 'manifest_error', message: manifest.message };
  const cmd = manifest.scripts[name];
  if (cmd === undefined) {
    if (binaryFallback !== undefined && binaryFallback[0] === 'vitest') return resolveBinary(state, binaryFallback, pm);
    return { kind: 'missing_script', pm, name };
  }
  const header = `> ${[cmd, ...args].join(' ')}`;
  const script = state.spec.scripts[name];
  return script === undefined ? { kind: 'noop_script', header } : { kind: 'script', name, script, header, args };
}

function listScripts(state: RepoState, pm: PackageManager): Action {
  const manifest = readManifest(state);
  return manifest.ok ? { kind: 'list_scripts', pm, scripts: manifest.scripts } : { kind: 'manifest_error', message: manifest.message };
}

/** The spec's install-kind script, or the built-in install (15 s). */
function install(state: RepoState): Action {
  const found = Object.entries(state.spec.scripts).find(([, script]) => script.kind === 'install');
  const script: ScriptSpec = found?.[1] ?? { kind: 'install', cmd: 'pnpm install', duration_ms: DEFAULT_INSTALL_MS };
  return { kind: 'script', name: found?.[0] ?? null, script, header: null, args: [] };
}

/** `vitest …` typed directly: the command line selects the tests; lasts as long as the `test` script (else 20 s). */
function vitest(state: RepoState, text: string): Action {
  const testScript = state.spec.scripts['test'];
  const duration_ms = testScript?.kind === 'test' ? testScript.duration_ms : DEFAULT_TEST_RUN_MS;
  return { kind: 'script', name: null, script: { kind: 'test', cmd: text, duration_ms }, header: null, args: [] };
}

/** Drops leading flags (`pnpm -s test` → `test`). */
function dropFlags(args: string[]): string[] {
  let index = 0;
  while (index < args.length && args[index]!.startsWith('-')) index++;
  return args.slice(index);
}
