// Rule: a tool-call or replan budget ended a run that was still making progress.
import { finding, type Rule } from '../finding.js';

/**
 * The run ended on the `tool_calls` or `max_replans` budget and no rule found anything wrong before it (this rule
 * runs after every other rule that could name a component). Evidence: the budget event, the end.
 */
export const budgetExhausted: Rule = ({ index }) => {
  const budget = index.budget;
  if (!budget || !index.end || (budget.limit !== 'tool_calls' && budget.limit !== 'max_replans')) return undefined;
  return finding(
    'budget',
    'exhausted',
    [budget.id, index.end.id],
    `The ${budget.limit} budget ended the run at event ${budget.id} (${budget.detail}) with nothing else found wrong.`,
  );
};
