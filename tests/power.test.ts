// `stratbench power`: Connor's sample size against published calculators, the epoch and family models, the estimates
// from a results folder, and every refused flag (exit 2).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  detectableEffects,
  epochVarianceFactor,
  estimatePowerInputs,
  familyDesignEffectBound,
  intraclassCorrelation,
  pairedPower,
  pairedSampleSize,
  tasksNeeded,
  type PowerReport,
} from '../src/report/power.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { scratch, stratbench } from './support/cli.js';
import { episodeRecord, runFile } from './support/results-files.js';

const base = { alpha: 0.05, power: 0.8, taskCorrelation: 0.5, designEffect: 1 };

describe('pairedSampleSize (Connor 1987) against published calculators', () => {
  it('p01 = 0.45, p10 = 0.05, α = 0.05, power 0.8 → 23 pairs (powerandsamplesize.com, "McNemar Z-test, 2-Sided Equality": ceiling(n) # 23)', () => {
    // Source: http://powerandsamplesize.com/Calculators/Compare-Paired-Proportions/McNemar-Z-test-2-Sided-Equality
    // (HyLown Consulting; the same R code at zarathucorp.github.io/open-powersamplesize), citing Connor 1987 p. 209.
    expect(Math.ceil(pairedSampleSize({ effect: 0.4, discordance: 0.5, alpha: 0.05, power: 0.8 }))).toBe(23);
    expect(tasksNeeded(0.4, { ...base, discordance: 0.5 }, [1])).toEqual([{ epochs: 1, epochFactor: 1, tasks: 23 }]);
  });
  it('discordant proportion 0.45, |p10 − p01| = 0.15, α = 0.05, power 0.8 → 155 pairs (clinicaltrials-tools McNemar calculator, Connor 1987)', () => {
    // Source: https://clinicaltrials-tools.vercel.app/calculators/mcnemar-test — "Required Sample Size 155",
    // total discordant proportion 0.450, discordant odds ratio 2 (p10 = 0.30, p01 = 0.15).
    expect(Math.ceil(pairedSampleSize({ effect: 0.15, discordance: 0.45, alpha: 0.05, power: 0.8 }))).toBe(155);
  });
  it('refuses an effect larger than the discordance (|p10 − p01| ≤ p10 + p01)', () => {
    expect(() => pairedSampleSize({ effect: 0.2, discordance: 0.1, alpha: 0.05, power: 0.8 })).toThrow(RangeError);
  });
  it('pairedPower is the power the sample size was solved for', () => {
    const n = pairedSampleSize({ effect: 0.15, discordance: 0.45, alpha: 0.05, power: 0.8 });
    expect(pairedPower({ effect: 0.15, discordance: 0.45, alpha: 0.05, n })).toBeCloseTo(0.8, 6);
    // δ = ψ = 1: no spread under the alternative, so the test either always or never rejects (δ√n vs z₀.₉₇₅ = 1.96).
    expect(pairedPower({ effect: 1, discordance: 1, alpha: 0.05, n: 4 })).toBe(1);
    expect(pairedPower({ effect: 1, discordance: 1, alpha: 0.05, n: 3 })).toBe(0);
  });
});

describe('epochs and families', () => {
  it('k epochs shrink only the within-task share: ρ + (1 − ρ)/k', () => {
    expect(epochVarianceFactor(1, 0.5)).toBe(1);
    expect(epochVarianceFactor(5, 0.5)).toBeCloseTo(0.6, 12);
    expect(epochVarianceFactor(5, 1)).toBe(1);
    expect(epochVarianceFactor(4, 0)).toBe(0.25);
  });
  it('tasks needed at ψ = 0.3, δ = 5 pp: 940 with one epoch, fewer with more epochs, never below n₁·ρ', () => {
    const rows = tasksNeeded(0.05, { ...base, discordance: 0.3 });
    const single = pairedSampleSize({ effect: 0.05, discordance: 0.3, alpha: 0.05, power: 0.8 });
    expect(rows.map((row) => row.tasks)).toEqual([1, 2, 3, 5].map((k) => Math.ceil(single * (0.5 + 0.5 / k))));
    expect(rows[0]?.tasks).toBe(940);
    expect(tasksNeeded(0.05, { ...base, discordance: 0.3, taskCorrelation: 1 }).map((row) => row.tasks)).toEqual([940, 940, 940, 940]);
  });
  it('a design effect multiplies the tasks; the family size turns them into families', () => {
    const [row] = tasksNeeded(0.4, { ...base, discordance: 0.5, designEffect: 2, familySize: 4 }, [1]);
    expect(row).toEqual({ epochs: 1, epochFactor: 1, tasks: 45, families: 12 });
  });
  it("a suite's bound is Σm²/Σm: families of 3, 3 and 1 tasks → 19/7", () => {
    expect(familyDesignEffectBound([3, 3, 1])).toBeCloseTo(19 / 7, 12);
    expect(familyDesignEffectBound([1, 1, 1])).toBe(1);
  });
  it('the MDE at the tasks needed is at most the effect, and one task fewer cannot reach it', () => {
    const assumptions = { ...base, discordance: 0.3 };
    const [needed] = tasksNeeded(0.1, assumptions, [3]);
    const [at] = detectableEffects(needed?.tasks as number, assumptions, [3], 0.1);
    const [below] = detectableEffects((needed?.tasks as number) - 1, assumptions, [3]);
    expect(at?.minimumDetectableEffect).toBeLessThanOrEqual(0.1);
    expect(at?.powerAtEffect).toBeGreaterThanOrEqual(0.8);
    expect(below?.minimumDetectableEffect).toBeGreaterThan(0.1);
  });
});

describe('estimates from episodes', () => {
  it('intraclassCorrelation: ICC(1), hand-computed; clamped at 0; null without replication', () => {
    // grand mean 0.5; MSB = 2·(0.25 + 0 + 0.25)/2 = 0.5; MSW = 0.5/3; k₀ = 2 → (0.5 − 1/6)/(0.5 + 1/6) = 0.5
    expect(
      intraclassCorrelation([
        [1, 1],
        [1, 0],
        [0, 0],
      ]),
    ).toBeCloseTo(0.5, 12);
    expect(
      intraclassCorrelation([
        [1, 1],
        [0, 0],
      ]),
    ).toBe(1);
    expect(
      intraclassCorrelation([
        [1, 0],
        [1, 0],
      ]),
    ).toBe(0);
    expect(intraclassCorrelation([[1], [0]])).toBeNull();
  });
  it('discordance, ρ and family counts of a two-strategy run', () => {
    const records = twoStrategyRun();
    const estimate = estimatePowerInputs(records);
    expect(estimate?.pairs.map(({ first, second, tasks, pairs, discordance }) => ({ first, second, tasks, pairs, discordance }))).toEqual([
      { first: 'direct', second: 'react', tasks: 4, pairs: 8, discordance: 5 / 8 },
    ]);
    expect(estimate?.taskCorrelation).toBeCloseTo(
      intraclassCorrelation([
        [1, 1],
        [-1, 0],
        [0, 0],
        [-1, -1],
      ]) as number,
      12,
    );
    expect(estimate).toMatchObject({ tasks: 4, families: 2, familySize: 2 });
  });
  it('null when no two strategies share a scored task', () => {
    expect(estimatePowerInputs([episodeRecord('a')])).toBeNull();
  });
});

/** Per-epoch differences react − direct: a1 [1, 1], a2 [−1, 0], b1 [0, 0], b2 [−1, −1] → 5 of 8 paired epochs discordant. */
function twoStrategyRun(): EpisodeRecord[] {
  const react: Record<string, boolean[]> = { a1: [true, true], a2: [false, true], b1: [false, false], b2: [false, false] };
  const direct: Record<string, boolean[]> = { a1: [false, false], a2: [true, true], b1: [false, false], b2: [true, true] };
  return Object.entries({ direct, react }).flatMap(([strategy, results]) =>
    Object.entries(results).flatMap(([task, passes]) =>
      passes.map((success, epoch) => episodeRecord(task, { strategy, epoch, success, family: task.slice(0, 1), key: `${task}|${strategy}|${epoch}|h` })),
    ),
  );
}

function resultsFolder(records: EpisodeRecord[]): string {
  const dir = scratch('stratbench-power-');
  writeFileSync(join(dir, 'run.json'), JSON.stringify(runFile({ strategies: ['direct', 'react'], epochs: 2 })));
  writeFileSync(join(dir, 'episodes.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return dir;
}

describe('stratbench power', () => {
  it('prints tasks needed per epoch count with its assumptions', () => {
    const result = stratbench(['power', '--effect', '5', '--discordance', '0.3']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Tasks a paired comparison of two strategies needs to detect 5.0 pp');
    expect(result.stdout).toMatch(/│ 1\s+│ 940\s+│/);
    expect(result.stdout).toContain('within-task correlation ρ 0.50 (assumed)');
    expect(result.stdout).toContain('Connor 1987');
  });
  it('--json carries the question, the assumptions with their sources, and the rows', () => {
    const result = stratbench(['power', '--effect', '40', '--discordance', '0.5', '--epochs', '1', '--json']);
    const report = JSON.parse(result.stdout) as PowerReport;
    expect(result.status).toBe(0);
    expect(report).toMatchObject({
      mode: 'tasks-needed',
      effect: 0.4,
      tasks: null,
      assumptions: { discordance: 0.5, alpha: 0.05, power: 0.8, taskCorrelation: 0.5, designEffect: 1 },
      sources: { discordance: 'flag', taskCorrelation: 'default', designEffect: 'default' },
      rows: [{ epochs: 1, epochFactor: 1, tasks: 23 }],
    });
  });
  it('--tasks n prints the minimum detectable effect (and the power at --effect)', () => {
    const result = stratbench(['power', '--tasks', '14', '--discordance', '0.3', '--effect', '20', '--json']);
    const report = JSON.parse(result.stdout) as PowerReport;
    expect(report.mode).toBe('detectable-effect');
    expect(report.rows.map((row) => row.epochs)).toEqual([1, 2, 3, 5]);
    expect(report.rows[0]?.minimumDetectableEffect).toBeCloseTo(0.4718, 3);
    expect(report.rows[0]?.powerAtEffect).toBeCloseTo(0.26, 2);
  });
  it('--suite takes n and the family bound from the suite', () => {
    const dir = scratch('stratbench-power-suite-');
    const suite = join(dir, 'families.yaml');
    writeFileSync(suite, 'not: [valid');
    const broken = stratbench(['power', '--suite', suite, '--discordance', '0.3']);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/families\.yaml:\d+:\d+/);
    const core = stratbench(['power', '--suite', 'tasks/core.yaml', '--discordance', '0.3', '--json']);
    const report = JSON.parse(core.stdout) as PowerReport;
    expect(report).toMatchObject({ mode: 'detectable-effect', tasks: 14, sources: { designEffect: 'suite', tasks: 'suite' } });
    expect(report.assumptions.designEffect).toBe(1);
  });
  it('--from DIR estimates discordance, ρ and the design effect from the episodes', () => {
    const dir = resultsFolder(twoStrategyRun());
    const result = stratbench(['power', '--from', dir, '--effect', '10', '--json']);
    const report = JSON.parse(result.stdout) as PowerReport;
    expect(result.status).toBe(0);
    expect(report.sources).toEqual({ discordance: 'run', taskCorrelation: 'run', designEffect: 'run' });
    expect(report.assumptions.discordance).toBe(0.625);
    expect(report.assumptions.familySize).toBe(2);
    expect(report.rows[0]?.families).toBe(Math.ceil((report.rows[0]?.tasks as number) / 2));
    const text = stratbench(['power', '--from', dir, '--effect', '10']);
    expect(text.stdout).toContain('from the run (4 tasks, 2 families; mean over 1 strategy pair): direct/react ψ 0.625');
    // The text fits 120 columns (the notes were one line of up to 400 characters each); every word is kept.
    const lines = text.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120);
    expect(lines[1]).toMatch(/^ {2}discordance ψ 0\.625 \(from the run\)/);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain('these figures plan, they do not replace the test.');
    expect(text.stdout.replace(/\s+/g, ' ')).toContain((JSON.parse(result.stdout) as PowerReport).notes[1]!.replace(/\s+/g, ' '));
  });
  it('--from a folder where the strategies never disagree, or that is not a results folder, exits 2', () => {
    const same = resultsFolder([episodeRecord('a'), episodeRecord('a', { strategy: 'react', key: 'a|react|0|h' })]);
    const agree = stratbench(['power', '--from', same, '--effect', '10']);
    expect(agree.status).toBe(2);
    expect(agree.stderr).toContain('never disagreed on a task');
    const empty = scratch('stratbench-power-empty-');
    mkdirSync(join(empty, 'x'));
    const missing = stratbench(['power', '--from', empty, '--effect', '10']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`cannot read results folder ${empty}`);
  });
  it.each([
    [['--effect', '0', '--discordance', '0.3'], '--effect is in percentage points and must be between 0 and 100 (exclusive)'],
    [['--effect', '100', '--discordance', '0.3'], '--effect is in percentage points and must be between 0 and 100 (exclusive)'],
    [['--effect', 'five', '--discordance', '0.3'], '--effect must be a number, got "five"'],
    [['--effect', '0.05', '--discordance', '0.3'], '--effect is in percentage points: 0.05 is less than one point; for 5 points write --effect 5'],
    [
      ['--effect', '5', '--discordance', '0'],
      '--discordance is the probability that two strategies disagree on a task in one epoch and must be in (0, 1], got 0',
    ],
    [['--effect', '5', '--discordance', '1.5'], 'must be in (0, 1], got 1.5'],
    [['--effect', '5', '--discordance', '0.03'], 'discordance 0.030 is smaller than the effect 5.0 pp'],
    [['--effect', '5'], '--discordance (or --from DIR) is required'],
    [['--discordance', '0.3'], '--effect is required without --tasks or --suite'],
    [['--effect', '5', '--discordance', '0.3', '--alpha', '1'], '--alpha (the significance level) must be between 0 and 1 (exclusive), got 1'],
    [['--effect', '5', '--discordance', '0.3', '--power', '80'], '--power (the chance of detecting the effect) must be between 0 and 1 (exclusive), got 80'],
    [['--effect', '5', '--discordance', '0.3', '--epochs', '0'], '--epochs must be a whole number from 1 to 1,000, got 0'],
    [['--effect', '5', '--discordance', '0.3', '--epochs', '2.5'], '--epochs must be a whole number from 1 to 1,000, got 2.5'],
    [['--discordance', '0.3', '--tasks', '-3'], '--tasks must be a whole number from 1 to 10,000,000, got -3'],
    [['--effect', '5', '--discordance', '0.3', '--design-effect', '0.5'], '--design-effect must be at least 1 (1 = independent tasks), got 0.5'],
    [['--effect', '5', '--discordance', '0.3', '--task-correlation', '2'], '--task-correlation must be from 0 to 1, got 2'],
    [['--discordance', '0.3', '--tasks', '10', '--suite', 'tasks/core.yaml'], '--tasks and --suite both give the number of tasks: use one'],
  ])('refuses %j with exit 2', (flags, message) => {
    const result = stratbench(['power', ...flags]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});
