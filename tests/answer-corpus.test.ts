// The checks that judge words, measured on the blind labelled answer corpus (issue 26 §4; decision 0027): the
// figures `npm run answers:check` prints, held as the bar. The corpus was written by a helper that never saw
// the checks, its labels frozen (commits 668a6b5, 64a66b0) before any check ran on it; a rule is never changed to fit
// one item, only a kind with a test of its own (tests/claim-checks.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusFigures, judgeCorpus, readCorpus, type ItemVerdict } from '../scripts/answer-corpus-check.js';

let verdicts: ItemVerdict[] = [];
beforeAll(async () => {
  verdicts = await judgeCorpus();
}, 240_000);

const disagreements = (filter: (verdict: ItemVerdict) => boolean) =>
  verdicts
    .filter(filter)
    .map((verdict) => `${verdict.item.id} ${verdict.item.suite}/${verdict.item.task}: ${verdict.item.text} — ${verdict.refusals.join('; ') || 'accepted'}`);

describe('the answer corpus, judged by the deterministic checks', () => {
  it('judges at least 150 items, about half of them wrong (items whose task changed since labelling are left out, and few)', () => {
    const figures = corpusFigures(verdicts);
    expect(figures.items).toBeGreaterThanOrEqual(150);
    expect(readCorpus().length - figures.items).toBeLessThanOrEqual(10);
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
