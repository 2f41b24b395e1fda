// Owns running a command line: the chain (&&, ||, ;), per-command env, fault injection, clock and dispatch.
import { runBuiltin } from './builtins.js';
import { actionDuration, actionSideEffect, resolveCommand, type Action } from './command-resolve.js';
import { UNKNOWN_COMMAND_MS } from './durations.js';
import { runGit } from './git-command.js';
import { runNode } from './node-command.js';
import { normaliseCommand, parseCommandLine, type CommandSegment } from './shell-parse.js';
import { packageManagerMessage, runScript, type CommandOutcome, type ExecContext } from './script-runner.js';
import type { SideEffect } from './spec.js';
import { worstSideEffect, type RepoState } from './state.js';

/**
 * The result of `run(cmd)`: the exit code of the last command that ran, the combined output, the
 * simulated duration in ms (sum over the chain), what it actually changed, and whether the failure came
 * from a transient injected fault. `error_code` is set when the last command was refused (a path outside
 * the repository, a denied push).
 */
export interface RunResult {
  exit_code: number;
  output: string;
  duration_ms: number;
  side_effect: SideEffect;
  transient: boolean;
  error_code?: 'path_escape' | 'permission_denied';
}

/** Runs a command line against `state`, advancing its clock by each command's duration. */
export function runCommandLine(state: RepoState, line: string): RunResult {
  const start = state.clock.now_ms;
  const parsed = parseCommandLine(line, state.spec.env);
  if (!parsed.ok) {
    state.clock.now_ms += UNKNOWN_COMMAND_MS;
    return { exit_code: 2, output: parsed.message, duration_ms: UNKNOWN_COMMAND_MS, side_effect: 'none', transient: false };
  }
  let last: CommandOutcome & { transient: boolean } = { exit_code: 0, output: '', side_effect: 'none', transient: false };
  let side_effect: SideEffect = 'none';
  const outputs: string[] = [];
  for (const segment of parsed.segments) {
    if (segment.connector === '&&' && last.exit_code !== 0) continue;
    if (segment.connector === '||' && last.exit_code === 0) continue;
    last = runSegment(state, segment);
    side_effect = worstSideEffect(side_effect, last.side_effect);
    if (last.output !== '') outputs.push(withoutTrailingNewlines(last.output));
  }
  const result: RunResult = {
    exit_code: last.exit_code,
    output: outputs.join('\n'),
    duration_ms: state.clock.now_ms - start,
    side_effect,
    transient: last.transient,
  };
  if (last.error_code !== undefined) result.error_code = last.error_code;
  return result;
}

/** `text` without its trailing `\n`s; `text` itself when it has none (a regex would scan all of a long output). */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The worst side-effect class `line` can have, without running it (unparseable → none). */
export function classifyCommandLine(state: RepoState, line: string): SideEffect {
  const parsed = parseCommandLine(line, state.spec.env);
  if (!parsed.ok) return 'none';
  return parsed.segments.reduce<SideEffect>(
    (worst, segment) => worstSideEffect(worst, actionSideEffect(resolveCommand(state, segment.words, segment.text))),
    'none',
  );
}

function runSegment(state: RepoState, segment: CommandSegment): CommandOutcome & { transient: boolean } {
  const action = resolveCommand(state, segment.words, segment.text);
  state.clock.now_ms += actionDuration(action);
  const fault = takeFault(state, segment.text);
  if (fault !== undefined) return { exit_code: fault.exit_code, output: fault.output, side_effect: 'none', transient: fault.transient };
  const env = Object.keys(segment.assignments).length === 0 ? state.spec.env : { ...state.spec.env, ...segment.assignments };
  return { ...execute({ state, env, cmd: segment.text }, action), transient: false };
}

/** The first fault whose command prefixes `text` (on word boundaries) and has uses left; uses one. */
function takeFault(state: RepoState, text: string) {
  for (const counter of state.faults) {
    if (counter.remaining <= 0) continue;
    const prefix = normaliseCommand(counter.fault.command);
    if (text === prefix || text.startsWith(prefix + ' ')) {
      counter.remaining--;
      return counter.fault;
    }
  }
  return undefined;
}

function execute(context: ExecContext, action: Action): CommandOutcome {
  switch (action.kind) {
    case 'script':
      return runScript(context, action);
    case 'noop_script':
    case 'list_scripts':
    case 'missing_script':
    case 'manifest_error':
    case 'pm_unknown':
      return packageManagerMessage(action);
    case 'builtin':
      return runBuiltin(context, action.name, action.args);
    case 'git':
      return runGit(context, action.args);
    case 'node':
      return runNode(context.state, context.env, action.args);
    case 'unknown':
      return { exit_code: 127, output: `sh: 1: ${action.word}: not found`, side_effect: 'none' };
    case 'empty':
      return { exit_code: 0, output: '', side_effect: 'none' };
  }
}
