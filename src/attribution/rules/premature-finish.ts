// Rule: the direct/ReAct agent ended before the task was done.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief } from '../targets.js';
import { endingChoiceOf } from '../trace-index.js';

const UNRESOLVED = new Set(['lookup_miss', 'transient_error', 'permission_denied']);

/**
 * The agent finished (or stopped a task that expects finish) while a state check fails; or right after an
 * observation that left the work undone (a lookup miss, a transient error, a refusal, a failed edit or write);
 * or, when only the answer is wrong, after fewer tool calls than the task's reference trajectory takes (direct
 * answering a three-command request after one). A failing test run is information when only the answer is judged:
 * see wrong_answer. Evidence: the ending call (endingChoiceOf: the end event when an external agent's process sent an
 * answer its model did not propose), the last failed tool call, the first failing final check, the end.
 */
export const prematureFinish: Rule = (input) => {
  const { task, index, checks } = input;
  const end = index.end;
  if (index.family !== 'agent' || !end) return undefined;
  const endedEarly = end.status === 'finished' || (end.status === 'stopped' && task.expect === 'finish');
  if (!endedEarly) return undefined;
  const last = index.toolCalls[index.toolCalls.length - 1];
  const unresolved = last !== undefined && (UNRESOLVED.has(last.status) || ((last.tool === 'edit' || last.tool === 'write') && last.status !== 'success'));
  const { state } = failingChecks(checks);
  const referenceCalls = task.reference?.steps.length ?? 0;
  const short = index.toolCalls.length < referenceCalls;
  if (state.length === 0 && !unresolved && !short && end.status === 'finished') return undefined;
  const choice = endingChoiceOf(index, ['agent', 'direct']);
  const failing = state[0] ?? checks.find((c) => !c.pass);
  const after = unresolved
    ? `right after ${last.tool} ended ${last.status} (event ${last.id})`
    : state.length === 0 && short
      ? `after ${index.toolCalls.length} tool call(s) where the task's reference takes ${referenceCalls}`
      : 'with the work undone';
  return finding(
    'agent',
    'premature_finish',
    [choice.id, unresolved ? last.id : undefined, finalCheckEvent(input, failing), end.id],
    `The agent ${end.status === 'stopped' ? 'stopped' : 'finished'} at event ${choice.id ?? end.id} ${after}; ${failing ? `the check fails: ${brief(failing.detail)}` : 'the task was not done'}${choice.note}.`,
  );
};
