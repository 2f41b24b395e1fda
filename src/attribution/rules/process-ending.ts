// Rules: an external agent's process ended the episode itself — it exited without finish or stop, or it made no call before its deadline.
import { finding, type Rule } from '../finding.js';
import { callTarget } from '../targets.js';
import type { AgentProcessEvent, TraceIndex } from '../trace-index.js';
import { tellingLine } from '../../records/index.js';

/** How the process ended, in words: "exited with code 1", "was ended by SIGKILL", "was ended by SIGTERM (the shell exited 143)". */
function howItEnded(exit: AgentProcessEvent): string {
  if (exit.exit_code === null) return `was ended by ${exit.signal ?? 'a signal'}`;
  if (exit.signal !== null) return `was ended by ${exit.signal} (the shell exited ${exit.exit_code})`;
  return `exited with code ${exit.exit_code}`;
}

/** The last tool call or model call before the process ended, in words and by event id (undefined: it made none). */
function lastCall(index: TraceIndex): { id: number; words: string } | undefined {
  const tool = index.toolCalls.at(-1);
  const model = index.modelCalls.at(-1);
  if (tool !== undefined && (model === undefined || tool.id > model.id)) {
    return { id: tool.id, words: `its last call, ${tool.tool} ${callTarget(tool.tool, tool.args)} at event ${tool.id} (${tool.status})` };
  }
  if (model !== undefined) return { id: model.id, words: `its last call, to its model at event ${model.id}` };
  return undefined;
}

/**
 * An external agent's process exited (or a signal ended it) without calling finish or stop: the episode ended
 * `invalid_output`, reason `agent_exit` (issue 28). The command is the strategy, so its crash is the agent's failure.
 * Evidence: the agent_process event (the first erroneous event: where it exited), its last tool or model call, the end.
 * The explanation names the exit code or signal and stderr's telling line.
 */
export const processExit: Rule = ({ index }) => {
  const { end, agentProcess } = index;
  if (!end || !agentProcess || end.status !== 'invalid_output' || end.reason !== 'agent_exit') return undefined;
  const last = lastCall(index);
  const line = tellingLine(agentProcess.stderr);
  return finding(
    'agent',
    'process_exit',
    [agentProcess.id, last?.id, end.id],
    `The agent process ${howItEnded(agentProcess)} without calling finish or stop (event ${agentProcess.id}), ${last ? `after ${last.words}` : 'before making any tool or model call'}; ${line ? `stderr: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}` : 'its stderr is empty'}.`,
  );
};

/**
 * An external agent's process made no tool call and no model call before its `deadline` budget killed it: it hung or
 * never reached the MCP server or the model proxy (issue 28). A process that did call and ran out of time is
 * budget.exhausted. Evidence: the agent_process event, the budget event, the end.
 */
export const processHang: Rule = ({ index }) => {
  const { end, agentProcess, budget } = index;
  if (!end || !agentProcess || !budget || budget.limit !== 'deadline' || end.status !== 'budget_exhausted') return undefined;
  if (index.toolCalls.length > 0 || index.modelCalls.length > 0) return undefined;
  const line = tellingLine(agentProcess.stderr);
  return finding(
    'agent',
    'process_hang',
    [agentProcess.id, budget.id, end.id],
    `The agent process made no tool call and no model call before ${budget.detail} (event ${budget.id}); the harness killed it (event ${agentProcess.id})${line ? `; stderr: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}` : ''}.`,
  );
};
