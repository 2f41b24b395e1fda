// A strategy module with a role of its own (issue 28 §1): ReAct whose every ending is first put to a critic, which may
// accept it (its own answer or message is the one given) or ask for one more tool call. The critic is declared with
// component `agent` (its mistakes count as the single agent's) and its own prompt; the agent's model serves it.
// Run it: stratbench run --strategy-module examples/strategies/critic-react.ts --strategies critic-react,react
import { ActionReply, budgetExhausted, callRole, defineStrategy, finished, invalidOutput, newLedger, stopped, useToolAhead } from 'stratbench';

const MAX_TOOL_CALLS = 10;

const CRITIC_PROMPT = `You review a coding agent's proposed ending (the "proposed" field) against the request and the results in "history".
- If the results show the task is done, finish with the answer, corrected where the results say otherwise.
- If a person is truly needed (a missing secret, a permission the token lacks), stop with a message saying what is needed.
- Otherwise choose the one tool call that is still missing. Never change a test's expected value.

Tools:
{{tools}}

Reply with only a JSON value matching this JSON Schema:
{{schema}}
Use {"action":"tool","tool":...,"args":{...}}, {"action":"finish","answer":...} or {"action":"stop","message":...}.`;

export default defineStrategy({
  name: 'critic-react',
  roles: ['agent', { name: 'critic', component: 'agent', prompt: CRITIC_PROMPT }],
  maxModelCalls: 2 * (MAX_TOOL_CALLS + 1),
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
      let decided = reply;
      if (reply.value.action !== 'tool') {
        decided = await callRole(ctx, 'critic', 'action', ActionReply, { ...view, role: 'critic', proposed: reply.value });
        if (!decided.ok) return invalidOutput(ctx, 'critic', decided.error);
      }
      const action = decided.value;
      if (action.action === 'finish') return finished(ctx, action.answer ?? '');
      if (action.action === 'stop') return stopped(ctx, action.message ?? '');
      if (ledger.toolCalls >= MAX_TOOL_CALLS) return budgetExhausted(ctx, 'tool_calls', `the budget is ${MAX_TOOL_CALLS} tool calls`, async () => undefined);
      await useToolAhead(ctx, ledger, action.tool ?? '', action.args ?? {}, undefined, 1, { call: decided.eventId });
    }
  },
});
