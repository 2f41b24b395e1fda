// The scripted judge: a deterministic stand-in for a judge model (offline runs, `validate`), not a measure of quality.
import type { Check } from '../../suite/schema.js';

/** A judge's verdict on one text against one rubric (the reply schema of the judge role). */
export interface Verdict {
  verdict: 'pass' | 'fail';
  reason: string;
}

/** Placeholder until the rule is written (after the labelled answer set): fails every text. */
export function scriptedVerdict(_rubric: string, text: string | undefined): Verdict {
  return { verdict: 'fail', reason: text === undefined ? 'nothing to judge' : 'the scripted judge has no rule yet' };
}

export type JudgedCheck = Extract<Check, { check: 'judged' }>;

/**
 * The text a `judged` check grades: its `on`, else the task's expect (finish → answer, stop → message). Without
 * `expect` (the in-code check sees only the final state) the ending's own text: the answer of a finished episode,
 * else the stop message — the same text whenever the ending matches expect, and an episode whose ending does not
 * match fails on its ending anyway.
 */
export function judgedText(
  check: JudgedCheck,
  state: { answer?: string | undefined; message?: string | undefined },
  expect?: 'finish' | 'stop',
): { on: 'answer' | 'message'; text: string | undefined } {
  const on = check.on ?? (expect === undefined ? (state.answer !== undefined ? 'answer' : 'message') : expect === 'finish' ? 'answer' : 'message');
  return { on, text: on === 'answer' ? state.answer : state.message };
}

/** The `judged` check graded in code by the scripted judge: `{ pass, detail }` as every check handler returns. */
export function scriptedJudgedCheck(
  check: JudgedCheck,
  state: { answer?: string | undefined; message?: string | undefined },
  expect?: 'finish' | 'stop',
): { pass: boolean; detail: string } {
  const { on, text } = judgedText(check, state, expect);
  if (text === undefined) return { pass: false, detail: `no ${on === 'answer' ? 'answer' : 'stop message'} to judge` };
  const verdict = scriptedVerdict(check.rubric, text);
  return { pass: verdict.verdict === 'pass', detail: `scripted judge: ${verdict.verdict}: ${verdict.reason}` };
}
