// `run --agent-cmd CMD [--agent-name NAME]`: an external agent process joins the run as a strategy (issue 28 §3).
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
  if (!STRATEGY_NAME.test(name)) throw new UsageError(`--agent-name ${JSON.stringify(name)}: use lower-case letters, digits and dashes (1–40 characters)`);
  const config: ExternalAgentConfig = {
    name,
    command,
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
