// Issue 11 §3: realistic replies through the fake Ollama server and the `run` command path; one episode per component here, the whole corpus in `npm run attribution:check`.
import { describe, expect, it } from 'vitest';
import { addCounterfactuals, runRealisticCorpus } from '../scripts/realistic-corpus.js';
import { measureAccuracy, renderRealisticReport } from '../scripts/attribution-check.js';
import { REALISTIC_CORPUS } from './fixtures/realistic-corpus.js';
import { promptNamesPath } from '../src/attribution/targets.js';

const SAMPLE = [
  'fix-checkout-test/plan-replan/guessed-checkout-js',
  'run-pending-migrations/plan-replan/check-copied-from-request',
  'rename-tax-rate/plan-replan/executor-loses-indentation',
  'moved-readme/gated/multi-step-sent-to-direct',
  'pre-deploy-check/react/fixes-lint-it-was-asked-to-report',
  'bump-node-version/plan-replan/guessed-root-readme',
];

describe('realistic reply corpus', () => {
  it('every episode names a task strategy pair once and expects a first call of a role it uses', () => {
    expect(new Set(REALISTIC_CORPUS.map((e) => e.id)).size).toBe(REALISTIC_CORPUS.length);
    for (const e of REALISTIC_CORPUS) expect(e.id.startsWith(`${e.task}/${e.strategy}/`)).toBe(true);
    expect(REALISTIC_CORPUS.filter((e) => e.source === 'seed-001').length).toBeGreaterThanOrEqual(10);
  });

  it('one episode per component, served over the Ollama protocol, gets the hand attribution (component, mode, first event)', async () => {
    const runs = await runRealisticCorpus(SAMPLE);
    expect(runs.map((r) => [r.trial.key, r.problem]).sort()).toEqual(SAMPLE.map((id) => [id, undefined]).sort());
    const report = measureAccuracy(runs.map((r) => r.trial));
    expect(report.misses.map((t) => t.key)).toEqual([]);
    expect(report.component).toMatchObject({ hits: SAMPLE.length, n: SAMPLE.length });
    for (const run of runs)
      expect(run.record?.models).toMatchObject(Object.fromEntries(Object.keys(run.record!.models).map((role) => [role, 'ollama:qwen3:8b'])));
    await addCounterfactuals(runs);
    // Every episode replayed once per role it used, with no model call (the replay's models reject any call).
    for (const run of runs) expect(run.counterfactual?.component).toBe(run.episode.expected.component);
    const checkout = runs.find((r) => r.trial.key === 'fix-checkout-test/plan-replan/guessed-checkout-js')!.counterfactual!;
    expect(Object.keys(checkout.swaps)).toEqual(['planner', 'executor', 'replanner']);
    // The oracle planner fixes it too, but only by leading the replayed roles into requests the trace never had.
    expect(checkout.fixed_by).toEqual(['planner', 'replanner']);
    expect(checkout.swaps.replanner!.unreplayed).toBeLessThan(checkout.swaps.planner!.unreplayed);
    expect(checkout.agrees_with_rules).toBe(true);
    const { text, passed } = renderRealisticReport(runs);
    expect(passed).toBe(true);
    expect(text).toMatch(/component\s+6\/6\s+100\.0%\s+95% CI \[61\.0%, 100\.0%\]/);
    expect(text).toContain('counterfactual replay');
  });
});

describe('a path the request names', () => {
  it('is a whole path: docs/README.md does not name README.md', () => {
    const prompt = "We're moving to Node 22. Update the version in docs/README.md and in .nvmrc.";
    expect([promptNamesPath(prompt, 'README.md'), promptNamesPath(prompt, 'docs/README.md'), promptNamesPath(prompt, '.nvmrc')]).toEqual([false, true, true]);
    expect(promptNamesPath('look at `src/a.js`', 'src/a.js')).toBe(true);
    expect(promptNamesPath('look at src/a.jsx', 'src/a.js')).toBe(false);
  });
});
