// Rule: the gate sent a task that needs more than one action to the one-call direct path.
import { failingChecks, finding, type Rule } from '../finding.js';

/**
 * Applies to gated episodes routed to direct that failed, when the task needs more than one action: its reference
 * trajectory has several tool calls or it has a naive first approach that fails. Without trajectories (a task
 * loaded elsewhere), a failing state check or a failed direct call stands in for "needs more".
 * Evidence: the gate's model call, the gate event, direct's tool call, the end.
 */
export const misroute: Rule = ({ task, index, checks }) => {
  const gate = index.gate;
  if (!gate || gate.route !== 'direct' || !index.end) return undefined;
  const call = index.toolCalls[0];
  const referenceCalls = task.reference?.steps.length;
  const needsMore =
    referenceCalls !== undefined
      ? referenceCalls > 1 || task.naive !== undefined
      : failingChecks(checks).state.length > 0 || (call !== undefined && call.status !== 'success');
  if (!needsMore) return undefined;
  const why =
    referenceCalls !== undefined
      ? `its reference takes ${referenceCalls} tool calls${task.naive ? ' and its first approach fails' : ''}`
      : 'one call did not do it';
  return finding(
    'gate',
    'misroute',
    [gate.callId, gate.eventId, call?.id, index.end.id],
    `The gate (event ${gate.callId}) sent ${task.id} to direct, but ${why}; direct made ${call ? `one ${call.tool} call (event ${call.id})` : 'no call'} and ended ${index.end.status} (event ${index.end.id}).`,
  );
};
