// Attribution: which component caused a failed episode, in which mode, with the trace events that show it.
import type { Attribution, CheckResult } from '../records/index.js';
import type { TraceEvent } from '../records/index.js';
import { earliest, failingChecks, type AttributionState, type AttributionTask, type Rule, type RuleInput } from './finding.js';
import { indexTrace } from './trace-index.js';
import { callsDeclaredRole, judgeDeclaredRoles, readAsComponents, type DeclaredComponents } from './declared-roles.js';
import { invalidOutput } from './rules/invalid-output.js';
import { contextExceeded } from './rules/context-exceeded.js';
import { tamperedGrader } from './rules/tampered-grader.js';
import { misroute } from './rules/misroute.js';
import { guessedTarget } from './rules/guessed-target.js';
import { wrongCheck } from './rules/wrong-check.js';
import { coarseStep, coarseStepProse } from './rules/coarse-step.js';
import { badEdit } from './rules/bad-edit.js';
import { drift } from './rules/drift.js';
import { repeatedCall } from './rules/repeated-call.js';
import { repeatedAssumption } from './rules/repeated-assumption.js';
import { weakenedCheck } from './rules/weakened-check.js';
import { tamperedTest } from './rules/tampered-test.js';
import { vagueStop } from './rules/vague-stop.js';
import { noStop } from './rules/no-stop.js';
import { prematureFinish } from './rules/premature-finish.js';
import { wrongAnswer } from './rules/wrong-answer.js';
import { budgetExhausted } from './rules/budget-exhausted.js';
import { processExit, processHang } from './rules/process-ending.js';
import { missingStep } from './rules/missing-step.js';
import { agentOverreach, executorOverreach } from './rules/overreach.js';
import { noProgress } from './rules/no-progress.js';
import { endingMatches as endingMatchesTask } from '../scoring/ending.js';

/**
 * Rules that find a wrong act at a definite event. All run; the earliest first erroneous event wins, and on a tie
 * (two mistakes in one reply) the rule listed first (docs/decisions/0004-attribution.md, "Precedence").
 */
export const ACT_RULES: ReadonlyArray<readonly [string, Rule]> = [
  ['invalid_output', invalidOutput],
  ['misroute', misroute],
  ['agent_overreach', agentOverreach],
  ['guessed_target', guessedTarget],
  ['wrong_check', wrongCheck],
  ['coarse_step', coarseStep],
  ['bad_edit', badEdit],
  ['executor_overreach', executorOverreach],
  ['drift', drift],
  ['repeated_call', repeatedCall],
  ['repeated_assumption', repeatedAssumption],
  ['no_progress', noProgress],
  ['weakened_check', weakenedCheck],
  ['tampered_test', tamperedTest],
];

/** Rules about how the episode ended, tried in this order only when no act rule applies; missing_step is the last resort. */
export const ENDING_RULES: ReadonlyArray<readonly [string, Rule]> = [
  // An external agent's process that exited on its own, or never called anything before its deadline (issue 28).
  ['process_exit', processExit],
  ['process_hang', processHang],
  ['vague_stop', vagueStop],
  ['no_stop', noStop],
  ['premature_finish', prematureFinish],
  ['wrong_answer', wrongAnswer],
  ['budget', budgetExhausted],
  // A step in prose that lists several things: a tie-breaker, never above a structural finding, only above the last resort.
  ['coarse_step_prose', coarseStepProse],
  ['missing_step', missingStep],
];

/**
 * Attributes a failed episode: `{component, mode, evidence, explanation}` with `evidence[0]` the first erroneous
 * event, or null for an episode that succeeded (ending matches `expect`, every check passes) or ended in `error`
 * (infrastructure, never a strategy's failure). Pure: reads the trace (with the episode's final `check` events),
 * the task, the final repository state and the check results; never throws for a well-formed trace.
 * An episode ended by a prompt past the context window is blamed on the role that sent it (`context_exceeded`) before
 * any other rule runs. A failed episode that no rule explains gets a last-resort verdict (premature_finish for direct/ReAct,
 * missing_step for plan strategies), so every failure is counted somewhere.
 * `declared`: the roles the strategy module declared, with their components (see declared-roles.ts): their calls are
 * judged as their component's role, a verdict on their output names them (`role`), and a failure resting on a role
 * declared `none` (or one no rule explains where it acted) is `unattributed.no_rule` instead of a guess.
 */
export function attribute(
  task: AttributionTask,
  trace: readonly TraceEvent[],
  finalState: AttributionState,
  checkResults: readonly CheckResult[],
  declared: DeclaredComponents = {},
): Attribution | null {
  const end = [...trace].reverse().find((e) => e.type === 'end');
  if (!end || end.type !== 'end' || end.status === 'error') return null;
  const endingMatches = endingMatchesTask(task, end);
  const { state, words } = failingChecks(checkResults);
  if (endingMatches && state.length === 0 && words.length === 0) return null;
  if (!callsDeclaredRole(trace, declared)) return rulesVerdict(task, trace, finalState, checkResults) ?? lastResort(trace, end);
  // Roles a strategy module declared: its calls read as its component's role, then the verdict checked against them.
  const verdict = judgeDeclaredRoles(rulesVerdict(task, readAsComponents(trace, declared), finalState, checkResults), trace, declared);
  return verdict ?? lastResort(readAsComponents(trace, declared), end);
}

/** The rules' verdict on a failed episode, or undefined where none applies. */
function rulesVerdict(
  task: AttributionTask,
  trace: readonly TraceEvent[],
  finalState: AttributionState,
  checkResults: readonly CheckResult[],
): Attribution | undefined {
  const index = indexTrace(trace);
  const input: RuleInput = { task, index, final: finalState, checks: checkResults };
  // A prompt past the context window ended the episode at a definite call: that role, before any other rule.
  const limit = contextExceeded(input);
  if (limit) return limit;
  // Code that tampered with the grader (or left it a result it could not read) is the verdict, whatever else went wrong.
  const tampered = tamperedGrader(input);
  if (tampered) return tampered;
  const act = earliest(ACT_RULES.map(([, rule]) => rule(input)));
  return act ?? ENDING_RULES.map(([, rule]) => rule).reduce<ReturnType<Rule>>((found, rule) => found ?? rule(input), undefined);
}

/** No rule matched: the last model call's family gets the blame (planner.missing_step or agent.premature_finish), so every failure is counted. */
function lastResort(trace: readonly TraceEvent[], end: Extract<TraceEvent, { type: 'end' }>): Attribution {
  const index = indexTrace(trace);
  const last = [...index.modelCalls].reverse()[0];
  return {
    component: index.family === 'plan' ? 'planner' : 'agent',
    mode: index.family === 'plan' ? 'missing_step' : 'premature_finish',
    evidence: [last?.id ?? end.id, end.id].filter((id, i, all) => all.indexOf(id) === i),
    explanation: `No rule matched; the episode ended ${end.status} (${end.reason}) at event ${end.id} without meeting the task.`,
  };
}
