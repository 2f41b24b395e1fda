// Rule: a role's reply failed to parse or validate twice, so the episode ended `invalid_output`.
import { finding, type Finding, type Rule } from '../finding.js';

/**
 * Blames the role named in the end reason (`<role>_invalid_output`, `planner_invalid_plan`): planner → invalid_plan;
 * executor and reporter → executor.invalid_output; replanner, gate, agent/direct → their invalid_output.
 * Evidence: the first attempt of the failed call, its repair, the plan_invalid event, the end.
 */
export const invalidOutput: Rule = ({ index }) => {
  const end = index.end;
  if (!end || end.status !== 'invalid_output') return undefined;
  const role = end.reason.replace(/_(invalid_output|invalid_plan)$/, '');
  const calls = index.modelCalls.filter((c) => c.role === role);
  const repair = calls[calls.length - 1];
  if (!repair) return undefined;
  const first = repair.attempt === 2 ? (calls[calls.length - 2] ?? repair) : repair;
  const planInvalid = index.events.find((e) => e.type === 'plan_invalid')?.id;
  const evidence = [first.id, repair.id, planInvalid, end.id];
  const what = `The ${role}'s reply at event ${first.id} ${first.value === undefined ? 'did not parse' : 'did not validate'} and its repair at event ${repair.id} failed too`;
  const byRole: Record<string, () => Finding> = {
    planner: () => finding('planner', 'invalid_plan', evidence, `${what}, so no step ran (event ${planInvalid ?? end.id}).`),
    executor: () => finding('executor', 'invalid_output', evidence, `${what}; the episode ended at event ${end.id}.`),
    reporter: () =>
      finding('executor', 'invalid_output', evidence, `${what} (the reporter writes up the executor's results); the episode ended at event ${end.id}.`),
    replanner: () => finding('replanner', 'invalid_output', evidence, `${what}; the episode ended at event ${end.id}.`),
    gate: () => finding('gate', 'invalid_output', evidence, `${what}; no strategy ran.`),
    agent: () => finding('agent', 'invalid_output', evidence, `${what}; the episode ended at event ${end.id}.`),
    direct: () => finding('agent', 'invalid_output', evidence, `${what}; the episode ended at event ${end.id}.`),
  };
  return byRole[role]?.();
};
