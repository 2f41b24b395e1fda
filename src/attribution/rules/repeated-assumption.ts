// Rule: a replan blamed an assumption an earlier replan had already named (or named none).
import { finding, type Rule } from '../finding.js';
import { callTarget, sameTarget } from '../targets.js';

const DETAIL = /named "([\s\S]*)" again$/;

/**
 * Plan-and-replan runs that ended on the `repeated_assumption` budget. The first erroneous event is the earlier
 * replan that first named the assumption when its revision retried a call that had already failed (same tool,
 * same target: it re-ran the disproved approach, and the retry ran); otherwise the replan that repeated it.
 * Evidence: that replanner call, its plan_revision, the retried call's first failure, the repeating call, the budget.
 */
export const repeatedAssumption: Rule = ({ index }) => {
  const budget = index.budget;
  if (index.family !== 'plan' || budget?.limit !== 'repeated_assumption') return undefined;
  const repeater = [...index.modelCalls].reverse().find((c) => c.role === 'replanner' && c.id < budget.id);
  if (!repeater) return undefined;
  const named = DETAIL.exec(budget.detail)?.[1];
  if (named === undefined) {
    return finding(
      'replanner',
      'repeated_assumption',
      [repeater.id, budget.id],
      `The replan at event ${repeater.id} names no broken assumption; the harness stopped the run (event ${budget.id}).`,
    );
  }
  const firstNaming = index.plans.find((p) => p.author === 'replanner' && p.invalidated?.toLowerCase() === named.toLowerCase());
  if (firstNaming) {
    const added = firstNaming.steps.filter((s) => s.revision === firstNaming.revision && s.args !== null);
    for (const step of added) {
      // A step the revision scheduled but that never ran (skipped, or the run ended first) retried nothing.
      if (!index.toolCalls.some((t) => t.step_id === step.id)) continue;
      const failed = index.toolCalls.find(
        (t) => t.id < firstNaming.authorCallId && t.status !== 'success' && sameTarget(t, { tool: step.tool, args: step.args! }),
      );
      if (!failed) continue;
      return finding(
        'replanner',
        'repeated_assumption',
        [firstNaming.authorCallId, firstNaming.eventId, failed.id, repeater.id, budget.id],
        `Revision ${firstNaming.revision} (event ${firstNaming.authorCallId}) names "${named}" broken yet retries ${step.tool} ${callTarget(step.tool, step.args!)} as step ${step.id}, which had failed at event ${failed.id}; the replan at event ${repeater.id} names the same assumption again and the harness stopped the run (event ${budget.id}).`,
      );
    }
  }
  return finding(
    'replanner',
    'repeated_assumption',
    [repeater.id, firstNaming?.authorCallId, budget.id],
    `The replan at event ${repeater.id} names "${named}" again, already named at event ${firstNaming?.authorCallId}; the harness stopped the run (event ${budget.id}).`,
  );
};
