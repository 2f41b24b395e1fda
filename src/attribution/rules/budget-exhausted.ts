// Rule: a tool-call, model-call, replan or wall-clock budget ended a run that was still making progress.
import { finding, type Rule } from '../finding.js';

/** The budgets whose ending is the budget's, not a component's, when nothing else was wrong. */
const BUDGETS = new Set(['tool_calls', 'max_replans', 'model_calls', 'deadline']);

/**
 * The run ended on the `tool_calls` or `max_replans` budget, or an external agent's `model_calls` or `deadline` budget
 * (issue 28: its process was still calling when the bridge ended it), and no rule found anything wrong before it (this
 * rule runs after every other rule that could name a component; a process that made no call at all before its
 * deadline is agent.process_hang). Evidence: the budget event, the end.
 */
export const budgetExhausted: Rule = ({ index }) => {
  const budget = index.budget;
  if (!budget || !index.end || !BUDGETS.has(budget.limit)) return undefined;
  return finding(
    'budget',
    'exhausted',
    [budget.id, index.end.id],
    `The ${budget.limit} budget ended the run at event ${budget.id} (${budget.detail}) with nothing else found wrong.`,
  );
};
