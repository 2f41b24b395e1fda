// Grades an episode's `judged` checks with the run's judge after the episode, and merges the verdicts into its score.
import type { Score } from '../scoring/score.js';
import { judgedText, type JudgedCheck } from '../scoring/judge/scripted-judge.js';
import type { Check } from '../suite/schema.js';
import type { CheckResult, Outcome, TraceEvent } from '../records/index.js';
import { judgeToolCalls, type Judge } from './judge.js';

/** Whether a check is graded by the judge. */
export const isJudged = (check: Check): check is JudgedCheck => check.check === 'judged';

/** The task ids (suite order) that have a `judged` check: `run` without `--judge` refuses them (exit 2). */
export function tasksWithJudgedChecks(tasks: ReadonlyArray<{ id: string; checks: readonly Check[] }>): string[] {
  return tasks.filter((task) => task.checks.some(isJudged)).map((task) => task.id);
}

/** What grading needs of an episode. */
export interface JudgedEpisode {
  task: { id: string; prompt: string; expect: 'finish' | 'stop'; checks: readonly Check[] };
  outcome: Outcome;
  events: readonly TraceEvent[];
  epoch: number;
  seed: number;
}

/**
 * The score with every `judged` check graded by `judge` (one call per check, in check order) and `success` recomputed
 * by score()'s rule (ending matches and every check passes). A scripted judge, an `error` outcome or a task without
 * judged checks returns `scored` as it is (the in-code verdicts are the scripted judge's). A check whose text is
 * absent (no answer, no stop message) fails without a call. Detail: `judge <model>: pass|fail: <reason>`.
 * Throws JudgeFailure (infrastructure: the caller records the episode as `error`) or CallInterrupted.
 */
export async function gradeJudgedChecks(episode: JudgedEpisode, scored: Score, judge: Judge): Promise<Score> {
  const { task, outcome } = episode;
  if (judge.scripted || outcome.status === 'error' || !task.checks.some(isJudged)) return scored;
  const toolCalls = judgeToolCalls(episode.events);
  const checks: CheckResult[] = [];
  for (const [index, check] of task.checks.entries()) {
    const result = scored.checks[index]!;
    if (!isJudged(check)) {
      checks.push(result);
      continue;
    }
    const { on, text } = judgedText(check, { answer: outcome.answer, message: outcome.message }, task.expect);
    if (text === undefined || text.trim() === '') {
      checks.push({ ...result, pass: false, detail: `no ${on === 'answer' ? 'answer' : 'stop message'} to judge` });
      continue;
    }
    const verdict = await judge.grade(
      { role: 'judge', task_id: task.id, prompt: task.prompt, rubric: check.rubric, graded: on, text, ...toolCalls },
      { epoch: episode.epoch, seed: episode.seed },
    );
    checks.push({ ...result, pass: verdict.verdict === 'pass', detail: `judge ${judge.name}: ${verdict.verdict}: ${verdict.reason}` });
  }
  return { ...scored, checks, success: scored.endingMatches && checks.every((check) => check.pass) };
}
