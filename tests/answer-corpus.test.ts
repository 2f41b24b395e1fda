// The checks that judge words, measured on the blind labelled answer corpus (issue 26 §4; decision 0027): the
// figures `npm run answers:check` prints, held as the bar. The corpus was written by a helper that never saw
// the checks, its labels frozen (commits 668a6b5, 64a66b0) before any check ran on it; a rule is never changed to fit
// one item, only a kind with a test of its own (tests/claim-checks.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { corpusFigures, facesOf, judgeCorpus, readCorpus, type ItemVerdict } from '../scripts/answer-corpus-check.js';

/** The seven held-out sets, each measured once before the checks were tuned on it (figures in the corpus README and the notes of issue 26). */
const HELD_OUT = ['heldout.json', 'heldout2.json', 'heldout3.json', 'heldout4.json', 'heldout5.json', 'heldout6.json', 'heldout7.json'].map((name) =>
  fileURLToPath(new URL(`./fixtures/answer-corpus/${name}`, import.meta.url)),
);

let verdicts: ItemVerdict[] = [];
let heldOut: ItemVerdict[] = [];
beforeAll(async () => {
  verdicts = await judgeCorpus();
  for (const file of HELD_OUT) heldOut.push(...(await judgeCorpus(readCorpus(file), {}, facesOf(file))));
});

const disagreements = (filter: (verdict: ItemVerdict) => boolean) =>
  verdicts
    .filter(filter)
    .map((verdict) => `${verdict.item.id} ${verdict.item.suite}/${verdict.item.task}: ${verdict.item.text} — ${verdict.refusals.join('; ') || 'accepted'}`);

describe('the answer corpus, judged by the deterministic checks', () => {
  it('judges at least 150 items, about half of them wrong (items whose task changed since labelling are left out, and few)', () => {
    const figures = corpusFigures(verdicts);
    expect(figures.items).toBeGreaterThanOrEqual(150);
    expect(readCorpus().length - figures.items).toBeLessThanOrEqual(12);
    expect(figures.wrong / figures.items).toBeGreaterThan(0.35);
  });

  it('refuses no correct answer or stop message', () => {
    expect(disagreements((verdict) => verdict.item.label === 'correct' && !verdict.accepted)).toEqual([]);
  });

  it('accepts at most 3% of the wrong ones, and no echo of the question and no result of a command never run', () => {
    const figures = corpusFigures(verdicts);
    expect(figures.wrongAccepted / figures.wrong).toBeLessThanOrEqual(0.03);
    expect(
      disagreements((verdict) => verdict.item.label === 'wrong' && verdict.accepted && (verdict.item.style === 'echo' || verdict.item.style === 'never_run')),
    ).toEqual([]);
  });
});

/**
 * Labels the checks disagree with for a reason the label rule gives: r020 is labelled correct, but it says the agent
 * reset the fixtures and saw the test fail, and its steps do neither (a result of a command never run).
 */
const DISPUTED = new Set(['r020']);

describe('the seven held-out sets, as regression sets now (the checks were tuned on them after their first measurement)', () => {
  it('refuse no correct answer, accept no more wrong ones than measured (6 of 561: claims about what code does or why, a mislabelled release, the wrong line), no echo', () => {
    const figures = corpusFigures(heldOut);
    expect(figures.items).toBeGreaterThanOrEqual(1_050);
    expect(
      heldOut
        .filter((verdict) => verdict.item.label === 'correct' && !verdict.accepted && !DISPUTED.has(verdict.item.id))
        .map((verdict) => `${verdict.item.id}: ${verdict.refusals.join('; ')}`),
    ).toEqual([]);
    // A ceiling at the level measured: a change that accepts more wrong answers fails here.
    expect(figures.wrongAccepted).toBeLessThanOrEqual(6);
    expect(
      heldOut.filter((verdict) => verdict.item.label === 'wrong' && verdict.accepted && verdict.item.style === 'echo').map((verdict) => verdict.item.id),
    ).toEqual([]);
  });
});
