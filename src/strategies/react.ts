// ReAct: the model picks the next tool call after every result, until it finishes or stops (seed 001: 12 calls).
import { ActionReply, ReportReply } from './replies.js';
import { callRole } from './call-role.js';
import { REACT_BUDGETS, type Budgets, type Strategy, type StrategyContext } from './context.js';
import { budgetExhausted, finished, invalidOutput, repeatedRead, stopped, type WriteReport } from './endings.js';
import { newLedger, useToolAhead, type ToolLedger } from './tool-use.js';
import type { Outcome } from '../records/index.js';
import type { RoleView } from '../models/types.js';

const toolNeedsName = (reply: ActionReply): string[] => (reply.action === 'tool' && !reply.tool ? ['action "tool" needs a tool name'] : []);

/**
 * Runs ReAct. Ends `budget_exhausted` when the model asks for a call beyond `maxToolCalls`, or as `repeated_call`
 * when the same call with the same args has failed `repeatedFailureLimit` times (M9's stopped_repeated_call) or the
 * same read-only call has run `repeatedReadLimit` times on an unchanged repository.
 */
/**
 * The single agent's view: the task, its memory notes, the tool calls so far (the ledger's history) and how many of
 * `maxToolCalls` are left (never below 0). The built-in ReAct agent and an external agent's proxy both ask from it.
 */
export function agentView(ctx: StrategyContext, ledger: ToolLedger, maxToolCalls: number): Extract<RoleView, { role: 'agent' }> {
  return {
    role: 'agent',
    task_id: ctx.task.id,
    prompt: ctx.task.prompt,
    memory: ctx.task.memory,
    history: ledger.history,
    tool_calls_left: Math.max(0, maxToolCalls - ledger.toolCalls),
  };
}

export async function runReact(ctx: StrategyContext, budgets: Budgets = REACT_BUDGETS): Promise<Outcome> {
  const ledger = newLedger();
  const report = reactReport(ctx, ledger);
  for (;;) {
    const reply = await callRole(ctx, 'agent', 'action', ActionReply, agentView(ctx, ledger, budgets.maxToolCalls), toolNeedsName);
    if (!reply.ok) return invalidOutput(ctx, 'agent', reply.error);
    const action = reply.value;
    if (action.action === 'finish') return finished(ctx, action.answer ?? action.message ?? '');
    if (action.action === 'stop') return stopped(ctx, action.message ?? action.answer ?? '');
    if (ledger.toolCalls >= budgets.maxToolCalls) {
      return budgetExhausted(ctx, 'tool_calls', `the agent asked for call ${ledger.toolCalls + 1}; the budget is ${budgets.maxToolCalls}`, report);
    }
    const used = await useToolAhead(ctx, ledger, action.tool ?? '', action.args ?? {}, undefined, 1, { call: reply.eventId });
    if (used.failuresOfThisCall >= budgets.repeatedFailureLimit) {
      return budgetExhausted(ctx, 'repeated_call', `${action.tool} with the same args failed ${used.failuresOfThisCall} times`, report);
    }
    if (used.readsOfThisCall >= budgets.repeatedReadLimit) return repeatedRead(ctx, action.tool ?? '', used.readsOfThisCall, report);
  }
}

/** The report a budget ending asks for: the reporter sees the request and every tool result (ReAct has no plan). */
function reactReport(ctx: StrategyContext, ledger: ToolLedger): WriteReport {
  return async (budget) => {
    const reply = await callRole(ctx, 'reporter', 'report', ReportReply, {
      role: 'reporter',
      task_id: ctx.task.id,
      prompt: ctx.task.prompt,
      plan: null,
      history: ledger.history,
      failures: [],
      budget,
    });
    return reply.ok ? reply.value.answer : undefined;
  };
}

export const react: Strategy = {
  name: 'react',
  roles: ['agent', 'reporter'],
  run: (ctx) => runReact(ctx),
};
