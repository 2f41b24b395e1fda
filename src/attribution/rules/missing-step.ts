// Rule (last resort for plan strategies): the plan ran as written and still cannot meet the task.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief } from '../targets.js';

/**
 * Blames the author of the last plan version: the planner (missing_step) or the replanner (its revision was the
 * plan that fell short). Applies once no rule found a wrong act, so it also covers a plan-up-front run on a task
 * that needs a stop. Evidence: the author's call, the plan event, the first failed step or done_when check,
 * the first failing final check, the end.
 */
export const missingStep: Rule = (input) => {
  const { index, checks } = input;
  const plan = index.plans[index.plans.length - 1];
  if (index.family !== 'plan' || !plan || !index.end) return undefined;
  const failedStep = index.stepEnds.find((s) => s.id > plan.eventId && s.status === 'failed');
  const failedCheck = index.doneWhenChecks.find((c) => c.id > plan.eventId && !c.pass);
  const { state, words } = failingChecks(checks);
  const failing = state[0] ?? words[0];
  const event = finalCheckEvent(input, failing);
  const shown = failedStep
    ? `step ${failedStep.step_id} failed at event ${failedStep.id} (${failedStep.reason ?? 'failed'})`
    : failedCheck
      ? `done_when failed at event ${failedCheck.id} (${brief(failedCheck.detail)})`
      : 'every step finished';
  const outcome = failing
    ? `the task still fails: ${brief(failing.detail)}`
    : `the episode ended ${index.end.status} where the task expects ${input.task.expect}`;
  const whose = plan.author === 'planner' ? 'The first plan' : `Revision ${plan.revision}`;
  return finding(
    plan.author,
    'missing_step',
    [plan.authorCallId, plan.eventId, failedStep?.id ?? failedCheck?.id, event, index.end.id],
    `${whose} (written at event ${plan.authorCallId}, ${plan.steps.filter((s) => s.revision === plan.revision).length} steps) ran as written — ${shown} — and ${outcome} (event ${event ?? index.end.id}).`,
  );
};
