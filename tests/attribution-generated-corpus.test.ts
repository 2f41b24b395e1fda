// Issue 27 §3: the blind corpus on generated tasks (labels frozen in 9240e9b/abd3bbd, before any run), served over the
// Ollama protocol through the run path, measured against the goals. `npm run attribution:generated -- --list`
// prints every miss.
import { describe, expect, it } from 'vitest';
import {
  addGeneratedCounterfactuals,
  GENERATED_GOALS,
  measureGenerated,
  renderGeneratedReport,
  runGeneratedCorpus,
} from '../scripts/generated-corpus-check.js';
import { GENERATED_CORPUS } from './fixtures/attribution-corpus-generated.js';

describe('the blind attribution corpus on generated tasks', () => {
  it('has at least 60 failed and 15 successful episodes, each on a generated task', () => {
    expect(GENERATED_CORPUS.filter((e) => e.expected.outcome === 'failure').length).toBeGreaterThanOrEqual(60);
    expect(GENERATED_CORPUS.filter((e) => e.expected.outcome === 'success').length).toBeGreaterThanOrEqual(15);
    expect(GENERATED_CORPUS.every((e) => /-v\d+$/.test(e.task))).toBe(true);
  });

  it('meets the goals: component ≥ 95%, mode ≥ 90%, counterfactual ≥ 90%, no finding on a success, every episode as labelled', async () => {
    const runs = await runGeneratedCorpus();
    await addGeneratedCounterfactuals(runs);
    const figures = measureGenerated(runs);
    const report = renderGeneratedReport(runs, true);
    // Every episode went as labelled (a failure labelled a failure, a success a success): otherwise it measures nothing.
    expect(figures.unmeasured, report).toEqual([]);
    expect(figures.measured).toBeGreaterThanOrEqual(60);
    expect(figures.successes).toBeGreaterThanOrEqual(15);
    expect(figures.component / figures.measured, report).toBeGreaterThanOrEqual(GENERATED_GOALS.component);
    expect(figures.mode / figures.measured, report).toBeGreaterThanOrEqual(GENERATED_GOALS.mode);
    expect(figures.counterfactual.n).toBe(figures.measured);
    expect(figures.counterfactual.hits / figures.counterfactual.n, report).toBeGreaterThanOrEqual(GENERATED_GOALS.counterfactual);
    expect(figures.findingsOnSuccesses, report).toBe(0);
  });
});
