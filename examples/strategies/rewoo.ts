// ReWOO through the public API (issue 28 §2): the planner writes every step up front, with evidence placeholders
// (#E1, #E2 … or #<step id>) standing for earlier steps' outputs; a worker runs the steps with no model call, filling the
// placeholders; the reporter, as the solver, answers from the evidence. Two model calls per episode, whatever the plan.
import {
  PlanReply,
  ReportReply,
  callRole,
  defineStrategy,
  finished,
  invalidOutput,
  meetsExpectation,
  newLedger,
  planSnapshot,
  useToolAhead,
  validatePlan,
} from 'stratbench';
import type { FailureView, PlanState } from 'stratbench';

/** A placeholder's value: the step's output; for a `path`, the first path it printed (a search hit's file). */
function fill(value: unknown, key: string, evidence: ReadonlyMap<string, string>): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(/#(E\d+|[\w.-]+)/g, (whole, name: string) => {
    const output = evidence.get(name);
    if (output === undefined) return whole;
    return key === 'path' ? (/[\w./-]+\.\w+/.exec(output)?.[0] ?? output.trim()) : output.trim();
  });
}

export default defineStrategy({
  name: 'rewoo',
  roles: ['planner', 'reporter'],
  maxModelCalls: 2,
  async run(ctx) {
    const brief = { task_id: ctx.task.id, prompt: ctx.task.prompt };
    const planned = await callRole(ctx, 'planner', 'plan', PlanReply, { role: 'planner', ...brief, memory: ctx.task.memory }, validatePlan);
    if (!planned.ok) return invalidOutput(ctx, 'planner', planned.error);
    const plan: PlanState = { ...planned.value, steps: planned.value.steps.map((step) => ({ ...step, status: 'pending', revision: 0 })), revision: 0 };
    const planEvent = ctx.trace.emit({ type: 'plan', revision: 0, plan: planSnapshot(plan), call: planned.eventId });
    // The worker: every step in order, placeholders filled from the evidence so far; no model is asked anything.
    const ledger = newLedger();
    const evidence = new Map<string, string>();
    const failures: FailureView[] = [];
    for (const [index, step] of plan.steps.entries()) {
      if (step.args === null) {
        step.status = 'skipped';
        ctx.trace.emit({ type: 'step_end', step_id: step.id, status: 'skipped', reason: 'no args: the worker makes no model call' });
        continue;
      }
      const args = Object.fromEntries(Object.entries(step.args).map(([key, value]) => [key, fill(value, key, evidence)]));
      const used = await useToolAhead(ctx, ledger, step.tool, args, step.id, 1, { plan: planEvent });
      evidence.set(`E${index + 1}`, used.observation.output).set(step.id, used.observation.output);
      step.status = meetsExpectation(step, used.result) ? 'done' : 'failed';
      ctx.trace.emit({ type: 'step_end', step_id: step.id, status: step.status, ...(step.status === 'failed' ? { reason: used.result.status } : {}) });
      if (step.status === 'failed') failures.push({ kind: 'step_failed', step_id: step.id, tool: step.tool, args, status: used.result.status, output: used.observation.output });
    }
    // The solver: the reporter answers the request from the plan and its evidence.
    const solved = await callRole(ctx, 'reporter', 'report', ReportReply, { role: 'reporter', ...brief, plan, history: ledger.history, failures });
    if (!solved.ok) return invalidOutput(ctx, 'reporter', solved.error);
    return finished(ctx, solved.value.answer);
  },
});
