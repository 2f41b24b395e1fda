// Rule: a revision scheduled again, unchanged, a call that had already failed, with no change planned before it.
import { earliest, finding, type Finding, type Rule } from '../finding.js';
import { callTarget, canonical } from '../targets.js';
import type { PlannedStep } from '../trace-index.js';

const changes = (step: PlannedStep): boolean => step.side_effect !== 'none' || step.tool === 'edit' || step.tool === 'write' || step.tool === 'push';

/**
 * For each revision: a new step whose args repeat exactly a call that failed (or missed) before the replanner
 * wrote it — or, when the run ended on the repeated_call budget, a lookup that had succeeded (the harness stops a
 * read repeated on an unchanged repository) — where no step of the revision before it makes a change (re-running a test after a fix is not a
 * repeat). Seed 001: the same call failing twice stops the run; with lookup misses kept as results the repeat
 * need not hit that budget to be one. Evidence: the replanner's call, its plan_revision, the earlier failure, the
 * repeat (if it ran), the budget event (if one ended the run).
 */
export const repeatedCall: Rule = ({ index }) => {
  if (index.family !== 'plan') return undefined;
  // The harness ends a run on a read repeated on an unchanged repository too; then an earlier successful lookup counts.
  const readLoop = index.budget?.limit === 'repeated_call';
  const rereads = (t: { tool: string; side_effect: string }) => readLoop && t.tool !== 'run' && t.side_effect === 'none';
  const findings: Finding[] = [];
  for (const plan of index.plans) {
    if (plan.author !== 'replanner') continue;
    const added = plan.steps.filter((s) => s.revision === plan.revision);
    for (const [position, step] of added.entries()) {
      if (step.args === null || added.slice(0, position).some(changes)) continue;
      const key = canonical({ tool: step.tool, args: step.args });
      const earlier = index.toolCalls.find(
        (t) => t.id < plan.authorCallId && (t.status !== 'success' || rereads(t)) && canonical({ tool: t.tool, args: t.args }) === key,
      );
      if (!earlier) continue;
      const repeat = index.toolCalls.find((t) => t.id > plan.eventId && t.step_id === step.id);
      const budget = index.budget?.limit === 'repeated_call' ? index.budget : undefined;
      const after = repeat ? `; it ${repeat.status === 'success' ? 'ran' : `ended ${repeat.status}`} again at event ${repeat.id}` : '';
      findings.push(
        finding(
          'replanner',
          'repeated_call',
          [plan.authorCallId, plan.eventId, earlier.id, repeat?.id, budget?.id],
          `Revision ${plan.revision} (event ${plan.authorCallId}) schedules step ${step.id}, ${step.tool} ${callTarget(step.tool, step.args)} unchanged, which had ended ${earlier.status} at event ${earlier.id}${after}${budget ? ` and the harness stopped the run (event ${budget.id})` : ''}.`,
        ),
      );
      break;
    }
  }
  return earliest(findings);
};
