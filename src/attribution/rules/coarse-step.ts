// Rule: one step of the first plan names several targets but runs as one call, so the others are never touched.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief, callTarget, namedTargets } from '../targets.js';

/**
 * A first-plan step whose `does` names two or more files or backticked commands, executed as one call, where a
 * named target was never touched by any call of the episode and a check of the task or of done_when fails
 * (seed 001: "a step that hid several edits"). Evidence: the planner's call, the plan event, the step's tool call,
 * the first failing check.
 */
export const coarseStep: Rule = (input) => {
  const { index, checks } = input;
  const first = index.plans[0];
  if (!first || first.author !== 'planner') return undefined;
  const touched = new Set(index.toolCalls.map((t) => callTarget(t.tool, t.args)));
  const { state, words } = failingChecks(checks);
  const failingState = state[0] ?? words[0];
  const failingDoneWhen = index.doneWhenChecks.find((c) => !c.pass);
  if (!failingState && !failingDoneWhen) return undefined;
  for (const step of first.steps) {
    const targets = namedTargets(step.does);
    const call = index.toolCalls.find((t) => t.step_id === step.id);
    if (targets.length < 2 || !call) continue;
    const untouched = targets.filter((target) => !touched.has(target));
    if (untouched.length === 0) continue;
    const failing = failingState ? finalCheckEvent(input, failingState) : failingDoneWhen?.id;
    const detail = failingState?.detail ?? failingDoneWhen?.detail ?? '';
    return finding(
      'planner',
      'coarse_step',
      [first.authorCallId, first.eventId, call.id, failing],
      `Step ${step.id} of the first plan (written at event ${first.authorCallId}), "${step.does}", names ${targets.join(', ')} but is one ${call.tool} call on ${callTarget(call.tool, call.args)} (event ${call.id}); ${untouched.join(', ')} was never touched, and ${brief(detail)} (event ${failing}).`,
    );
  }
  return undefined;
};
