// Plan-up-front: the planner writes the whole plan, steps run in dependency order, no replanning, a reporter answers.
import { PLAN_UP_FRONT_BUDGETS, type Strategy } from './context.js';
import { runPlanLoop } from './plan-loop.js';

/** Plan-and-Solve style (Wang et al., ACL 2023): a failed step skips its dependents; the episode always finishes. */
export const planUpFront: Strategy = {
  name: 'plan-up-front',
  roles: ['planner', 'executor', 'reporter'],
  run: (ctx) => runPlanLoop(ctx, PLAN_UP_FRONT_BUDGETS, { replan: false }),
};
