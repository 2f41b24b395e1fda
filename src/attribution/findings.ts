// Costs attributable to a role on a successful episode: findings, not failures (issue 11 §1).
import type { CheckResult, EpisodeFinding, TraceEvent } from '../records/index.js';
import type { AttributionState, AttributionTask, RuleInput } from './finding.js';
import { actFindings, executorToolErrors, repairedOutputs } from './findings-acts.js';
import { READ_TOOLS, repeatedReads, simpleQuestionPlanned, unneededSteps } from './findings-waste.js';
import { cannotPass } from './rules/wrong-check.js';
import { canonical, describeCheck } from './targets.js';
import { indexTrace, type PlanVersion, type TraceIndex } from './trace-index.js';
import { callsDeclaredRole, judgeDeclaredRoles, readAsComponents, type DeclaredComponents } from './declared-roles.js';

/**
 * The kinds of finding, `component.mode` as a record shows them, each with what it costs
 * (docs/decisions/0009-findings-and-counterfactual-run.md):
 * - `planner|replanner.wrong_check`: a done_when check that never passed although the task was met;
 * - `planner|replanner|agent.guessed_target`, `executor.bad_edit`, `executor.drift`, `replanner.repeated_call`,
 *   `replanner.repeated_assumption`, `replanner.no_progress`: the failure rule's wrong act, which the episode recovered from;
 * - `executor.tool_error`: a call whose args the executor chose failed (not transiently) and the work was redone;
 * - `<role>.invalid_output`: a reply that needed the repair call;
 * - `<author>.repeated_read`: a read-only call repeated with the same args on an unchanged repository;
 * - `gate.misroute`: a question one call settles sent to the planner;
 * - `planner|replanner.unneeded_step`: plan steps that never ran, and nothing like them did, yet the task was met.
 */
export const FINDING_KINDS = [
  'wrong_check',
  'guessed_target',
  'bad_edit',
  'drift',
  'repeated_call',
  'repeated_assumption',
  'no_progress',
  'tool_error',
  'invalid_output',
  'repeated_read',
  'misroute',
  'unneeded_step',
] as const;

/**
 * What a successful episode spent because of one role's mistake, each with its evidence (trace event ids, the first
 * erroneous event first) and its cost (replans, model calls, tool calls). Ordered by first erroneous event. Pure; the caller passes successful episodes only (a failure's cost is its attribution).
 * `declared`: the strategy module's declared roles, read as their components as `attribute` reads them; a finding on a
 * role declared `none` is `unattributed.no_rule` (with its cost).
 */
export function costFindings(
  task: AttributionTask,
  trace: readonly TraceEvent[],
  final: AttributionState,
  checks: readonly CheckResult[],
  declared: DeclaredComponents = {},
): EpisodeFinding[] {
  if (!callsDeclaredRole(trace, declared)) return builtInFindings(task, trace, final, checks);
  return builtInFindings(task, readAsComponents(trace, declared), final, checks).map(
    (finding) => judgeDeclaredRoles(finding, trace, declared) as EpisodeFinding,
  );
}

function builtInFindings(task: AttributionTask, trace: readonly TraceEvent[], final: AttributionState, checks: readonly CheckResult[]): EpisodeFinding[] {
  // One pass for the signs any finding needs; most successes show none and cost nothing more (the rules below index
  // the trace and run the failure rules, which dominated a scripted episode's cost).
  let recovered = false; // a failed or refused call, a rejected reply, a revision or a budget event
  let signs = false; // a failing done_when check, a skipped step, the gate choosing the planner, a read tool used twice
  const reads = new Set<string>();
  for (const event of trace) {
    if (
      (event.type === 'tool_call' && event.status !== 'success') ||
      (event.type === 'model_call' && event.outcome === 'invalid') ||
      event.type === 'plan_revision' ||
      event.type === 'budget'
    ) {
      recovered = true;
      break;
    }
    if (
      (event.type === 'check' && event.scope === 'done_when' && !event.pass) ||
      (event.type === 'step_end' && event.status === 'skipped') ||
      (event.type === 'gate' && event.route === 'plan-replan')
    )
      signs = true;
    else if (event.type === 'tool_call' && READ_TOOLS.has(event.tool)) {
      if (reads.has(event.tool)) signs = true;
      reads.add(event.tool);
    }
  }
  if (!recovered && !signs) return [];
  const index = indexTrace(trace);
  const input: RuleInput = { task, index, final, checks };
  const acts = recovered ? actFindings(input) : [];
  const found = [
    ...wrongChecks(task, index),
    ...acts,
    ...(recovered ? executorToolErrors(input, new Set(acts.flatMap((f) => f.evidence))) : []),
    ...repairedOutputs(index),
    ...repeatedReads(index),
    ...simpleQuestionPlanned(input),
    ...unneededSteps(index),
  ];
  return found.sort((a, b) => (a.evidence[0] ?? 0) - (b.evidence[0] ?? 0));
}

/**
 * A done_when check that never passed in the episode although the task was met — it failed at its last evaluation,
 * or a revision dropped it after it failed (seed 001: the currency question's `defaultCurrency` check "made the loop
 * do extra work on a task that was already finished"). On a must-stop task a failing check is how the blocker shows,
 * so only a check that cannot pass (no such command, script or file) counts there. Blamed on the plan version that
 * introduced it, with the replans, model calls and tool calls made from its first failure on. Evidence: the
 * author's model call, the plan event, the check's first failure.
 */
function wrongChecks(task: AttributionTask, index: TraceIndex): EpisodeFinding[] {
  if (index.plans.length === 0) return [];
  const byCheck = new Map<string, { first: number; passed: boolean; impossible: boolean }>();
  for (const event of index.doneWhenChecks) {
    const key = canonical(event.check);
    const seen = byCheck.get(key);
    if (seen) {
      seen.passed ||= event.pass;
      seen.impossible ||= !event.pass && cannotPass(event.detail);
    } else byCheck.set(key, { first: event.id, passed: event.pass, impossible: !event.pass && cannotPass(event.detail) });
  }
  const findings: EpisodeFinding[] = [];
  for (const [key, seen] of byCheck) {
    if (seen.passed || (task.expect === 'stop' && !seen.impossible)) continue;
    const author = introducedBy(index.plans, key);
    if (!author) continue;
    const check = index.doneWhenChecks.find((e) => e.id === seen.first)!.check;
    const replans = index.plans.filter((p) => p.author === 'replanner' && p.eventId > seen.first).length;
    const modelCalls = index.modelCalls.filter((e) => e.id > seen.first).length;
    const toolCalls = index.toolCalls.filter((e) => e.id > seen.first).length;
    findings.push({
      component: author.author,
      mode: 'wrong_check',
      evidence: [author.authorCallId, author.eventId, seen.first],
      explanation: `The ${author.author === 'planner' ? 'first plan' : `revision ${author.revision}`} (event ${author.authorCallId}) required ${describeCheck(check)}, which never passed although the task was met; from its first failure (event ${seen.first}) it cost ${replans} replan(s), ${modelCalls} model call(s) and ${toolCalls} tool call(s).`,
      cost: { replans, model_calls: modelCalls, tool_calls: toolCalls },
    });
  }
  return findings;
}

/** The first plan version whose done_when holds the check (canonical key). */
const introducedBy = (plans: readonly PlanVersion[], key: string): PlanVersion | undefined =>
  plans.find((plan) => plan.doneWhen.some((check) => canonical(check) === key));
