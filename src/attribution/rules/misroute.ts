// Rule: the gate sent a task to the wrong path — a multi-step task to direct, or a one-action task to the planner.
import { failingChecks, finding, type Rule } from '../finding.js';
import { sameTarget } from '../targets.js';

/**
 * Gated episodes that failed. Route direct, when the task needs more than one action: its reference trajectory has
 * several tool calls or it has a naive first approach that fails (without trajectories, a failing state check or a
 * failed direct call stands in). Route plan-replan, when one action settles the task: its reference is a single
 * call with no naive first approach (seed 001: the gate "sent 'do the checkout tests pass right now?' to the
 * planner") — unless the plan made that one call, ended as the task expects and left every state check passing
 * (the plan had found the answer: the route was not decisive). The explanation names the route and the reason. Evidence: the gate's model call, the gate event,
 * the first tool call, the end.
 */
export const misroute: Rule = ({ task, index, checks }) => {
  const gate = index.gate;
  if (!gate || !index.end) return undefined;
  const call = index.toolCalls[0];
  const referenceCalls = task.reference?.steps.length;
  if (gate.route === 'plan-replan') {
    if (referenceCalls !== 1 || task.naive !== undefined) return undefined;
    // Decisive only if the plan path failed by its own machinery (see endedByPlanMachinery) or changed what it should
    // have left alone: a plan that made the one call that settles it, was not ended by its machinery and left every
    // state check passing had found the answer, and what failed after that — the words of its report or stop, a report
    // the reporter could not write — would have failed on the direct path too (issue 27, kind 4).
    const settling = task.reference!.steps[0] as { tool: string; args: Record<string, unknown> };
    // A call that ran gave its answer whatever its status ("do the checkout tests pass?": exit 1 is the answer; a push
    // refused for want of write access is what a must-stop task is about); only a transient error told nothing.
    const found = index.toolCalls.some((made) => made.status !== 'transient_error' && sameTarget(made, settling));
    if (found && !endedByPlanMachinery(task.expect, index) && failingChecks(checks).state.length === 0) return undefined;
    const calls = index.toolCalls.length;
    const planCalls = index.modelCalls.length - 1;
    return finding(
      'gate',
      'misroute',
      [gate.callId, gate.eventId, call?.id, index.end.id],
      `The gate (event ${gate.callId}) sent ${task.id} to plan-replan, but one action settles it (its reference is a single call); the plan loop spent ${planCalls} model call(s) and ${calls} tool call(s) and ended ${index.end.status} (event ${index.end.id}).`,
    );
  }
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

/**
 * Whether the plan loop's own machinery ended the episode: a budget (replans, repeated calls), a stop where an answer
 * was asked for (a done_when check turned the question into a repair loop), a finish where a stop was due, or an
 * invalid plan or revision. A report the reporter could not write is not the route's doing.
 */
function endedByPlanMachinery(expect: string, index: Parameters<Rule>[0]['index']): boolean {
  const status = index.end!.status;
  if (status === 'budget_exhausted') return true;
  if (status === 'stopped') return expect !== 'stop';
  if (status === 'finished') return expect === 'stop';
  if (status === 'invalid_output') {
    const last = index.modelCalls[index.modelCalls.length - 1];
    return last?.role === 'planner' || last?.role === 'replanner';
  }
  return false;
}
