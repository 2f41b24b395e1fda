// compare's gate without blind spots (issue 25 §4): a design that cannot reach significance is inconclusive with its
// reason, the detectable effect counts families as clusters, an incomplete base exits 2, labels agree with the verdict.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare, type RunCompareOptions } from '../src/report/compare.js';
import { familyDesignEffectBound } from '../src/report/power.js';
import { minimumDetectableEffect } from '../src/report/statistics-paired-tests.js';
import type { RunFile } from '../src/records/index.js';
import { episodeRecord, runFile } from './support/results-files.js';
import { stratbench } from './support/cli.js';

type Result = boolean | 'error';

interface Shape {
  strategies?: string[];
  tasks: number;
  epochs: number;
  /** The family of task i (absent: the task is its own). */
  family?: (task: number) => string;
  result?: (strategy: string, task: number, epoch: number) => Result;
  /** Keep only the episodes this says (by matrix position: epoch, then task, then strategy). */
  keep?: (position: number) => boolean;
}

let root: string;
let folders = 0;

/** A results folder of `shape` with a run.json whose matrix matches it; `run` overrides top-level fields. */
async function folder(shape: Shape, run: Partial<RunFile> = {}): Promise<string> {
  folders += 1;
  const dir = join(root, `run-${folders}`);
  await mkdir(dir, { recursive: true });
  const strategies = shape.strategies ?? ['direct'];
  const lines: string[] = [];
  let position = 0;
  for (let epoch = 0; epoch < shape.epochs; epoch += 1) {
    for (let task = 0; task < shape.tasks; task += 1) {
      for (const strategy of strategies) {
        const kept = shape.keep?.(position) ?? true;
        position += 1;
        if (!kept) continue;
        const result = shape.result?.(strategy, task, epoch) ?? true;
        const family = shape.family?.(task);
        lines.push(
          JSON.stringify(
            episodeRecord(`t${task}`, {
              strategy,
              epoch,
              ...(family === undefined ? {} : { family }),
              success: result === true,
              outcome: result === 'error' ? { status: 'error', reason: 'infrastructure:unreachable' } : { status: 'finished', reason: 'answered' },
            }),
          ),
        );
      }
    }
  }
  await writeFile(join(dir, 'episodes.jsonl'), `${lines.join('\n')}\n`);
  const base = runFile();
  const config = { ...base.config, strategies, tasks: Array.from({ length: shape.tasks }, (_, task) => `t${task}`), epochs: shape.epochs };
  await writeFile(join(dir, 'run.json'), JSON.stringify({ ...base, config, strategies, epochs: shape.epochs, episodes: lines.length, ...run }));
  return dir;
}

const gate: RunCompareOptions = { failOnRegression: true, color: false };
/** 100 tasks in 5 families of 20 (a generated suite of 5 templates). */
const fiveFamilies = { tasks: 100, epochs: 1, family: (task: number) => `family-${task % 5}` };
const allFail = () => false;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stratbench-gate-design-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a design that cannot reach significance is inconclusive, with its reason', () => {
  const reason =
    'direct: the 100 shared tasks are variants of 5 families and the paired test flips one sign per family, so its p cannot fall below ' +
    '2/2^5 = 0.0625 ≥ α = 0.05: not even a 100 pp drop could be significant (at least 6 families are needed)';

  it('a −100 pp head on a 5-family suite exits 3 (it exited 0, "no significant regression"), in every output', async () => {
    const base = await folder(fiveFamilies);
    const head = await folder({ ...fiveFamilies, result: allFail });
    const markdownFile = join(root, 'five', 'summary.md');
    const junitFile = join(root, 'five', 'junit.xml');
    const result = await runCompare(base, head, { ...gate, markdownFile, junitFile });
    expect(result.exitCode).toBe(3);
    const strategy = result.report?.strategies[0];
    expect(strategy?.change.difference.estimate).toBe(-1);
    expect(strategy?.change.test.pValue).toBe(0.0625);
    expect(strategy?.design).toEqual({
      unit: 'families',
      units: 5,
      designEffect: 20,
      minimumDetectableEffect: minimumDetectableEffect({ n: 100 / 20, discordance: 1 }),
      smallestPValue: 0.0625,
      canReachSignificance: false,
    });
    expect(strategy?.verdict).toBe('inconclusive');
    expect(result.report?.decision).toEqual({ verdict: 'inconclusive', regression: false, reasons: [], inconclusive: [reason], warnings: [] });
    expect(result.stdout.replace(/\n\s+/g, ' ')).toContain(`- ${reason}`);
    expect(await readFile(markdownFile, 'utf8')).toContain(`## stratbench compare: **INCONCLUSIVE**\n\n- ${reason}\n`);
    expect(await readFile(junitFile, 'utf8')).toContain(`<skipped message="inconclusive: ${reason}"/>`);
    const json = await runCompare(base, head, { ...gate, json: true });
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'inconclusive', exitCode: 3, report: { decision: { inconclusive: [reason] } } });
  });

  it('stays inconclusive with --min-effect 100%: no MDE can make an unreachable p reachable', async () => {
    const base = await folder(fiveFamilies);
    const result = await runCompare(base, await folder({ ...fiveFamilies, result: allFail }), { ...gate, minEffect: 1 });
    expect(result.exitCode).toBe(3);
    expect(result.report?.decision.inconclusive).toEqual([reason]);
  });

  it('six families can: the same drop on 6 families regresses (exit 1, p = 2/2⁶)', async () => {
    const six = { tasks: 60, epochs: 1, family: (task: number) => `family-${task % 6}` };
    const result = await runCompare(await folder(six), await folder({ ...six, result: allFail }), gate);
    expect(result.exitCode).toBe(1);
    expect(result.report?.strategies[0]?.change.test.pValue).toBe(2 / 64);
    expect(result.report?.strategies[0]?.design.smallestPValue).toBe(2 / 64);
    expect(result.report?.decision.reasons).toEqual([
      'direct: success fell from 100.0% to 0.0% on 60 shared tasks (paired-cluster-bootstrap, p = 0.0313 < 0.05)',
    ]);
  });

  it('with several epochs the stable-pass → stable-fail flips still regress a 5-family suite (exit 1)', async () => {
    const twoEpochs = { ...fiveFamilies, epochs: 2 };
    const result = await runCompare(await folder(twoEpochs), await folder({ ...twoEpochs, result: allFail }), gate);
    expect(result.exitCode).toBe(1);
    expect(result.report?.strategies[0]?.verdict).toBe('regressed');
    expect(result.report?.decision.reasons).toHaveLength(100);
  });

  it('5 independent tasks: McNemar cannot reach p < 0.05 either (exit 3, reason names the tasks)', async () => {
    const result = await runCompare(await folder({ tasks: 5, epochs: 1 }), await folder({ tasks: 5, epochs: 1, result: allFail }), {
      ...gate,
      minEffect: 1,
    });
    expect(result.exitCode).toBe(3);
    expect(result.report?.strategies[0]?.change.test).toEqual({ method: 'mcnemar-exact', pValue: 0.0625, exact: true });
    expect(result.report?.decision.inconclusive).toEqual([
      'direct: the paired test has 5 shared tasks, so its p cannot fall below 2/2^5 = 0.0625 ≥ α = 0.05: not even a 100 pp drop could be significant (at least 6 tasks are needed)',
    ]);
  });
});

describe('the minimum detectable effect counts families as clusters, as power --suite does', () => {
  it('100 tasks in 5 families of 20: design effect Σm²/Σm = 20, not the 1 the identical differences showed', async () => {
    const base = await folder(fiveFamilies);
    // A head equal to the base: every difference is 0, so the observed design effect is 1.
    const result = await runCompare(base, await folder(fiveFamilies), { ...gate, minEffect: 1 });
    const strategy = result.report?.strategies[0];
    expect(strategy?.design.designEffect).toBe(familyDesignEffectBound([20, 20, 20, 20, 20]));
    expect(strategy?.change.minimumDetectableEffect).toBe(strategy?.design.minimumDetectableEffect);
    // As 5 independent units: 93.9 pp, the figure `power --suite` gives for this suite (it printed 19.7 pp before).
    expect(strategy?.design.minimumDetectableEffect).toBe(minimumDetectableEffect({ n: 5, discordance: 0 }));
    expect(strategy?.design.minimumDetectableEffect?.toFixed(3)).toBe('0.939');
    expect(result.exitCode).toBe(3);
    const wide = await runCompare(base, await folder(fiveFamilies), { ...gate, minEffect: 1, wide: true });
    expect(wide.stdout).toMatch(/│ 93\.9 pp │ inconclusive │/);
  });

  it('unequal families: 30 tasks in 10 families of 1 to 5 take Σm²/Σm = 3.67, and the reason names the families', async () => {
    const sizes = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5];
    const familyOf = sizes.flatMap((size, family) => Array.from({ length: size }, () => `f${family}`));
    const shape = { tasks: 30, epochs: 1, family: (task: number) => familyOf[task] as string };
    const result = await runCompare(await folder(shape), await folder(shape), gate);
    const design = result.report?.strategies[0]?.design;
    expect(design?.designEffect).toBeCloseTo(110 / 30, 12);
    expect(design?.units).toBe(10);
    expect(result.report?.decision.inconclusive).toEqual([
      `direct: with 30 shared tasks in 10 families (design effect 3.7) the smallest detectable drop is ${((design?.minimumDetectableEffect ?? 0) * 100).toFixed(1)} pp, above --min-effect 20.0 pp (more families lower it)`,
    ]);
  });
});

describe('an incomplete base exits 2, as an incomplete head does', () => {
  it('a merged base missing a shard: exit 2 naming what it lacks (it was compared silently); --allow-partial compares the rest', async () => {
    const shape = { strategies: ['direct', 'react'], tasks: 14, epochs: 3 };
    // Shard 1 of 2 (the even matrix positions), merged alone: `merge` records shard 2 as missing.
    const shard = await folder({ ...shape, keep: (position) => position % 2 === 0 }, { shard: { index: 1, count: 2 } });
    const merged = join(root, 'merged-base');
    const merge = stratbench(['merge', shard, '--out', merged]);
    expect(merge.status).toBe(0);
    expect(merge.stderr).toContain('warning: the merged run is incomplete: incomplete: 1 of 2 shards, 42 of 84 episodes');
    const head = await folder(shape);
    const result = await runCompare(merged, head, gate);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^stratbench compare: base ${merged} lacks 42 of 84 episodes its run\\.json lists \\(a merge of 1 of 2 shards, missing shard 2\\): ` +
          'react × t0 \\(epochs 0–2\\), react × t1 \\(epochs 0–2\\), .* and 6 more strategy × task pair\\(s\\); an incomplete base would hide regressions on what it lacks',
      ),
    );
    expect(result.stderr).toContain('(run --shard 2/2, or resume the interrupted shard folders, and merge again, or pass --allow-partial');
    expect(result.stderr).toContain('--allow-partial');
    const json = await runCompare(merged, head, { ...gate, json: true });
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: null, exitCode: 2, error: expect.stringContaining('missing shard 2') });

    const partial = await runCompare(merged, head, { ...gate, allowPartial: true });
    expect(partial.exitCode).toBe(3);
    // Shard 1 of 2 held every direct episode and no react one (matrix order alternates strategies).
    expect(partial.report?.strategies.map((entry) => [entry.strategy, entry.change.tasks])).toEqual([['direct', 14]]);
    expect(partial.report?.onlyInHead).toEqual(['react']);
    expect(partial.report?.decision.warnings[0]).toMatch(/^partial comparison \(--allow-partial\): base .* lacks 42 of 84 episodes its run\.json lists/);
    expect(partial.stderr).toContain('warning: partial comparison (--allow-partial): base');
  });

  it('one shard of a --shard split, as base or head: exit 2 saying to merge (a shard base turned a regression into exit 3)', async () => {
    const shape = { strategies: ['direct', 'react'], tasks: 14, epochs: 3 };
    const shard = await folder({ ...shape, keep: (position) => position % 2 === 0 }, { shard: { index: 1, count: 2 } });
    const whole = await folder(shape);
    const asBase = await runCompare(shard, whole, gate);
    expect(asBase.exitCode).toBe(2);
    expect(asBase.stderr).toBe(
      `stratbench compare: base ${shard} is shard 1 of 2 (42 episodes): one shard holds only its slice of the tasks and epochs, so a comparison on it could miss a regression on the others; an incomplete base would hide regressions on what it lacks (merge the shard folders into one with \`stratbench merge DIR… --out DIR\` and compare that, or pass --allow-partial to compare only the episodes both have)\n`,
    );
    const asHead = await runCompare(whole, shard, gate);
    expect(asHead.exitCode).toBe(2);
    expect(asHead.stderr).toContain(`head ${shard} is shard 1 of 2`);
    expect(asHead.stderr).toContain('merge the shard folders into one with `stratbench merge DIR… --out DIR`');
    expect(asHead.stderr).not.toContain('--resume');
    expect((await runCompare(shard, whole, { ...gate, allowPartial: true })).exitCode).toBe(3);
  });

  it('a merge of every shard is complete and compared', async () => {
    const shape = { tasks: 14, epochs: 2 };
    const shards = [
      await folder({ ...shape, keep: (position) => position % 2 === 0 }, { shard: { index: 1, count: 2 } }),
      await folder({ ...shape, keep: (position) => position % 2 === 1 }, { shard: { index: 2, count: 2 } }),
    ];
    const merged = join(root, 'merged-whole');
    expect(stratbench(['merge', ...shards, '--out', merged]).status).toBe(0);
    const result = await runCompare(merged, await folder(shape), { ...gate, minEffect: 1 });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('labels agree with the decision', () => {
  it('under a regression, the strategy that regressed says so and only its part of the regression is labelled regressed', async () => {
    const strategies = ['direct', 'react'];
    const base = await folder({ strategies, tasks: 30, epochs: 1 });
    // direct loses 12 of 30 tasks (p = 2/2¹² < 0.05); react loses 2 (p = 0.5): react's flips are "worse".
    const head = await folder({ strategies, tasks: 30, epochs: 1, result: (strategy, task) => (strategy === 'direct' ? task >= 12 : task >= 2) });
    const result = await runCompare(base, head, { ...gate, minEffect: 1 });
    expect(result.exitCode).toBe(1);
    expect(result.report?.strategies.map((entry) => [entry.strategy, entry.verdict])).toEqual([
      ['direct', 'regressed'],
      ['react', 'no significant change'],
    ]);
    const flips = (strategy: string) => [...new Set(result.report?.tasks.filter((task) => task.strategy === strategy && task.flip).map((task) => task.flip))];
    expect(flips('direct')).toEqual(['regressed']);
    expect(flips('react')).toEqual(['worse']);
  });

  it('an improvement flips tasks "better"; a strategy that rose significantly is "improved"', async () => {
    const base = await folder({ tasks: 30, epochs: 1, result: (_, task) => task >= 12 });
    const result = await runCompare(base, await folder({ tasks: 30, epochs: 1 }), { ...gate, minEffect: 1 });
    expect(result.exitCode).toBe(0);
    expect(result.report?.strategies[0]?.verdict).toBe('improved');
    expect(new Set(result.report?.tasks.map((task) => task.flip).filter(Boolean))).toEqual(new Set(['better']));
  });
});
