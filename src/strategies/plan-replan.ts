// Plan-and-replan: plan-up-front plus transient retries and a replanner bounded by the study's budgets.
import { PLAN_REPLAN_BUDGETS, type Strategy } from './context.js';
import { runPlanLoop } from './plan-loop.js';

/**
 * Seed 001's loop: transient errors retried once; other failures and failing done_when checks go to the
 * replanner, which must name a new broken assumption or stop; 3 replans, 16 tool calls, the same failing
 * call twice stops. A failed lookup is a failure here; see `planReplanLookup` for the other version.
 */
export const planReplan: Strategy = {
  name: 'plan-replan',
  roles: ['planner', 'executor', 'replanner', 'reporter'],
  run: (ctx) => runPlanLoop({ ...ctx, options: { ...ctx.options, lookupMissAsResult: false } }, PLAN_REPLAN_BUDGETS, { replan: true }),
};

/** The study's second version: a failed read-only lookup is kept as a result, not sent to the replanner. */
export const planReplanLookup: Strategy = {
  name: 'plan-replan-lookup',
  roles: ['planner', 'executor', 'replanner', 'reporter'],
  run: (ctx) => runPlanLoop({ ...ctx, options: { ...ctx.options, lookupMissAsResult: true } }, PLAN_REPLAN_BUDGETS, { replan: true }),
};
