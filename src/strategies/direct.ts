// Direct: the model picks one tool call, sees its result, then answers or stops (2 model calls; seed 001).
import { ActionReply } from './replies.js';
import { callRole } from './call-role.js';
import type { Strategy, StrategyContext } from './context.js';
import { finished, invalidOutput, stopped } from './endings.js';
import { newLedger, useToolAhead, type ToolLedger } from './tool-use.js';
import type { Outcome } from '../records/index.js';

const noMoreTools = (reply: ActionReply): string[] => (reply.action === 'tool' ? ['direct answers now: action must be "finish" or "stop"'] : []);

const toolNeedsName = (reply: ActionReply): string[] => (reply.action === 'tool' && !reply.tool ? ['action "tool" needs a tool name'] : []);

/** Runs the direct strategy in `ctx`; shared with the gated strategy. */
export async function runDirect(ctx: StrategyContext, ledger: ToolLedger = newLedger()): Promise<Outcome> {
  const base = { role: 'direct' as const, task_id: ctx.task.id, prompt: ctx.task.prompt, memory: ctx.task.memory };
  const act = await callRole(ctx, 'direct', 'action', ActionReply, { ...base, phase: 'act', history: [] }, toolNeedsName);
  if (!act.ok) return invalidOutput(ctx, 'direct', act.error);
  if (act.value.action !== 'tool') return ending(ctx, act.value);
  await useToolAhead(ctx, ledger, act.value.tool ?? '', act.value.args ?? {}, undefined, 1, { call: act.eventId });
  const answer = await callRole(ctx, 'direct', 'action', ActionReply, { ...base, phase: 'answer', history: ledger.history }, noMoreTools);
  if (!answer.ok) return invalidOutput(ctx, 'direct', answer.error);
  return ending(ctx, answer.value);
}

function ending(ctx: StrategyContext, reply: ActionReply): Outcome {
  return reply.action === 'stop' ? stopped(ctx, reply.message ?? reply.answer ?? '') : finished(ctx, reply.answer ?? reply.message ?? '');
}

export const direct: Strategy = {
  name: 'direct',
  roles: ['direct'],
  run: (ctx) => runDirect(ctx),
};
