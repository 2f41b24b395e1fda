// Roles a strategy module declared (issue 28 §1): read as their component's role before the rules, named in the verdict after.
import type { Attribution, EpisodeFinding, RoleComponent, TraceEvent } from '../records/index.js';

/** Each declared role's component, by name (`none`: no rule applies). */
export type DeclaredComponents = Readonly<Record<string, RoleComponent>>;

type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;

/** Whether the trace has a model call of a declared role. */
export const callsDeclaredRole = (trace: readonly TraceEvent[], declared: DeclaredComponents): boolean =>
  trace.some((event) => event.type === 'model_call' && Object.hasOwn(declared, event.role));

/**
 * The trace as the rules read it: a declared role's model calls carry its component's role (a `critic` declared with
 * component `replanner` is judged by the replanner's rules), and so does an `<role>_invalid_output` ending. Calls of a
 * role declared `none` keep its name: no rule reads them. Ids and every other field are unchanged. Pure.
 */
export function readAsComponents(trace: readonly TraceEvent[], declared: DeclaredComponents): TraceEvent[] {
  const asRole = (role: string): string => {
    const component = declared[role];
    return component === undefined || component === 'none' ? role : component;
  };
  return trace.map((event) => {
    if (event.type === 'model_call' && Object.hasOwn(declared, event.role)) return { ...event, role: asRole(event.role) };
    if (event.type === 'end' && event.status === 'invalid_output') {
      const match = /^(.+)_(invalid_output|invalid_plan)$/.exec(event.reason);
      if (match && Object.hasOwn(declared, match[1]!)) return { ...event, reason: `${asRole(match[1]!)}_${match[2]!}` };
    }
    return event;
  });
}

/** The declared role whose output an event is: its own model call, or a tool call (or step) that call chose. */
function declaredRoleOf(event: TraceEvent | undefined, calls: ReadonlyMap<number, ModelCall>, declared: DeclaredComponents): string | undefined {
  if (event === undefined) return undefined;
  if (event.type === 'model_call') return Object.hasOwn(declared, event.role) ? event.role : undefined;
  if (event.type === 'tool_call' && event.call !== undefined) {
    const caller = calls.get(event.call);
    return caller && Object.hasOwn(declared, caller.role) ? caller.role : undefined;
  }
  return undefined;
}

/** The roles whose calls count against each component (decision 0004); budget.exhausted blames no role's call. */
const COMPONENT_ROLES: Readonly<Record<string, readonly string[]>> = {
  planner: ['planner'],
  executor: ['executor', 'reporter'],
  replanner: ['replanner'],
  gate: ['gate'],
  agent: ['agent', 'direct'],
};

/**
 * Whether a verdict blames what a role declared `none` did, though its evidence names none of its calls: the blamed
 * component made no model call (read as components, a declared role's calls count for its component), or the first
 * erroneous event is no model or tool call (an ending, a check) and the model call before it is the `none` role's.
 */
function restsOnNoRule(verdict: Attribution, trace: readonly TraceEvent[], calls: ReadonlyMap<number, ModelCall>, declared: DeclaredComponents): boolean {
  const roles = COMPONENT_ROLES[verdict.component];
  const readAs = (role: string): string => (declared[role] === undefined || declared[role] === 'none' ? role : declared[role]);
  if (roles !== undefined && ![...calls.values()].some((call) => roles.includes(readAs(call.role)))) return true;
  const first = trace[verdict.evidence[0] ?? -1];
  if (first === undefined || first.type === 'model_call' || first.type === 'tool_call') return false;
  const before = [...calls.values()].filter((call) => call.id < first.id).pop();
  return before !== undefined && declared[before.role] === 'none';
}

/**
 * The verdict of the rules on the component-read trace, checked against the declared roles of the original trace:
 * - a failure resting on the output of a role declared `none` (the ending is that role's invalid output or context
 *   overflow, the verdict's evidence holds one of its calls or a tool call it chose, or the verdict blames it without
 *   naming it: see restsOnNoRule), or one no rule explains
 *   (`verdict` undefined) where such a role acted, is `unattributed.no_rule` with that role's model calls as evidence
 *   (and the end event) — no other component is guessed;
 * - a verdict whose evidence points at a declared role's output names that role (`role`) and says so in its explanation.
 * Returns undefined where there is nothing to say (no verdict and no `none` role acted: the caller's last resort). Pure.
 */
export function judgeDeclaredRoles<T extends Attribution | EpisodeFinding>(
  verdict: T | undefined,
  trace: readonly TraceEvent[],
  declared: DeclaredComponents,
): T | Attribution | undefined {
  const calls = new Map<number, ModelCall>();
  for (const event of trace) if (event.type === 'model_call') calls.set(event.id, event);
  const end = [...trace].reverse().find((event) => event.type === 'end');
  const noRule = (role: string): boolean => declared[role] === 'none';
  const endingRole =
    end?.type === 'end' && end.status === 'invalid_output'
      ? /^(.+)_(?:invalid_output|invalid_plan)$/.exec(end.reason)?.[1]
      : end?.type === 'end' && end.reason === 'context_exceeded'
        ? [...calls.values()].reverse().find((call) => call.output_fault?.kind === 'context_exceeded')?.role
        : undefined;
  const evidenceRoles = (verdict?.evidence ?? []).map((id) => declaredRoleOf(trace[id], calls, declared));
  const acted = [...calls.values()].find((call) => noRule(call.role))?.role;
  const unexplained = noRule(endingRole ?? '')
    ? endingRole
    : (evidenceRoles.find((role) => role !== undefined && noRule(role)) ??
      (acted !== undefined && (verdict === undefined || restsOnNoRule(verdict, trace, calls, declared)) ? acted : undefined));
  if (unexplained !== undefined) {
    const ids = [...calls.values()].filter((call) => call.role === unexplained).map((call) => call.id);
    const what =
      unexplained === endingRole
        ? `the episode ended on the ${unexplained}'s output (${end?.type === 'end' ? end.reason : ''})`
        : verdict === undefined
          ? 'no attribution rule explains the failure'
          : `the rules' verdict (${verdict.component}.${verdict.mode}) rests on the ${unexplained}'s output`;
    const unattributed: Attribution = {
      component: 'unattributed',
      mode: 'no_rule',
      evidence: [...new Set([...ids, ...(end ? [end.id] : [])])],
      explanation: `The strategy declared the role ${unexplained} with component none, so no attribution rule judges its replies, and ${what}: its model calls at event(s) ${ids.join(', ')} are the evidence; no component is blamed.`,
      role: unexplained,
    };
    if (verdict === undefined || !('cost' in verdict)) return unattributed;
    const finding: EpisodeFinding = { ...unattributed, cost: verdict.cost };
    return finding;
  }
  if (verdict === undefined) return undefined;
  const named = evidenceRoles.find((role) => role !== undefined);
  if (named === undefined) return verdict;
  const at = verdict.evidence[evidenceRoles.indexOf(named)];
  return {
    ...verdict,
    role: named,
    explanation: `${verdict.explanation} (Event ${at} is the output of the declared role ${named}, judged as the ${declared[named]}.)`,
  };
}
