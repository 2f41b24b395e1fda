// Rule: the replanner loops without progress — a revision that brings back a plan already tried.
import { canonical } from '../targets.js';
import { finding, type Rule } from '../finding.js';
import type { PlanVersion } from '../trace-index.js';
import { callTarget } from '../targets.js';

/** What a plan version tries: its new steps as `tool target` (`tool ?` for args left to the executor) and its done_when. */
export function planFingerprint(plan: PlanVersion): string {
  const steps = plan.steps
    .filter((s) => s.revision === plan.revision)
    .map((s) => (s.args === null ? `${s.tool} ?` : `${s.tool} ${callTarget(s.tool, s.args)}`));
  return canonical({ steps, done_when: plan.doneWhen });
}

/**
 * Plan-and-replan runs where a revision's fingerprint (see planFingerprint) equals an earlier plan version's: the
 * same plan again (A-A) or an oscillation (A-B-A), so the loop spends replans without trying anything new and the
 * budget, not the task, ends it (seed 001: "A replanner can loop as easily as a single-step agent can"). The
 * first erroneous event is the replanner call of the first returning revision. Evidence: that call, its
 * plan_revision, the earlier version's event, the end.
 */
export const noProgress: Rule = ({ index }) => {
  if (index.family !== 'plan' || !index.end) return undefined;
  const seen = new Map<string, PlanVersion>();
  for (const plan of index.plans) {
    const fingerprint = planFingerprint(plan);
    const earlier = seen.get(fingerprint);
    if (plan.author === 'replanner' && earlier) {
      const previous = index.plans[index.plans.indexOf(plan) - 1];
      const shape =
        previous === earlier ? 'the same plan again' : `an oscillation back to revision ${earlier.revision} after revision ${previous?.revision ?? '?'}`;
      return finding(
        'replanner',
        'no_progress',
        [plan.authorCallId, plan.eventId, earlier.eventId, index.end.id],
        `Revision ${plan.revision} (event ${plan.authorCallId}) brings back the plan of ${earlier.revision === 0 ? 'the first plan' : `revision ${earlier.revision}`} (event ${earlier.eventId}): ${shape}, with nothing new tried; the run ended ${index.end.status} (${index.end.reason}, event ${index.end.id}).`,
      );
    }
    if (!earlier) seen.set(fingerprint, plan);
  }
  return undefined;
};
