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
    // Decisive only if the plan path failed by its own machinery (a done_when check turning a question into a repair
    // loop, a replanner's stop where an answer was asked for, a budget, changes made around the call): a plan that made
    // the one call that settles it, ended as the task expects by its own decision (finished, or stopped on a task that
    // must stop; not ended by a budget) and left
    // every state check passing had found the answer, and what failed after that — the words of its report or stop —
    // would have failed on the direct path too (issue 27, kind 4).
    const settling = task.reference!.steps[0] as { tool: string; args: Record<string, unknown> };
    // A call that ran gave its answer whatever its status ("do the checkout tests pass?": exit 1 is the answer; a push
    // refused for want of write access is what a must-stop task is about); only a transient error told nothing.
    const found = index.toolCalls.some((made) => made.status !== 'transient_error' && sameTarget(made, settling));
    const ended = index.end.status === (task.expect === 'stop' ? 'stopped' : 'finished');
    if (found && ended && failingChecks(checks).state.length === 0) return undefined;
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
