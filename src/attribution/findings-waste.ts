// Findings on successes from calls that were not needed: repeated reads, a simple question planned, plan steps never needed.
import type { EpisodeFinding } from '../records/index.js';
import type { RuleInput } from './finding.js';
import { callTarget, canonical } from './targets.js';
import { stepOf, type ToolCallEvent, type TraceIndex } from './trace-index.js';

/** Tools that only read: calling one again with the same args on an unchanged repository returns what it returned. */
/** Tools that only read (a repeat of one on an unchanged repository is a repeated read). */
export const READ_TOOLS: ReadonlySet<string> = new Set(['read', 'list', 'search', 'git_log', 'git_show', 'git_diff']);

/** Who chose a call's target: the agent, the executor (it filled a null step), or the plan version that wrote the args. */
function chooser(index: TraceIndex, call: ToolCallEvent): { component: string; event: number } | undefined {
  const caller = index.modelCalls.find((m) => m.id === index.callerOf.get(call.id));
  if (caller && (caller.role === 'agent' || caller.role === 'direct')) return { component: 'agent', event: caller.id };
  const planned = stepOf(index, call);
  if (planned && planned.step.args === null && caller?.role === 'executor') return { component: 'executor', event: caller.id };
  if (planned) return { component: planned.author.author, event: planned.author.authorCallId };
  return caller ? { component: caller.role, event: caller.id } : undefined;
}

/**
 * A read-only call (read, list, search, git_log, git_show, git_diff) made again with the same args after it had
 * succeeded, with no change to the repository in between (no successful call with a side effect, edit or write):
 * its answer was already in the history. One finding per repeated call and whoever chose it; cost: the tool call and,
 * when a model call chose it, that call. Evidence: the chooser's model call, the first call, the repeat.
 */
export function repeatedReads(index: TraceIndex): EpisodeFinding[] {
  const findings: EpisodeFinding[] = [];
  const changes = index.toolCalls.filter((t) => t.status === 'success' && (t.side_effect !== 'none' || t.tool === 'edit' || t.tool === 'write'));
  for (const [position, call] of index.toolCalls.entries()) {
    if (!READ_TOOLS.has(call.tool) || call.attempt > 1) continue;
    const key = canonical({ tool: call.tool, args: call.args });
    const earlier = index.toolCalls
      .slice(0, position)
      .find((t) => t.status === 'success' && canonical({ tool: t.tool, args: t.args }) === key && !changes.some((c) => c.id > t.id && c.id < call.id));
    const who = earlier && chooser(index, call);
    if (!earlier || !who) continue;
    const modelCalls = index.callerOf.has(call.id) ? 1 : 0;
    findings.push({
      component: who.component,
      mode: 'repeated_read',
      evidence: [who.event, earlier.id, call.id],
      explanation: `${call.tool} ${callTarget(call.tool, call.args)} at event ${call.id} repeats the call at event ${earlier.id} on an unchanged repository (chosen by the ${who.component}, event ${who.event}); its answer was already known: it cost ${modelCalls} model call(s) and 1 tool call.`,
      cost: { replans: 0, model_calls: modelCalls, tool_calls: 1 },
    });
  }
  return findings;
}

/**
 * The gate sent to the planner a task one action settles — its reference is a single call and it has no first
 * approach that fails (the condition of the misroute rule; seed 001: "do the checkout tests pass right now?" sent to
 * the planner). Cost: the model calls after the gate beyond direct's two, and the tool calls beyond its one.
 * Evidence: the gate's model call, the gate event, the plan.
 */
export function simpleQuestionPlanned({ task, index }: RuleInput): EpisodeFinding[] {
  const gate = index.gate;
  if (!gate || gate.route !== 'plan-replan' || task.reference?.steps.length !== 1 || task.naive !== undefined) return [];
  const modelCalls = Math.max(0, index.modelCalls.filter((c) => c.id > gate.eventId).length - 2);
  const toolCalls = Math.max(0, index.toolCalls.length - 1);
  return [
    {
      component: 'gate',
      mode: 'misroute',
      evidence: [gate.callId, gate.eventId, index.plans[0]?.eventId].filter((id): id is number => id !== undefined),
      explanation: `The gate (event ${gate.callId}) sent ${task.id} to the planner, but one action settles it (its reference is a single call); the plan loop took ${modelCalls} model call(s) and ${toolCalls} tool call(s) more than direct's two calls and one tool call.`,
      cost: { replans: index.plans.filter((p) => p.author === 'replanner').length, model_calls: modelCalls, tool_calls: toolCalls },
    },
  ];
}

/**
 * Steps a plan version introduced that never ran (removed by a revision or skipped) while nothing like them ran either
 * (no successful call with the same tool and args; for a step the executor was to fill, no successful call of its
 * tool), in an episode that met the task without them. One finding per plan version; it costs no call — the plan
 * was longer than the task needed. Evidence: the author's model call, the plan event, the revision that removed them.
 */
export function unneededSteps(index: TraceIndex): EpisodeFinding[] {
  const findings: EpisodeFinding[] = [];
  const ran = new Set([
    ...index.toolCalls.flatMap((t) => (t.step_id === undefined ? [] : [t.step_id])),
    ...index.stepEnds.filter((e) => e.status !== 'skipped').map((e) => e.step_id),
  ]);
  const succeeded = index.toolCalls.filter((t) => t.status === 'success');
  for (const plan of index.plans) {
    const never = plan.steps.filter(
      (s) =>
        s.revision === plan.revision &&
        !ran.has(s.id) &&
        !succeeded.some((t) => t.tool === s.tool && (s.args === null || canonical(t.args) === canonical(s.args))),
    );
    if (never.length === 0) continue;
    const removedBy = index.plans.find((p) => p.eventId > plan.eventId && never.some((s) => !p.steps.some((q) => q.id === s.id)));
    findings.push({
      component: plan.author,
      mode: 'unneeded_step',
      evidence: [plan.authorCallId, plan.eventId, removedBy?.eventId].filter((id): id is number => id !== undefined),
      explanation: `${plan.author === 'planner' ? 'The first plan' : `Revision ${plan.revision}`} (event ${plan.authorCallId}) held ${never.length} step(s) that never ran and that the task did not need: ${never.map((s) => `${s.id} (${s.tool}${s.args ? ` ${callTarget(s.tool, s.args)}` : ''})`).join(', ')}.`,
      cost: { replans: 0, model_calls: 0, tool_calls: 0 },
    });
  }
  return findings;
}
