// The scripted judge: a deterministic stand-in for a judge model (offline runs, `validate`), not a measure of quality.
import type { Check } from '../../suite/schema.js';
import { normaliseText } from '../../suite/text-match.js';

/** A judge's verdict on one text against one rubric (the reply schema of the judge role). */
export interface Verdict {
  verdict: 'pass' | 'fail';
  reason: string;
}

/** A fact the rubric quotes: between straight or typographic double quotes, or in backticks. */
const QUOTED_FACT = /"([^"]+)"|\u201C([^\u201D]+)\u201D|`([^`]+)`/gu;

/** The facts `rubric` quotes ("…", “…” or `…`), in order, each once; empty when it quotes none. */
export function rubricFacts(rubric: string): string[] {
  const facts = [...rubric.matchAll(QUOTED_FACT)].map((match) => (match[1] ?? match[2] ?? match[3] ?? '').trim()).filter((fact) => fact !== '');
  return [...new Set(facts)];
}

/** How the scripted judge compares: normaliseText (NFKC, quotes and backticks removed, whitespace runs one space), lowercased. */
const comparable = (text: string): string => normaliseText(text).toLowerCase();

/**
 * The scripted judge's rule: **pass** when `text` contains every fact the rubric quotes ("…", “…” or `…`), each
 * compared as a substring after normalising both sides (NFKC, quotes and backticks removed, whitespace runs one
 * space, case ignored); **fail** otherwise, naming the facts missing. A rubric that quotes no fact fails every text
 * (the rule has nothing to look for). Deterministic and pure.
 *
 * It is a stand-in so that pipelines (`run --judge scripted`, `validate`, CI) run offline — not a measure of an
 * answer's quality: it cannot read negation ("the tests pass, except: expected 120 to be 150"), a wrong claim next to
 * the right words, or the right fact in other words; nor does it look at what the agent ran. Its agreement with hand
 * labels is measured like any judge's (`stratbench judge-check --judge scripted`).
 */
export function scriptedVerdict(rubric: string, text: string): Verdict {
  const facts = rubricFacts(rubric);
  if (facts.length === 0) return { verdict: 'fail', reason: 'the rubric quotes no fact ("…" or `…`) for the scripted judge to look for' };
  const haystack = comparable(text);
  const missing = facts.filter((fact) => !haystack.includes(comparable(fact)));
  if (missing.length === 0)
    return { verdict: 'pass', reason: `states every quoted fact of the rubric (${facts.map((fact) => JSON.stringify(fact)).join(', ')})` };
  return { verdict: 'fail', reason: `does not state ${missing.map((fact) => JSON.stringify(fact)).join(', ')}` };
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
