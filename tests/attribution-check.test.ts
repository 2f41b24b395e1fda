// The attribution check on a fixed subset of the core suite: the goals of issue 4 §3 hold, and every mode has a fault on 2+ tasks.
import { describe, expect, it } from 'vitest';
import { GOALS, measureAccuracy, renderAccuracyReport, runAttributionCheck, type Trial } from '../scripts/attribution-check.js';
import { SCRIPTED_FAULTS } from '../src/models/scripted-faults.js';
import { MODES } from '../src/attribution/modes.js';

/** Seven tasks, every group, every fault's strike point: about 300 faulted episodes, a couple of seconds. */
const SUBSET = ['checkout-tests-status', 'rename-tax-rate', 'bump-node-version', 'moved-readme', 'fix-checkout-test', 'seed-demo-data', 'payments-sandbox-key'];

/** The modes issue 4 §1 asks for, by component. */
const ISSUE_MODES: Record<string, string[]> = {
  planner: ['guessed_target', 'missing_step', 'wrong_check', 'coarse_step', 'invalid_plan'],
  executor: ['drift', 'bad_edit', 'invalid_output'],
  replanner: ['repeated_assumption', 'repeated_call', 'guessed_target', 'vague_stop', 'weakened_check'],
  gate: ['misroute'],
  agent: ['premature_finish', 'no_stop', 'wrong_answer', 'tampered_test', 'guessed_target'],
};

describe('attribution check (fixed subset of tasks/core.yaml)', () => {
  it('meets the component, step and mode goals, and every fault produces its mode on at least two tasks', async () => {
    const { trials } = await runAttributionCheck({ tasks: SUBSET });
    const report = measureAccuracy(trials);
    expect(trials.length).toBeLessThan(400);
    expect(report.measured.length).toBeGreaterThan(150);
    expect(report.component.hits / report.component.n).toBeGreaterThanOrEqual(GOALS.component);
    expect(report.step.hits / report.step.n).toBeGreaterThanOrEqual(GOALS.step);
    expect(report.mode.hits / report.mode.n).toBeGreaterThanOrEqual(GOALS.mode);
    for (const fault of report.byFault) expect({ fault: fault.fault, tasks: fault.tasks.length >= 2 }).toEqual({ fault: fault.fault, tasks: true });
    for (const [component, modes] of Object.entries(ISSUE_MODES)) {
      for (const mode of modes) {
        const faults = Object.values(SCRIPTED_FAULTS).filter((f) => f.role === component && f.mode === mode);
        expect({ component, mode, faults: faults.length > 0 }).toEqual({ component, mode, faults: true });
      }
    }
  });
});

describe('measureAccuracy and the printed report', () => {
  const trial = (over: Partial<Trial>): Trial => ({
    key: 'k',
    fault: 'planner.guessed_target',
    task: 't',
    strategy: 'plan-replan',
    struck: true,
    failed: true,
    truth: { component: 'planner', mode: 'guessed_target', event: 0 },
    attribution: { component: 'planner', mode: 'guessed_target', evidence: [0, 1], explanation: 'x' },
    ...over,
  });

  it('counts component, mode and step hits over struck, failed trials; lists recovered and unstruck ones apart', () => {
    const report = measureAccuracy([
      trial({ key: 'hit' }),
      trial({ key: 'late', attribution: { component: 'planner', mode: 'guessed_target', evidence: [3], explanation: 'x' } }),
      trial({ key: 'wrong', attribution: { component: 'executor', mode: 'drift', evidence: [0], explanation: 'x' } }),
      trial({ key: 'recovered', failed: false, attribution: null }),
      trial({ key: 'unstruck', struck: false, failed: false, attribution: null }),
    ]);
    expect([report.component.hits, report.mode.hits, report.step.hits, report.component.n]).toEqual([2, 2, 2, 3]);
    expect(report.confusion).toEqual({ planner: { planner: 2, executor: 1 } });
    expect(report.misses.map((t) => t.key)).toEqual(['late', 'wrong']);
    expect([report.recovered.map((t) => t.key), report.notStruck.map((t) => t.key)]).toEqual([['recovered'], ['unstruck']]);
    expect(report.component.interval?.lower).toBeCloseTo(0.2077, 3);
  });

  it('prints PASS per goal and FAIL overall when one goal is missed', () => {
    const report = measureAccuracy([
      trial({}),
      trial({ key: 'late', attribution: { component: 'planner', mode: 'guessed_target', evidence: [3], explanation: 'x' } }),
    ]);
    const { text, passed } = renderAccuracyReport(report, { baselineFailed: [] });
    expect(passed).toBe(false);
    expect(text).toMatch(/component\s+2\/2\s+100\.0%.*PASS/);
    expect(text).toMatch(/step\s+1\/2\s+50\.0%.*FAIL/);
    expect(text).toContain('late  truth planner.guessed_target @0  got planner.guessed_target @3');
    expect(text.trim().endsWith('FAIL: a goal was missed')).toBe(true);
  });

  it('names only modes of the closed list', () => {
    for (const fault of Object.values(SCRIPTED_FAULTS)) expect((MODES[fault.role] as readonly string[]).includes(fault.mode)).toBe(true);
  });
});
