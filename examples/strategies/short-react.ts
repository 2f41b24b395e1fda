// A strategy module (issue 28 §1): ReAct on a short leash — six tool calls, and the agent is told how many remain.
// Run it: stratbench run --strategy-module examples/strategies/short-react.ts --strategies short-react,react
import { ActionReply, ReportReply, budgetExhausted, callRole, defineStrategy, finished, invalidOutput, newLedger, stopped, useToolAhead } from 'stratbench';
import type { StrategyContext, ToolLedger } from 'stratbench';

const MAX_TOOL_CALLS = 6;

/** The reporter's summary when the budget ends the run: what the calls so far found. */
const report = (ctx: StrategyContext, ledger: ToolLedger) => async (budget: { limit: string; detail: string }) => {
  const view = { role: 'reporter' as const, task_id: ctx.task.id, prompt: ctx.task.prompt, plan: null, history: ledger.history, failures: [], budget };
  const reply = await callRole(ctx, 'reporter', 'report', ReportReply, view);
  return reply.ok ? reply.value.answer : undefined;
};

export default defineStrategy({
  name: 'short-react',
  roles: ['agent', 'reporter'],
  maxModelCalls: MAX_TOOL_CALLS + 2,
  async run(ctx) {
    const ledger = newLedger();
    for (;;) {
      const view = {
        role: 'agent' as const,
        task_id: ctx.task.id,
        prompt: ctx.task.prompt,
        memory: ctx.task.memory,
        history: ledger.history,
        tool_calls_left: MAX_TOOL_CALLS - ledger.toolCalls,
      };
      const reply = await callRole(ctx, 'agent', 'action', ActionReply, view);
      if (!reply.ok) return invalidOutput(ctx, 'agent', reply.error);
      const action = reply.value;
      if (action.action === 'finish') return finished(ctx, action.answer ?? '');
      if (action.action === 'stop') return stopped(ctx, action.message ?? '');
      if (ledger.toolCalls >= MAX_TOOL_CALLS) {
        return budgetExhausted(ctx, 'tool_calls', `the agent asked for call ${ledger.toolCalls + 1}; the budget is ${MAX_TOOL_CALLS}`, report(ctx, ledger));
      }
      await useToolAhead(ctx, ledger, action.tool ?? '', action.args ?? {}, undefined, 1, { call: reply.eventId });
    }
  },
});
