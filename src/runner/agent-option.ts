// `run --agent-cmd CMD [--agent-name NAME]`: an external agent process joins the run as a strategy (issue 28 §3).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExternalAgentConfig } from '../agent-bridge/external-agent.js';
import type { ChatModel } from '../models/types.js';
import { addModuleStrategy, STRATEGY_NAME } from '../strategies/index.js';
import { UsageError } from './usage-error.js';

/**
 * The budgets' defaults, as the bridge's AGENT_BUDGETS (src/agent-bridge/session.ts) has them: repeated here so that a
 * run without --agent-cmd does not load the bridge (the MCP SDK: ~200 ms of start-up); a test keeps the two equal.
 */
export const DEFAULT_AGENT_BUDGETS = { maxModelCalls: 24, maxToolCalls: 12, deadlineMs: 120_000 } as const;

/** The strategy name of an external agent when --agent-name is not given. */
export const DEFAULT_AGENT_NAME = 'external';

/** How run.json keeps an external agent (for --resume; part of the configuration hash). */
export interface ExternalAgentRecord {
  name: string;
  command: string;
  /** The directory the command runs in (the run's working directory): --resume runs it there again. */
  cwd: string;
  /** The files the command names (its words that are files in `cwd`), with their content hash: --resume refuses an edited one. */
  files: Array<{ path: string; sha256: string }>;
  max_tool_calls: number;
  max_model_calls: number;
  deadline_ms: number;
}

function positive(options: Record<string, unknown>, key: string, flag: string, fallback: number): number {
  const value = options[key];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${flag} ${String(value)}: give a positive whole number`);
  return number;
}

/**
 * The external agent the options describe (`agentCmd`, `agentName`, `agentMaxToolCalls`, `agentMaxModelCalls`,
 * `agentDeadlineMs`), registered as a strategy whose run reads `interrupt()` for the run's abort signal; undefined
 * without --agent-cmd. Throws UsageError (exit 2) for an empty command, a name that is not kebab case or is taken, a
 * budget that is not a positive whole number, or --agent-name/--agent-max-* without --agent-cmd.
 */
export async function registerExternalAgent(
  options: Record<string, unknown>,
  interrupt: () => AbortSignal | undefined,
): Promise<ExternalAgentRecord | undefined> {
  const command = options['agentCmd'];
  if (command === undefined) {
    const stray = ['agentName', 'agentMaxToolCalls', 'agentMaxModelCalls', 'agentDeadlineMs'].filter((key) => options[key] !== undefined);
    if (stray.length > 0) throw new UsageError(`--${stray[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --agent-cmd (the agent process to run)`);
    return undefined;
  }
  if (typeof command !== 'string' || command.trim() === '') throw new UsageError('--agent-cmd needs a command, e.g. --agent-cmd "node my-agent.mjs"');
  const name = typeof options['agentName'] === 'string' ? options['agentName'] : DEFAULT_AGENT_NAME;
  const cwd = typeof options['agentCwd'] === 'string' ? options['agentCwd'] : process.cwd();
  const program = programProblem(command, cwd);
  if (program !== undefined) throw new UsageError(`--agent-cmd "${command}": ${program}`);
  const files = commandFiles(command, cwd);
  const recorded = options['agentFiles'] as ExternalAgentRecord['files'] | undefined;
  for (const file of recorded ?? []) {
    const now = files.find((seen) => seen.path === file.path);
    if (now === undefined || now.sha256 !== file.sha256) {
      throw new UsageError(
        `--resume: the agent's file ${file.path} (in ${cwd}) ${now === undefined ? 'is gone' : 'changed'} since the run started; its episodes would mix two agents: start a new run`,
      );
    }
  }
  if (!STRATEGY_NAME.test(name)) throw new UsageError(`--agent-name ${JSON.stringify(name)}: use lower-case letters, digits and dashes (1–40 characters)`);
  const config: ExternalAgentConfig = {
    name,
    command,
    cwd,
    budgets: {
      maxToolCalls: positive(options, 'agentMaxToolCalls', '--agent-max-tool-calls', DEFAULT_AGENT_BUDGETS.maxToolCalls),
      maxModelCalls: positive(options, 'agentMaxModelCalls', '--agent-max-model-calls', DEFAULT_AGENT_BUDGETS.maxModelCalls),
      deadlineMs: positive(options, 'agentDeadlineMs', '--agent-deadline-ms', DEFAULT_AGENT_BUDGETS.deadlineMs),
    },
  };
  const { externalAgentStrategy } = await import('../agent-bridge/external-agent.js');
  try {
    addModuleStrategy(externalAgentStrategy(config, interrupt));
  } catch (error) {
    throw new UsageError(`--agent-name ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    name,
    command,
    cwd,
    files,
    max_tool_calls: config.budgets.maxToolCalls,
    max_model_calls: config.budgets.maxModelCalls,
    deadline_ms: config.budgets.deadlineMs,
  };
}

/**
 * Why the agent role's model cannot serve an external agent, or undefined when it can (scripted, openai:, ollama:).
 * Loads the bridge: called only when --agent-cmd is given.
 */
export async function agentModelProblem(model: ChatModel): Promise<string | undefined> {
  const { proxyProblem } = await import('../agent-bridge/external-agent.js');
  return proxyProblem(model);
}

/** Shell words that are not a program to look up (builtins and keywords a command may start with). */
const SHELL_WORDS = new Set(['cd', 'exec', 'export', 'set', 'source', '.', 'eval', 'env', 'time', 'nice', 'nohup', 'if', 'for', 'while', '(', '{', 'true']);

/** The command's words, quotes stripped (a plain split: enough to find its program and the files it names). */
function words(command: string): string[] {
  return command
    .split(/\s+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .filter((word) => word !== '');
}

/**
 * Why the command's program cannot run, or undefined: its first word after `NAME=value` assignments, looked up by
 * /bin/sh's `command -v` in `cwd`. A builtin or keyword first word (cd, exec, …) is not checked. Catches a typo
 * before any episode (exit 2) instead of booking every episode as the agent exiting 127.
 */
export function programProblem(command: string, cwd: string): string | undefined {
  if (!existsSync(cwd)) return `its directory ${cwd} does not exist`;
  const program = words(command).find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (program === undefined) return 'names no program';
  if (SHELL_WORDS.has(program) || /[;&|<>()$`]/.test(program)) return undefined;
  const found = spawnSync('/bin/sh', ['-c', 'command -v -- "$1"', 'sh', program], { cwd, encoding: 'utf8' });
  return found.status === 0 ? undefined : `${program}: command not found (in ${cwd})`;
}

/** The files the command names: each word that is a regular file in `cwd`, with its content's sha256. */
function commandFiles(command: string, cwd: string): ExternalAgentRecord['files'] {
  const files: ExternalAgentRecord['files'] = [];
  for (const word of new Set(words(command))) {
    const path = resolve(cwd, word);
    try {
      if (!statSync(path).isFile()) continue;
      files.push({ path: word, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') });
    } catch {
      // Not a file.
    }
  }
  return files;
}
