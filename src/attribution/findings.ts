// Costs attributable to a role on a successful episode: findings, not failures (issue 11 §1).
import type { EpisodeFinding, TraceEvent } from '../records/index.js';
import { canonical, describeCheck } from './targets.js';
import { indexTrace, type PlanVersion } from './trace-index.js';

/**
 * What a successful episode spent because of one role's mistake. Today one kind: a done_when check that never
 * passed in the episode although the task was met — it failed at its last evaluation, or a revision dropped it
 * after it failed (seed 001: the currency question's `defaultCurrency` check "made the loop do extra work on a task
 * that was already finished"). Blamed on the plan version that introduced it (planner or replanner), with the
 * replans and model calls made from its first failure on. Evidence: the author's model call, the plan event, the
 * check's first failure. Pure; empty for any episode whose trace has no plan.
 */
export function costFindings(trace: readonly TraceEvent[]): EpisodeFinding[] {
  if (!trace.some((e) => e.type === 'check' && e.scope === 'done_when' && !e.pass)) return [];
  const index = indexTrace(trace);
  if (index.plans.length === 0) return [];
  const byCheck = new Map<string, { first: number; passed: boolean }>();
  for (const event of index.doneWhenChecks) {
    const key = canonical(event.check);
    const seen = byCheck.get(key);
    if (seen) seen.passed ||= event.pass;
    else byCheck.set(key, { first: event.id, passed: event.pass });
  }
  const findings: EpisodeFinding[] = [];
  const reported = new Set<string>();
  for (const [key, seen] of byCheck) {
    if (seen.passed || reported.has(key)) continue;
    reported.add(key);
    const author = introducedBy(index.plans, key);
    if (!author) continue;
    const check = index.doneWhenChecks.find((e) => e.id === seen.first)!.check;
    const replans = trace.filter((e) => e.type === 'plan_revision' && e.id > seen.first).length;
    const modelCalls = index.modelCalls.filter((e) => e.id > seen.first).length;
    const toolCalls = index.toolCalls.filter((e) => e.id > seen.first).length;
    findings.push({
      component: author.author,
      mode: 'wrong_check',
      evidence: [author.authorCallId, author.eventId, seen.first],
      explanation: `The ${author.author === 'planner' ? 'first plan' : `revision ${author.revision}`} (event ${author.authorCallId}) required ${describeCheck(check)}, which never passed although the task was met; from its first failure (event ${seen.first}) it cost ${replans} replan(s), ${modelCalls} model call(s) and ${toolCalls} tool call(s).`,
      cost: { replans, model_calls: modelCalls, tool_calls: toolCalls },
    });
  }
  return findings;
}

/** The first plan version whose done_when holds the check (canonical key). */
const introducedBy = (plans: readonly PlanVersion[], key: string): PlanVersion | undefined =>
  plans.find((plan) => plan.doneWhen.some((check) => canonical(check) === key));
