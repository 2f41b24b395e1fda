// Scores an episode: the ending must match `expect` and every check must pass on the final state.
import type { Check } from '../suite/schema.js';
import type { CheckResult, Outcome } from '../records/index.js';
import { runCheck, type FinalState } from './checks.js';
import { endingMatches as endingMatchesTask } from './ending.js';

export interface Score {
  success: boolean;
  /** Whether the ending (finished/stopped) matched the task's `expect`. */
  endingMatches: boolean;
  checks: CheckResult[];
}

/**
 * success = ending matches `expect` (finish ↔ finished, stop ↔ stopped; a budget ending whose report answers a
 * question counts as a finish: `endingMatches` in ending.ts) and every check passes.
 * A task with zero checks never scores as a pass (harness-pitfalls HB20). `error` episodes are not
 * a strategy's result: success is false and the runner excludes them from rates.
 * Throws only for a task with no checks (a suite bug the loader already rejects).
 */
export function score(task: { expect: 'finish' | 'stop'; checks: readonly Check[] }, outcome: Outcome, state: FinalState): Score {
  if (task.checks.length === 0) throw new Error('a task with zero checks cannot be scored');
  const checks = task.checks.map((check) => runCheck(check, state));
  const endingMatches = endingMatchesTask(task, outcome);
  return { success: outcome.status !== 'error' && endingMatches && checks.every((c) => c.pass), endingMatches, checks };
}
