// Gated: one gate call routes the request to direct or to plan-and-replan (seed 001, "a gate").
import { GateReply } from './replies.js';
import { callRole } from './call-role.js';
import { PLAN_REPLAN_BUDGETS, type Strategy } from './context.js';
import { runDirect } from './direct.js';
import { runPlanLoop } from './plan-loop.js';
import { invalidOutput } from './endings.js';

export const gated: Strategy = {
  name: 'gated',
  roles: ['gate', 'direct', 'planner', 'executor', 'replanner', 'reporter'],
  async run(ctx) {
    const reply = await callRole(ctx, 'gate', 'gate', GateReply, { role: 'gate', task_id: ctx.task.id, prompt: ctx.task.prompt });
    if (!reply.ok) return invalidOutput(ctx, 'gate', reply.error);
    const route = reply.value.route === 'direct' ? 'direct' : 'plan-replan';
    ctx.trace.emit({ type: 'gate', route, call: reply.eventId });
    return route === 'direct' ? runDirect(ctx) : runPlanLoop(ctx, PLAN_REPLAN_BUDGETS, { replan: true });
  },
};
