// Rule: a role's prompt did not fit the model's context window, so the episode ended `budget_exhausted` / `context_exceeded`.
import { finding, type Finding, type Rule } from '../finding.js';

/**
 * Blames the role whose call overflowed (the last model_call with output fault `context_exceeded`): its history grew
 * past the window. planner, executor, replanner, gate and agent by their own name; the reporter counts with the
 * executor (it writes up the executor's results), direct with the agent. Evidence: that call, the budget event, the end.
 */
export const contextExceeded: Rule = ({ index }) => {
  const end = index.end;
  if (!end || end.status !== 'budget_exhausted' || end.reason !== 'context_exceeded') return undefined;
  const call = [...index.modelCalls].reverse().find((c) => c.output_fault?.kind === 'context_exceeded');
  if (!call) return undefined;
  const evidence = [call.id, index.budget?.id, end.id];
  const what = `The ${call.role}'s prompt at event ${call.id} did not fit the model's context window (${call.tokens_in > 0 ? `${call.tokens_in} prompt tokens` : 'the server refused it'}), so the episode ended at event ${end.id}`;
  const byRole: Record<string, () => Finding> = {
    planner: () => finding('planner', 'context_exceeded', evidence, `${what}.`),
    executor: () => finding('executor', 'context_exceeded', evidence, `${what}.`),
    reporter: () => finding('executor', 'context_exceeded', evidence, `${what} (the reporter writes up the executor's results).`),
    replanner: () => finding('replanner', 'context_exceeded', evidence, `${what}.`),
    gate: () => finding('gate', 'context_exceeded', evidence, `${what}.`),
    agent: () => finding('agent', 'context_exceeded', evidence, `${what}.`),
    direct: () => finding('agent', 'context_exceeded', evidence, `${what}.`),
  };
  return byRole[call.role]?.();
};
