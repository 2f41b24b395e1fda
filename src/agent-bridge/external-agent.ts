// `run --agent-cmd`: any agent process as a strategy — it works through the bridge's MCP server and model proxy, and
// its episode is scored and attributed like a built-in one (issue 28 §3).
import { CallInterrupted, InfrastructureError } from '../models/types.js';
import { tellingLine, type Outcome } from '../records/index.js';
import type { Strategy, StrategyContext } from '../strategies/context.js';
import { end } from '../strategies/endings.js';
import { capText, taskText } from './mcp.js';
import { startAgent, type AgentExit } from './process.js';
import { forwarderOf } from './proxy.js';
import { PROXY_MODEL, startBridge } from './server.js';
import { AgentSession, type AgentBudgets, type Settled } from './session.js';

export { AGENT_BUDGETS, type AgentBudgets } from './session.js';
export { tellingLine } from '../records/index.js';

/** An external agent as the run configures it (`--agent-cmd`, `--agent-name`, the `--agent-max-*` budgets). */
export interface ExternalAgentConfig {
  name: string;
  command: string;
  budgets: AgentBudgets;
  /** The directory the command runs in (a relative path in it means the same file on --resume); default this process's. */
  cwd?: string;
}

/**
 * The strategy that runs `config.command` once per episode (roles: agent). Its environment adds
 * STRATBENCH_MCP_URL, STRATBENCH_TASK, OPENAI_BASE_URL, OPENAI_API_KEY, OLLAMA_HOST, STRATBENCH_MODEL and the
 * budgets (STRATBENCH_MAX_TOOL_CALLS, STRATBENCH_MAX_MODEL_CALLS, STRATBENCH_DEADLINE_MS). The episode ends when the
 * agent calls `finish` or `stop`, when a budget or the deadline runs out (budget_exhausted: tool_calls,
 * model_calls, deadline, context_exceeded), or when the process exits: exit 0 after a reply that asked for no tool
 * → finished with that reply as the answer (reason `final_message`); any other exit, whatever its code → invalid_output
 * (reason `agent_exit`, the exit and stderr's telling line as the message: the command is the strategy, and a command
 * whose program does not exist is refused before the run by `agentCommandProblem`). The process group is killed as
 * soon as the episode ends. The backend failing (InfrastructureError) or a process that cannot be spawned at all ends
 * the episode as infrastructure; a run interrupted (`interrupt` aborts) throws CallInterrupted.
 * Tool calls, model calls and the process (exit, signal, stderr) are in the trace.
 */
export function externalAgentStrategy(config: ExternalAgentConfig, interrupt?: () => AbortSignal | undefined): Strategy {
  return {
    name: config.name,
    roles: ['agent'],
    maxModelCalls: config.budgets.maxModelCalls,
    run: (ctx) => runAgent(ctx, config, interrupt?.()),
  };
}

/** A backend the proxy can serve an agent with, or why not (checked before a run's first episode). */
export function proxyProblem(model: { name: string; deterministic: boolean; forwardChat?: unknown }): string | undefined {
  if (model.deterministic) return undefined;
  return forwarderOf(model as Parameters<typeof forwarderOf>[0]) === undefined
    ? `the agent role's model ${model.name} cannot take an external agent's requests (scripted, openai: and ollama: models can)`
    : undefined;
}

async function runAgent(ctx: StrategyContext, config: ExternalAgentConfig, signal: AbortSignal | undefined): Promise<Outcome> {
  if (signal?.aborted) throw new CallInterrupted('interrupted');
  const session = new AgentSession(ctx, config.budgets);
  const task = taskText(ctx.task);
  let bridge: Awaited<ReturnType<typeof startBridge>>;
  try {
    bridge = await startBridge(session, task, signal);
  } catch (error) {
    throw new InfrastructureError(`could not start the agent bridge on 127.0.0.1: ${error instanceof Error ? error.message : String(error)}`, 'other', {
      cause: error,
    });
  }
  const agent = startAgent(
    config.command,
    {
      STRATBENCH_MCP_URL: bridge.mcpUrl,
      STRATBENCH_TASK: task,
      STRATBENCH_MODEL: PROXY_MODEL,
      STRATBENCH_MAX_TOOL_CALLS: String(config.budgets.maxToolCalls),
      STRATBENCH_MAX_MODEL_CALLS: String(config.budgets.maxModelCalls),
      STRATBENCH_DEADLINE_MS: String(config.budgets.deadlineMs),
      OPENAI_BASE_URL: bridge.openaiBaseUrl,
      OPENAI_API_KEY: 'stratbench-proxy',
      OLLAMA_HOST: bridge.ollamaHost,
    },
    config.cwd,
  );
  const deadline = setTimeout(
    () => session.exhaust('deadline', `the agent ran past its deadline of ${config.budgets.deadlineMs} ms`),
    config.budgets.deadlineMs,
  );
  const onAbort = (): void => session.settle({ kind: 'error', error: new CallInterrupted('interrupted'), by: 'interrupted' });
  signal?.addEventListener('abort', onAbort, { once: true });
  let exit: AgentExit;
  let killed: Settled['by'] | undefined;
  try {
    const first = await Promise.race([session.ended, agent.exited.then((exited) => ({ exited }))]);
    // Settled first (finish, stop, budget, deadline, infrastructure, interrupt): the group is killed at once.
    if (!('exited' in first)) {
      killed = first.by;
      agent.kill();
    }
    exit = await agent.exited;
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
    agent.kill(); // anything the agent left running in its group
    await bridge.close();
  }
  if (agent.spawnError !== undefined) {
    throw new InfrastructureError(`could not start the agent process (/bin/sh -c ${config.command}): ${agent.spawnError}`, 'other');
  }
  // A request the bridge answered between the exit and now cannot change the ending: the first settlement stands.
  const settled = session.settled;
  ctx.trace.emit({
    type: 'agent_process',
    command: config.command,
    exit_code: exit.code,
    signal: exit.signal,
    ...(killed !== undefined ? { killed } : {}),
    wall_ms: exit.wall_ms,
    stderr: exit.stderr,
    stdout: exit.stdout,
  });
  if (settled !== undefined) return endOf(ctx, settled);
  return endOfExit(ctx, session, exit);
}

/** The ending the bridge settled on: the outcome (its `end` event now, after the process event), or the error thrown. */
function endOf(ctx: StrategyContext, settled: Settled): Outcome {
  if (settled.kind === 'outcome') return end(ctx, settled.outcome);
  throw settled.error;
}

/** The agent exited without finish or stop. */
function endOfExit(ctx: StrategyContext, session: AgentSession, exit: AgentExit): Outcome {
  const how =
    exit.code === null
      ? `was ended by ${exit.signal ?? 'a signal'}`
      : exit.signal !== null
        ? `was ended by ${exit.signal} (the shell exited ${exit.code})`
        : `exited with code ${exit.code}`;
  const lastLine = tellingLine(exit.stderr);
  if (exit.code === 0 && session.lastMessage !== undefined) {
    return end(ctx, { status: 'finished', reason: 'final_message', answer: capText(session.lastMessage) });
  }
  return end(ctx, {
    status: 'invalid_output',
    reason: 'agent_exit',
    message: `the agent process ${how} without calling finish or stop${lastLine ? `; stderr: ${lastLine.slice(0, 300)}` : ''}`,
  });
}
