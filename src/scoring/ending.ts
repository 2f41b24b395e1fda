// Whether an episode's ending counts as the ending its task expects (decision 0006: a budget ending with a report).

/** The parts of an outcome the ending rule reads. */
export interface EndingOutcome {
  status: string;
  answer?: string | undefined;
}

/** The parts of a task the ending rule reads. */
export interface EndingTask {
  expect: 'finish' | 'stop';
  checks: ReadonlyArray<{ check: string } | Record<string, unknown>>;
}

/** Checks that judge what the developer is told, not the repository. */
const ANSWER_CHECKS = new Set(['answer_contains', 'answer_value', 'judged']);

/**
 * finish ↔ `finished`, stop ↔ `stopped`; and a `budget_exhausted` run whose report answered (non-empty
 * `answer`) counts as a finish on a task that expects one and judges the answer (it has an `answer_contains`
 * or `answer_value` or `judged` check on the answer): the report is what the developer receives, and the task's checks still decide whether it answers
 * (seed 001's currency question: EUR, found on the first read, reported after the replan cap). A budget ending
 * never counts as a stop, and on a task judged on the repository alone it stays a failure: nothing scored shows
 * that the loop knew the work was done. Source: docs/decisions/0006-budget-endings-report.md.
 */
export function endingMatches(task: EndingTask, outcome: EndingOutcome): boolean {
  if (task.expect === 'stop') return outcome.status === 'stopped';
  if (outcome.status === 'finished') return true;
  return (
    outcome.status === 'budget_exhausted' &&
    (outcome.answer ?? '').trim() !== '' &&
    task.checks.some((check) => {
      const record = check as Record<string, unknown>;
      return ANSWER_CHECKS.has(String(record['check'])) && (record['on'] === undefined || record['on'] === 'answer');
    })
  );
}
