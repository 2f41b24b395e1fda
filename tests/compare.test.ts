// runCompare() end to end on synthetic results folders written to a temporary directory.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/report/compare.js';
import { escapeXml } from '../src/report/formats/junit.js';
import { escapeMarkdownCell } from '../src/report/formats/markdown.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { runFile } from './support/results-files.js';

type Result = boolean | 'error';
/** strategy → task → result of each epoch. */
type Table = Record<string, Record<string, Result[]>>;

const GROUPS = ['single-action', 'multi-step'] as const;

function record(strategy: string, task: string, epoch: number, result: Result): EpisodeRecord {
  return {
    schemaVersion: 1,
    key: `${task}|${strategy}|${epoch}|cfg`,
    task,
    group: GROUPS[Number(task.replace(/\D/g, '')) % 2] as string,
    strategy,
    epoch,
    seed: epoch,
    models: { planner: 'scripted', executor: 'scripted' },
    outcome: result === 'error' ? { status: 'error', reason: 'model_unreachable' } : { status: 'finished', reason: 'answered' },
    success: result === true,
    expect: 'finish',
    checks: [],
    metrics: { model_calls: { planner: 1 }, tool_calls: 2, replans: 0, tokens_in: 10, tokens_out: 5, model_ms: 1, load_ms: 0, tool_ms: 20 },
    attribution: null,
    wall_ms: 3,
    trace: [],
  };
}

function lines(table: Table): string[] {
  return Object.entries(table).flatMap(([strategy, tasks]) =>
    Object.entries(tasks).flatMap(([task, results]) => results.map((result, epoch) => JSON.stringify(record(strategy, task, epoch, result)))),
  );
}

const run = (prompts: Record<string, string> = { planner: 'a'.repeat(64) }) =>
  runFile({
    models: { planner: 'scripted', executor: 'scripted' },
    prompts,
    strategies: ['direct', 'plan-replan'],
    epochs: 1,
    seed: 7,
  });

let root: string;
let folders = 0;

async function folder(table: Table, options: { run?: object | null; tail?: string } = {}): Promise<string> {
  folders += 1;
  const dir = join(root, `run-${folders}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'episodes.jsonl'), `${lines(table).join('\n')}\n${options.tail ?? ''}`);
  if (options.run !== null) await writeFile(join(dir, 'run.json'), JSON.stringify(options.run ?? run()));
  return dir;
}

/** n tasks t0…t(n−1), each with `epochs` results from `result(index, epoch)`. */
function tasks(n: number, epochs: number, result: (index: number, epoch: number) => Result): Record<string, Result[]> {
  return Object.fromEntries(Array.from({ length: n }, (_, index) => [`t${index}`, Array.from({ length: epochs }, (_, epoch) => result(index, epoch))]));
}

// A minimum effect the 14-task folders below can detect (their MDE is 47.2 pp), so the older tests keep their two-way verdicts.
const options = { failOnRegression: true, color: false, minEffect: 0.5 } as const;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stratbench-compare-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('runCompare', () => {
  it('fits the text to 120 columns, naming what it left out, and --wide prints every column', async () => {
    // Three epochs: the paired cluster bootstrap, whose interval cells are the widest.
    const table: Table = {
      direct: tasks(14, 3, (index) => index < 9),
      'plan-replan': tasks(14, 3, (index, epoch) => index < 12 || epoch === 0),
    };
    const [base, head] = [await folder(table), await folder(table)];
    const fitted = await runCompare(base, head, options);
    const lines = fitted.stdout.split('\n');
    // Tables and notes fit; folder, configuration and decision lines stay whole (CI logs are grepped for them).
    const whole = /^(Decision: | {2}- | {2}base | {2}head | {2}options: )/;
    for (const line of lines.filter((line) => !whole.test(line))) expect(line.length, line).toBeLessThanOrEqual(120);
    const header = (text: string) => text.split('\n').find((line) => line.includes('│ Strategy') && line.includes('Verdict')) ?? '';
    const cells = (line: string) =>
      line
        .split('│')
        .map((cell) => cell.trim())
        .filter(Boolean);
    expect(cells(header(fitted.stdout))).toEqual(['Strategy', 'Base', 'Head', 'Change', 'p', 'Verdict']);
    expect(lines).toContain('  test: paired cluster bootstrap, for every strategy');
    expect(fitted.stdout).toContain('(left out to fit 120 columns: MDE, Tasks, p (Holm); --wide shows them');
    // The prose under the tables is wrapped, not cut: every word is still there.
    expect(fitted.stdout.replace(/\s+/g, ' ')).toContain('the gate uses p.');

    const wide = await runCompare(base, head, { ...options, wide: true });
    expect(cells(header(wide.stdout))).toEqual(['Strategy', 'Tasks', 'Base', 'Head', 'Change', 'p', 'p (Holm)', 'MDE', 'Verdict']);
    expect(wide.stdout).not.toContain('left out to fit');
    expect(Math.max(...wide.stdout.split('\n').map((line) => line.length))).toBeGreaterThan(120);
    // The JSON report is the same either way.
    expect(wide.report).toEqual(fitted.report);
  });

  it('six strategies, one named plan-replan-lookup: the table fits 120 columns, and the same reason for each is one wrapped line', async () => {
    const strategies = ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated', 'plan-replan-lookup'];
    const table: Table = Object.fromEntries(strategies.map((strategy, rank) => [strategy, tasks(14, 3, (index) => index < 14 - 2 * rank)]));
    const [base, head] = [await folder(table), await folder(table)];
    // The default --min-effect (20 pp) is below the 47.2 pp these 14 tasks can detect: inconclusive for every strategy.
    const result = await runCompare(base, head, { failOnRegression: true, color: false });
    const lines = result.stdout.split('\n');
    for (const line of lines.filter((line) => !/^(Decision: | {2}base | {2}head )/.test(line))) expect(line.length, line).toBeLessThanOrEqual(120);
    // Verdict "inconclusive" is narrower than "no significant change" (which left p out too).
    expect(result.stdout).toContain('(left out to fit 120 columns: MDE, Tasks, p (Holm); --wide shows them');
    expect(result.report?.strategies.map((entry) => entry.verdict)).toEqual(strategies.map(() => 'inconclusive'));
    const reasons = result.stdout.slice(result.stdout.indexOf('Decision: INCONCLUSIVE'), result.stdout.indexOf('Change = head'));
    expect(reasons.replace(/\s+/g, ' ')).toContain(
      `- ${strategies.join(', ')}: with 14 shared tasks the smallest detectable drop is 47.2 pp, above --min-effect 20.0 pp (more tasks lower it)`,
    );
    // The JSON report keeps one reason per strategy.
    expect(result.report?.decision.inconclusive).toHaveLength(6);
    expect(result.report?.decision.inconclusive[5]).toMatch(/^plan-replan-lookup: with 14 shared tasks/);
  });

  it('a regression keeps one whole reason line per strategy, with its p, even when the reasons read the same', async () => {
    const side = (pass: boolean) => ({ 'plan-replan': tasks(14, 1, (index) => pass || index < 2), gated: tasks(14, 1, (index) => pass || index < 2) });
    const result = await runCompare(await folder(side(true)), await folder(side(false)), options);
    expect(result.exitCode).toBe(1);
    const reasons = result.stdout.split('\n').filter((line) => line.startsWith('  - '));
    expect(reasons.map((line) => line.slice(0, line.indexOf(':')))).toEqual(['  - plan-replan', '  - gated']);
    for (const line of reasons) expect(line).toMatch(/p = [0-9.e-]+ < 0\.05/);
  });

  it('fits the flipped-task table by leaving out Group, and says so; task ids stay whole', async () => {
    // Generated suites have task ids of 40+ characters; a stable-pass → stable-fail flip over 2 epochs.
    const id = (index: number) => `generated-family-${'x'.repeat(40)}-variant-${index}`;
    const side = (pass: boolean) => ({
      direct: Object.fromEntries(Array.from({ length: 14 }, (_, index) => [id(index), [pass || index > 0, pass || index > 0]])),
    });
    const result = await runCompare(await folder(side(true)), await folder(side(false)), options);
    const flipped = result.stdout.slice(result.stdout.indexOf('Flipped tasks'));
    expect(flipped).toContain(id(0));
    expect(flipped).toContain('(left out to fit 120 columns: Group; --wide shows them)');
    const wide = await runCompare(await folder(side(true)), await folder(side(false)), { ...options, wide: true });
    expect(wide.stdout.slice(wide.stdout.indexOf('Flipped tasks'))).toMatch(/│ Group +│/);
  });

  it('exits 0 when nothing changed', async () => {
    const table: Table = { direct: tasks(14, 1, (index) => index < 9), 'plan-replan': tasks(14, 1, (index) => index < 12) };
    const result = await runCompare(await folder(table), await folder(table), options);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Decision: no significant regression');
    expect(result.stdout).toContain('suite: same');
    expect(result.stdout).toContain('prompts: same');
    expect(result.stdout).toContain('Flipped tasks: none');
    expect(result.stdout).not.toMatch(/\u001b\[/);
    expect(result.report?.strategies.map((entry) => [entry.strategy, entry.change.tasks, entry.change.test.pValue, entry.verdict])).toEqual([
      ['direct', 14, 1, 'no significant change'],
      ['plan-replan', 14, 1, 'no significant change'],
    ]);
  });

  it('exits 1 on a significant drop with --fail-on-regression, and 0 without it', async () => {
    const base = await folder({ direct: tasks(14, 1, () => true) });
    // 7 of 14 tasks now fail: McNemar exact p = 2 · 2^-7 = 0.0156
    const head = await folder({ direct: tasks(14, 1, (index) => index >= 7) }, { run: run({ planner: 'b'.repeat(64) }) });
    const result = await runCompare(base, head, options);
    expect(result.exitCode).toBe(1);
    expect(result.report?.strategies[0]?.change.test.pValue).toBeCloseTo(2 / 128, 12);
    expect(result.report?.strategies[0]?.verdict).toBe('regressed');
    expect(result.report?.decision.reasons[0]).toContain('direct: success fell from 100.0% to 50.0% on 14 shared tasks');
    expect(result.stdout).toContain('Decision: REGRESSION');
    expect(result.stdout).toContain(`prompts: DIFFER — prompts.planner: ${'a'.repeat(12)} → ${'b'.repeat(12)}`);
    expect((await runCompare(base, head, { ...options, failOnRegression: false })).exitCode).toBe(0);
  });

  it('exits 0 when a drop is too small to be significant', async () => {
    const base = await folder({ direct: tasks(14, 1, () => true) });
    const head = await folder({ direct: tasks(14, 1, (index) => index >= 2) });
    const result = await runCompare(base, head, options);
    expect(result.exitCode).toBe(0);
    expect(result.report?.strategies[0]?.change.test.pValue).toBeCloseTo(0.5, 12);
    // Two tasks flipped for the worse, but no regression was found: "worse", never "regressed".
    expect(result.report?.tasks.filter((task) => task.flip === 'worse')).toHaveLength(2);
    expect(result.report?.tasks.filter((task) => task.flip === 'regressed')).toHaveLength(0);
    expect(result.report?.tasks.some((task) => task.gating)).toBe(false);
    expect(result.stdout).toMatch(/│ worse +│/);
    expect(result.stdout).not.toMatch(/│ regressed/);
  });

  it('exits 1 when a stable-pass task becomes stable-fail over several epochs', async () => {
    const base = await folder({ 'plan-replan': tasks(14, 3, (index) => index !== 13) });
    const head = await folder({ 'plan-replan': tasks(14, 3, (index) => index !== 13 && index !== 4) });
    const result = await runCompare(base, head, options);
    expect(result.exitCode).toBe(1);
    // The strategy's paired test found nothing (p = 1), but the gate found it regressed on t4: its verdict says so.
    expect(result.report?.strategies[0]?.change.test.pValue).toBe(1);
    expect(result.report?.strategies[0]?.verdict).toBe('regressed');
    expect(result.report?.decision.reasons).toEqual(['plan-replan / t4: stable-pass (3/3) became stable-fail (0/3)']);
    expect(result.report?.tasks.find((task) => task.task === 't4')).toEqual({
      strategy: 'plan-replan',
      task: 't4',
      group: 'single-action',
      base: { label: 'stable-pass', successes: 3, epochs: 3, errors: 0, wallMs: 9 },
      head: { label: 'stable-fail', successes: 0, epochs: 3, errors: 0, wallMs: 9 },
      flip: 'regressed',
      gating: true,
    });
    expect(result.stdout).toContain('regressed (gating)');
  });

  it('exits 2 when the folders share no task, even with --allow-partial', async () => {
    const base = await folder({ direct: { a1: [true], a2: [false] } });
    const head = await folder({ direct: { b1: [true], b2: [true] } });
    const result = await runCompare(base, head, options);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('head lacks 2 of 2 base episodes: direct × a1 (epoch 0), direct × a2 (epoch 0)');
    const partial = await runCompare(base, head, { ...options, allowPartial: true });
    expect(partial.exitCode).toBe(2);
    expect(partial.stderr).toContain("the head has none of the base's 2 episodes");
  });

  it('exits 2 when the folders share no strategy, even with --allow-partial', async () => {
    const result = await runCompare(await folder({ direct: { t1: [true] } }), await folder({ react: { t1: [true] } }), { ...options, allowPartial: true });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("nothing to compare: the head has none of the base's 1 episodes");
  });

  it('exits 2 for a missing folder or a malformed line, naming the file and line', async () => {
    const good = await folder({ direct: { t1: [true] } });
    const missing = await runCompare(join(root, 'nope'), good, options);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`cannot use BASE ${join(root, 'nope')}`);
    const broken = await folder({ direct: { t1: [true] } });
    await writeFile(join(broken, 'episodes.jsonl'), `${lines({ direct: { t1: [true] } })[0]}\n{"schemaVersion": 1}\n${lines({ direct: { t2: [true] } })[0]}\n`);
    const malformed = await runCompare(good, broken, options);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain(`cannot use HEAD ${broken}: ${join(broken, 'episodes.jsonl')}:2: not a valid episode record`);
  });

  it('tolerates a torn last line with a warning', async () => {
    const table: Table = { direct: tasks(6, 1, (index) => index < 4) };
    const head = await folder(table, { tail: '{"schemaVersion":1,"key":"t9|dir' });
    const result = await runCompare(await folder(table), head, { ...options, minEffect: 1 });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`warning: head: ${join(head, 'episodes.jsonl')}:7: incomplete last line (a run interrupted while writing?) — skipped\n`);
    expect(result.report?.head.episodes).toBe(6);
  });

  it('excludes infrastructure errors and reports a missing run.json as unknown configuration', async () => {
    const base = await folder({ direct: tasks(4, 1, () => true) }, { run: null });
    const head = await folder({ direct: tasks(4, 1, (index) => (index === 0 ? 'error' : true)) });
    const result = await runCompare(base, head, { ...options, maxErrorRate: 0.3 });
    // 3 shared tasks cannot show a drop of 50 pp: inconclusive.
    expect(result.exitCode).toBe(3);
    expect(result.report?.decision.verdict).toBe('inconclusive');
    expect(result.report?.strategies[0]?.change.tasks).toBe(3);
    expect(result.report?.head.errors).toBe(1);
    expect(result.stderr).toContain('run.json: missing');
    expect(result.stdout).toContain('prompts: unknown (run.json incomplete)');
    expect(result.stdout).toContain('models: same');
  });

  it('writes markdown and JUnit files with the expected rows', async () => {
    const base = await folder({ direct: tasks(4, 1, () => true), react: { 'x<&"y': [true] } });
    const head = await folder({ direct: tasks(4, 1, (index) => index !== 1), react: { 'x<&"y': [false] } });
    const markdownFile = join(root, 'out', 'summary.md');
    const junitFile = join(root, 'out', 'nested', 'junit.xml');
    const result = await runCompare(base, head, { ...options, markdownFile, junitFile });
    expect(result.exitCode).toBe(3);
    const markdown = await readFile(markdownFile, 'utf8');
    expect(markdown).toContain('## stratbench compare: **INCONCLUSIVE**');
    expect(markdown).toContain('| Strategy | Tasks | Base | Head | Change (head − base) | Test | p | p (Holm) | MDE | Verdict |');
    // 4 tasks cannot give p < 0.05 (2/2⁴ = 0.125): the strategy is inconclusive, not "no significant change".
    expect(markdown).toMatch(
      /\| direct \| 4 \| 100\.0% \[51\.0–100\.0\] \| 75\.0% \[30\.1–95\.4\] \| -25\.0 pp \[[^\]]+\] \| McNemar exact \| 1\.000 \| 1\.000 \| [0-9.]+ pp \| inconclusive \|/,
    );
    expect(markdown).toContain(
      '- direct: the paired test has 4 shared tasks, so its p cannot fall below 2/2^4 = 0.125 ≥ α = 0.05: not even a 100 pp drop could be significant (at least 6 tasks are needed)',
    );
    // No regression was found: the flips are "worse", never "regressed".
    expect(markdown).toContain('| direct | t1 | multi-step | 1/1 stable-pass | 0/1 stable-fail | worse |');
    expect(markdown).toContain('| react | x&lt;&"y | single-action | 1/1 stable-pass | 0/1 stable-fail | worse |');

    const junit = await readFile(junitFile, 'utf8');
    // A failure is a regression and nothing else: an inconclusive gate is a skipped decision, the worse flips pass.
    expect(
      junit.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stratbench compare" tests="6" failures="0" errors="0" time="0.015">'),
    ).toBe(true);
    const cases = [...junit.matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="([^"]*)"/g)].map((match) => [match[1], match[2], match[3]]);
    expect(cases).toEqual([
      ['stratbench.gate', 'decision', '0.000'],
      ['stratbench.direct.single-action', 't0', '0.003'],
      ['stratbench.direct.multi-step', 't1', '0.003'],
      ['stratbench.direct.single-action', 't2', '0.003'],
      ['stratbench.direct.multi-step', 't3', '0.003'],
      ['stratbench.react.single-action', 'x&lt;&amp;&quot;y', '0.003'],
    ]);
    expect(junit).toContain(
      '<testcase classname="stratbench.direct.multi-step" name="t1" time="0.003">\n      <system-out>strategy: direct\ntask: t1\ngroup: multi-step\nbase: 1/1 stable-pass\nhead: 0/1 stable-fail\nflip: worse (not a regression the gate found)</system-out>',
    );
    expect(junit).toContain('<skipped message="inconclusive: direct: the paired test has 4 shared tasks');
    expect(junit).toContain('<testsuite name="react" tests="1" failures="0" errors="0" skipped="0" time="0.003">');
    // every opened element is closed
    expect(junit.match(/<testsuite /g)?.length).toBe(junit.match(/<\/testsuite>/g)?.length);
  });
});

describe('renderers', () => {
  it('escape XML special characters and drop characters XML cannot hold', () => {
    expect(escapeXml(`a<b>&"c'\u0001\u0008\tz\uD800`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;\tz');
    expect(escapeXml('emoji 😀 stays')).toBe('emoji 😀 stays');
  });

  it('escape markdown table cells', () => {
    expect(escapeMarkdownCell('a|b\\c\n<d>')).toBe('a\\|b\\\\c &lt;d&gt;');
  });

  it('mark tasks only in base, and all-error head tasks, as skipped and new head tasks as passed cases', async () => {
    const base = await folder({ direct: { t0: [true], t1: [true], t3: [true] } });
    const head = await folder({ direct: { t1: [true], t2: [false], t3: ['error'] } });
    const junitFile = join(root, 'only', 'junit.xml');
    const result = await runCompare(base, head, { ...options, junitFile, allowPartial: true, maxErrorRate: 0.5 });
    expect(result.exitCode).toBe(3);
    const junit = await readFile(junitFile, 'utf8');
    // The gate's decision (skipped: inconclusive) and the 4 tasks of direct.
    expect(junit).toContain('<testsuites name="stratbench compare" tests="5" failures="0" errors="0" time="0.009">');
    expect(junit).toContain('<testsuite name="direct" tests="4" failures="0" errors="0" skipped="2" time="0.009">');
    expect(junit).toContain('<property name="independent units" value="1 task"/>');
    expect(junit).toContain('<skipped message="not in head (base 1/1 stable-pass)"/>');
    expect(junit).toContain('<testcase classname="stratbench.direct.single-action" name="t2" time="0.003">\n      <system-out>');
    expect(junit).toContain('<skipped message="every head episode was an infrastructure error (1), left out of the rates" type="infrastructure"/>');
    expect(junit).not.toContain('<failure');
    expect(junit).not.toContain('<error');
  });
});
