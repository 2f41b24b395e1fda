// Reflexion through the public API (issue 28 §2): the agent works ReAct-style; when a trial ends with a check it can see
// still failing — its last run of a command failed, or its tool budget ran out — the reporter writes a reflection on
// what went wrong, kept as a memory note the next trial reads, and the agent tries again (up to three trials, twelve tool
// calls in all, as one ReAct episode has).
import { ActionReply, ReportReply, budgetExhausted, callRole, defineStrategy, finished, invalidOutput, newLedger, stopped, useToolAhead } from 'stratbench';
import type { MemoryView, Observation, StrategyContext, ToolLedger } from 'stratbench';

const MAX_TRIALS = 3;
const MAX_TOOL_CALLS = 12;

/** The check a trial can see: the last run of each command; failing if the last of them failed. */
function failingRun(history: readonly Observation[]): Observation | undefined {
  const runs = history.filter((o) => o.tool === 'run');
  const last = new Map(runs.map((o) => [String(o.args['cmd']), o]));
  return [...last.values()].find((o) => o.status !== 'success');
}

/** The reporter, asked to reflect: what the trial found and what to do differently. */
async function reflect(ctx: StrategyContext, ledger: ToolLedger, detail: string): Promise<string | undefined> {
  const view = { role: 'reporter' as const, task_id: ctx.task.id, prompt: ctx.task.prompt, plan: null, history: ledger.history, failures: [], budget: { limit: 'reflection', detail } };
  const reply = await callRole(ctx, 'reporter', 'report', ReportReply, view);
  return reply.ok ? reply.value.answer : undefined;
}

export default defineStrategy({
  name: 'reflexion',
  roles: ['agent', 'reporter'],
  maxModelCalls: MAX_TOOL_CALLS + 2 * MAX_TRIALS,
  async run(ctx) {
    const ledger = newLedger();
    const reflections: MemoryView[] = [];
    for (let trial = 1; ; trial += 1) {
      const memory = [...ctx.task.memory, ...reflections];
      const view = { role: 'agent' as const, task_id: ctx.task.id, prompt: ctx.task.prompt, memory, history: ledger.history, tool_calls_left: MAX_TOOL_CALLS - ledger.toolCalls };
      const reply = await callRole(ctx, 'agent', 'action', ActionReply, view);
      if (!reply.ok) return invalidOutput(ctx, 'agent', reply.error);
      const action = reply.value;
      if (action.action === 'stop') return stopped(ctx, action.message ?? '');
      const outOfCalls = action.action === 'tool' && ledger.toolCalls >= MAX_TOOL_CALLS;
      if (action.action === 'tool' && !outOfCalls) {
        await useToolAhead(ctx, ledger, action.tool ?? '', action.args ?? {}, undefined, 1, { call: reply.eventId });
        trial -= 1; // the same trial goes on
        continue;
      }
      const failing = failingRun(ledger.history);
      if (outOfCalls || failing === undefined || trial >= MAX_TRIALS) {
        if (!outOfCalls) return finished(ctx, action.answer ?? '');
        return budgetExhausted(ctx, 'tool_calls', `the agent asked for call ${ledger.toolCalls + 1}; the budget is ${MAX_TOOL_CALLS}`, async () => reflect(ctx, ledger, 'the tool budget ran out: report what was found'));
      }
      const reflection = await reflect(ctx, ledger, `trial ${trial} finished while \`${String(failing.args['cmd'])}\` still fails: say what went wrong and what to do next`);
      reflections.push({ date: `trial ${trial}`, text: `Reflection: ${reflection ?? 'the last trial finished with a failing check'}` });
    }
  },
});
