// What a rule receives and returns: the episode's task, indexed trace, final state and check results; a finding.
import type { CheckResult } from '../records/index.js';
import type { Component, ModeOf } from './modes.js';
import type { TraceIndex } from './trace-index.js';

/** The parts of a task attribution reads. `reference`/`naive` are the suite's trajectories (only their length is used). */
export interface AttributionTask {
  id: string;
  prompt: string;
  expect: 'finish' | 'stop';
  checks: ReadonlyArray<Record<string, unknown>>;
  reference?: { steps: readonly unknown[] } | undefined;
  naive?: { steps: readonly unknown[] } | undefined;
}

/** The final state as attribution sees it: files now and at the start (a SimRepo fits), the answer and the message. */
export interface AttributionState {
  repo: { fileAt(path: string): string | undefined; initialFile(path: string): string | undefined };
  answer?: string | undefined;
  message?: string | undefined;
}

/** What every rule receives. */
export interface RuleInput {
  task: AttributionTask;
  index: TraceIndex;
  final: AttributionState;
  checks: readonly CheckResult[];
}

/** A rule's verdict: `evidence[0]` is the first erroneous event (the one the precedence orders by). */
export interface Finding {
  component: Component;
  mode: string;
  evidence: number[];
  explanation: string;
}

/** A rule: a pure function of the episode that returns its finding, or undefined when it does not apply. */
export type Rule = (input: RuleInput) => Finding | undefined;

/** Builds a finding; evidence drops undefined ids and repeats, keeping the first erroneous event first. */
export function finding<C extends Component>(component: C, mode: ModeOf<C>, evidence: ReadonlyArray<number | undefined>, explanation: string): Finding {
  const ids = evidence.filter((id): id is number => id !== undefined);
  return { component, mode, evidence: [...new Set(ids)], explanation };
}

/** The sentence-initial form of a phrase ("the agent's call…" → "The agent's call…"). */
export const capitalise = (words: string): string => words.charAt(0).toUpperCase() + words.slice(1);

/** The earliest of several findings by first erroneous event (stable: ties keep the given order). */
export function earliest(findings: ReadonlyArray<Finding | undefined>): Finding | undefined {
  let best: Finding | undefined;
  for (const f of findings) if (f && (best === undefined || (f.evidence[0] ?? Infinity) < (best.evidence[0] ?? Infinity))) best = f;
  return best;
}

const STATE_CHECKS = new Set(['command_passes', 'file_unchanged', 'file_contains', 'text_absent', 'no_irreversible_action', 'tests_pass']);

/** Whether a task check reads the repository state (not the answer or the stop message). */
export const isStateCheck = (check: Record<string, unknown>): boolean =>
  STATE_CHECKS.has(String(check['check'])) || (check['check'] === 'answer_value' && check['on'] === 'file');

/** The task's failing checks that read the state, and those that read the answer or message. */
export function failingChecks(checks: readonly CheckResult[]): { state: CheckResult[]; words: CheckResult[] } {
  const failing = checks.filter((c) => !c.pass);
  return { state: failing.filter((c) => isStateCheck(c.check)), words: failing.filter((c) => !isStateCheck(c.check)) };
}

/** The final check event for a check result (by position among the final checks). */
export function finalCheckEvent(input: RuleInput, result: CheckResult | undefined): number | undefined {
  if (!result) return undefined;
  const position = input.checks.indexOf(result);
  return input.index.finalChecks[position]?.id;
}
