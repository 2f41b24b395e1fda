// Rule: a revision dropped done_when checks without a replacement, and the loop then finished with the task undone.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief, canonical, describeCheck } from '../targets.js';

const countByKind = (checks: ReadonlyArray<Record<string, unknown>>): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const check of checks) counts.set(String(check['check']), (counts.get(String(check['check'])) ?? 0) + 1);
  return counts;
};

/**
 * The last revision's done_when has fewer checks of some kind than the plan before it (a check dropped, not replaced
 * by another of its kind — swapping a wrong command for the right one is not weakening), and the episode then
 * finished without succeeding (seed 001: the replanner "was
 * told not to weaken the checks"). Evidence: the replanner's call, its plan_revision, the first failing final check,
 * the end.
 */
export const weakenedCheck: Rule = (input) => {
  const { index, checks } = input;
  const last = index.plans[index.plans.length - 1];
  const before = index.plans[index.plans.length - 2];
  if (!last || !before || last.author !== 'replanner' || index.end?.status !== 'finished') return undefined;
  const kept = new Set(last.doneWhen.map(canonical));
  const now = countByKind(last.doneWhen);
  const fewer = [...countByKind(before.doneWhen)].filter(([kind, n]) => (now.get(kind) ?? 0) < n).map(([kind]) => kind);
  const dropped = before.doneWhen.filter((c) => fewer.includes(String(c['check'])) && !kept.has(canonical(c)));
  if (dropped.length === 0) return undefined;
  const { state, words } = failingChecks(checks);
  const failing = state[0] ?? words[0];
  const event = finalCheckEvent(input, failing);
  return finding(
    'replanner',
    'weakened_check',
    [last.authorCallId, last.eventId, event, index.end.id],
    `Revision ${last.revision} (event ${last.authorCallId}) drops ${dropped.map(describeCheck).join(', ')} from done_when without a replacement; the loop then finished (event ${index.end.id}) while ${failing ? brief(failing.detail) : `the task expected ${input.task.expect}`}.`,
  );
};
