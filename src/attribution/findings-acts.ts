// Findings on successes from wrong acts the episode recovered from: the failure rules' acts, executor tool errors, repaired replies.
import type { EpisodeFinding } from '../records/index.js';
import type { Finding, Rule, RuleInput } from './finding.js';
import { badEdit } from './rules/bad-edit.js';
import { drift } from './rules/drift.js';
import { guessedTarget } from './rules/guessed-target.js';
import { noProgress } from './rules/no-progress.js';
import { repeatedAssumption } from './rules/repeated-assumption.js';
import { repeatedCall } from './rules/repeated-call.js';
import { callTarget } from './targets.js';
import { stepOf, type TraceIndex } from './trace-index.js';

/**
 * The failure rules whose act is a cost when the episode still succeeds. Measured on the core suite
 * (`npm run attribution:check`): none of them fires on a fault-free successful episode. Left out: weakened_check
 * (on a success the dropped check was not needed), wrong_check (its own finding), coarse_step, overreach and
 * tampered_test (a success says the checks accepted the result), misroute (its own finding).
 */
const RECOVERED_ACTS: ReadonlyArray<Rule> = [guessedTarget, badEdit, drift, repeatedCall, repeatedAssumption, noProgress];

/**
 * What a wrong act at `first` cost: the events after it up to the replan that answered the failure it led to (the
 * first failed tool call or step from `first` on), or up to that failure when nothing replanned.
 */
export function costFrom(index: TraceIndex, first: number): { cost: EpisodeFinding['cost']; failure?: number; replan?: number } {
  const failure = index.events.find(
    (e) => e.id >= first && ((e.type === 'tool_call' && e.status !== 'success') || (e.type === 'step_end' && e.status === 'failed')),
  );
  const replan = failure === undefined ? undefined : index.plans.find((p) => p.author === 'replanner' && p.eventId > failure.id);
  const end = replan?.eventId ?? failure?.id ?? first;
  const within = (e: { id: number }) => e.id > first && e.id <= end;
  return {
    cost: { replans: replan ? 1 : 0, model_calls: index.modelCalls.filter(within).length, tool_calls: index.toolCalls.filter(within).length },
    ...(failure ? { failure: failure.id } : {}),
    ...(replan ? { replan: replan.eventId } : {}),
  };
}

const costWords = (cost: EpisodeFinding['cost']): string => `${cost.replans} replan(s), ${cost.model_calls} model call(s) and ${cost.tool_calls} tool call(s)`;

/** The recovered acts: each failure rule's finding (one per first erroneous event) that cost something, with that cost. */
export function actFindings(input: RuleInput): EpisodeFinding[] {
  const findings: EpisodeFinding[] = [];
  const seen = new Set<number>();
  for (const rule of RECOVERED_ACTS) {
    const found: Finding | undefined = rule(input);
    const first = found?.evidence[0];
    if (!found || first === undefined || seen.has(first)) continue;
    seen.add(first);
    const { cost, replan } = costFrom(input.index, first);
    // Nothing spent (e.g. a transient failure retried by a revision, and the retry worked): no cost to report.
    if (cost.replans + cost.model_calls + cost.tool_calls === 0) continue;
    findings.push({
      ...found,
      evidence: replan !== undefined && !found.evidence.includes(replan) ? [...found.evidence, replan] : found.evidence,
      explanation: `${found.explanation} The episode recovered${replan !== undefined ? ` after the replan at event ${replan}` : ''}; it cost ${costWords(cost)}.`,
      cost,
    });
  }
  return findings;
}

/**
 * A tool call whose args the executor chose (the plan left the step's args null) that failed — not a transient
 * error (the environment's) nor a refused permission (the task's blocker) — in an episode that succeeded: the work
 * was redone, by a retry or a replan. A replan it caused is the executor's cost, not a plan defect. Calls already
 * in an act finding's evidence are left to it. Evidence: the executor call, the tool call, its step_end, the replan.
 */
export function executorToolErrors(input: RuleInput, claimed: ReadonlySet<number>): EpisodeFinding[] {
  const { index } = input;
  const findings: EpisodeFinding[] = [];
  for (const call of index.toolCalls) {
    if (call.status !== 'failure' && call.status !== 'lookup_miss') continue;
    if (claimed.has(call.id)) continue;
    const caller = index.callerOf.get(call.id);
    const model = index.modelCalls.find((m) => m.id === caller);
    if (!model || model.role !== 'executor' || claimed.has(model.id)) continue;
    const planned = stepOf(index, call);
    if (!planned || planned.step.args !== null) continue;
    // A lookup that found nothing is a result in the lookup variant, not an error, unless it sent the run to the replanner.
    const { cost, replan } = costFrom(index, model.id);
    if (call.status === 'lookup_miss' && replan === undefined) continue;
    const stepEnd = index.stepEnds.find((e) => e.id > call.id && e.step_id === call.step_id);
    findings.push({
      component: 'executor',
      mode: 'tool_error',
      evidence: [model.id, call.id, stepEnd?.id, replan].filter((id): id is number => id !== undefined),
      explanation: `The executor (event ${model.id}) filled step ${call.step_id} as ${call.tool} ${callTarget(call.tool, call.args)}, which ended ${call.status} (event ${call.id})${replan !== undefined ? `; the replan at event ${replan} was caused by this executor error, not by a plan defect` : ''}; it cost ${costWords(cost)}.`,
      cost,
    });
  }
  return findings;
}

/** The component a role's mistakes are counted against (decision 0004): direct and ReAct are the agent; the reporter is the executor's. */
const componentOf = (role: string): string => (role === 'direct' ? 'agent' : role === 'reporter' ? 'executor' : role);

/** A reply that did not parse or validate and was repaired by the next call of the same role: one model call spent. */
export function repairedOutputs(index: TraceIndex): EpisodeFinding[] {
  const findings: EpisodeFinding[] = [];
  for (const [position, call] of index.modelCalls.entries()) {
    const repair = index.modelCalls[position + 1];
    if (call.outcome !== 'invalid' || !repair || repair.role !== call.role || repair.attempt <= call.attempt || repair.outcome !== 'ok') continue;
    findings.push({
      component: componentOf(call.role),
      mode: 'invalid_output',
      evidence: [call.id, repair.id],
      explanation: `The ${call.role}'s reply at event ${call.id} did not parse or validate; the repair call at event ${repair.id} fixed it, at the cost of 1 model call.`,
      cost: { replans: 0, model_calls: 1, tool_calls: 0 },
    });
  }
  return findings;
}
