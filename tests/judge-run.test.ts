// run --judge and judge-check end to end: exit 2 without a judge, calibration recorded in run.json, judge errors resumed.
import { describe, expect, it, afterEach } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { judgeCheckCommand } from '../src/runner/commands/judge-check.js';
import { records, runInProcess, scratch } from './support/scripted-over-ollama.js';
import { completion, startFakeOpenAI, type FakeCompletionRequest, type FakeOpenAI } from './support/fake-openai-server.js';

const SUITE = fileURLToPath(new URL('../docs/examples/judged-suite.yaml', import.meta.url));
const PROMPTS = fileURLToPath(new URL('../prompts', import.meta.url));
const FAST_RETRY = { retry: { attempts: 1, baseMs: 1, maxMs: 1, totalMs: 1_000 } };

/** Six answers whose scripted verdicts are known: 2 agree pass, 2 agree fail, 1 false pass, 1 false fail. */
const SMALL_SET = `version: 1
suite: judged-example
tasks:
  fees-tests-status:
    ran: [{ tool: run, args: { cmd: pnpm test }, exit_code: 1, output: "expected 120 to be 150" }]
    answers:
      - { label: pass, text: "No: charges 25 cents a day after the 14-day loan fails, expected 120 to be 150." }
      - { label: pass, text: "NO. 'charges 25 cents a day after the 14-day loan': expected 120 to be 150" }
      - { label: pass, text: "No, the late-fee test got 120 instead of 150." }
      - { label: fail, text: "Yes, they pass." }
      - { label: fail, text: "Maybe." }
      - { label: fail, text: "They pass now: charges 25 cents a day after the 14-day loan, expected 120 to be 150 is fixed." }
`;

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** A judge server that passes an answer holding "expected 120 to be 150" (for any task) and fails the rest. */
const ruleJudge = (request: FakeCompletionRequest) => {
  const state = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const text = (JSON.parse(state.slice(state.indexOf('\n') + 1, state.lastIndexOf('```'))) as { text: string }).text;
  return completion(JSON.stringify({ verdict: /expected 120 to be 150|Priya Nair|CATALOG_TOKEN/.test(text) ? 'pass' : 'fail', reason: 'rule' }), {}, 'judge');
};

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('run refuses judged checks without a judge', () => {
  it('exits 2 (UsageError) before any episode, naming the task and --judge', async () => {
    const out = join(scratch(), 'never');
    await expect(runInProcess({ suite: SUITE, out })).rejects.toThrow(
      'task "fees-tests-status" (and 2 more task(s)) has a judged check, which a judge model grades: give --judge MODEL',
    );
    await expect(runInProcess({ suite: SUITE, out, judge: 'ollama:' })).rejects.toThrow(/--judge: model "ollama:" names no Ollama model/);
  });
});

describe('run --judge on tasks without a judged check', () => {
  it('warns that the judge is never called, and still records it', async () => {
    const out = join(scratch(), 'run');
    const run = await runInProcess({ out, judge: 'scripted', tasks: 'default-currency', strategies: 'direct', calibrationDir: join(out, 'none') });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: --judge scripted: no task of this run has a judged check, so the judge is never called\n');
    expect((JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { judge: unknown }).judge).toEqual({
      spec: 'scripted',
      model: 'scripted',
      prompt_sha256: null,
      calibration: 'uncalibrated',
    });
  });
});

describe('judge-check', () => {
  it('prints n, agreement and κ per rubric and overall (hand-computed: κ = (4/6 − 1/2)/(1/2) = 1/3, SE √((2/3·1/3)/(6·1/4)))', async () => {
    const dir = scratch();
    const answers = join(dir, 'small.judge-answers.yaml');
    writeFileSync(answers, SMALL_SET);
    const out = capture();
    const code = await judgeCheckCommand({ suite: SUITE, judge: 'scripted', answers, prompts: PROMPTS, calibrationDir: dir }, {}, out.stream);
    expect(code).toBe(0);
    const line = 'κ 0.33 ± 0.38 (95% CI -0.42–1.00), agreement 67% (4/6), 1 false pass, 1 false fail';
    expect(out.text()).toContain(`  ${'fees-tests-status [check 0]'.padEnd(36)} n   6  ${line}\n`);
    expect(out.text()).toContain(`  ${'overall'.padEnd(36)} n   6  ${line}\n`);
    const json = capture();
    await judgeCheckCommand({ suite: SUITE, judge: 'scripted', answers, prompts: PROMPTS, calibrationDir: dir, json: true, record: false }, {}, json.stream);
    const report = JSON.parse(json.text()) as { overall: { kappa: number; kappa_se: number; false_passes: number; false_fails: number } };
    expect(report.overall.kappa).toBeCloseTo(1 / 3, 12);
    expect(report.overall.kappa_se).toBeCloseTo(Math.sqrt(((2 / 3) * (1 / 3)) / (6 * 0.25)), 12);
  });

  it('refuses an answer set that does not load, with file:line:col', async () => {
    const dir = scratch();
    const answers = join(dir, 'bad.yaml');
    writeFileSync(answers, 'version: 1\nsuite: other\ntasks: {}\n');
    await expect(judgeCheckCommand({ suite: SUITE, judge: 'scripted', answers, prompts: PROMPTS }, {}, capture().stream)).rejects.toThrow(
      `${answers}:2:1  suite  answers for suite "other", but the suite is "judged-example"`,
    );
  });
});

describe('run --judge over an OpenAI-compatible judge', () => {
  it('scores the judged checks with the judge and records its calibration (judge-check for the same judge and prompt)', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: ruleJudge });
    const dir = scratch();
    const calibrationDir = join(dir, 'calibration');
    const deps = { openai: FAST_RETRY };
    await judgeCheckCommand({ suite: SUITE, judge: 'openai:judge', openaiBaseUrl: server.url, prompts: PROMPTS, calibrationDir }, deps, capture().stream);
    const out = join(dir, 'run');
    const run = await runInProcess({ suite: SUITE, out, judge: 'openai:judge', openaiBaseUrl: server.url, calibrationDir, strategies: 'react' }, deps);
    expect(run.code).toBe(0);
    const episodes = records(out);
    expect(episodes.map((record) => [record.task, record.success, record.checks[0]?.detail])).toEqual([
      ['fees-tests-status', true, 'judge openai:judge: pass: rule'],
      ['last-fees-commit', true, 'judge openai:judge: pass: rule'],
      ['publish-catalogue', true, 'judge openai:judge: pass: rule'],
    ]);
    const runFile = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { judge: Record<string, unknown>; config: { judge: string } };
    const promptSha = (runFile.judge['prompt_sha256'] as string) ?? '';
    expect(promptSha).toMatch(/^[0-9a-f]{64}$/);
    expect(runFile.config.judge).toBe('openai:judge');
    // The rule judge passes 27 of the 47 labelled answers' texts that hold one of its strings; what matters here is
    // that run.json carries judge-check's figures for this judge and prompt.
    expect(runFile.judge).toMatchObject({ spec: 'openai:judge', calibration: { judge: 'openai:judge', prompt_sha256: promptSha, n: 47 } });
    expect(run.stdout).toMatch(/note: judge: openai:judge \(prompt [0-9a-f]{8}\): κ /);
  });

  it('an uncalibrated judge is recorded as "uncalibrated"', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: ruleJudge });
    const dir = scratch();
    const out = join(dir, 'run');
    const run = await runInProcess(
      {
        suite: SUITE,
        out,
        judge: 'openai:judge',
        openaiBaseUrl: server.url,
        calibrationDir: join(dir, 'none'),
        strategies: 'react',
        tasks: 'last-fees-commit',
      },
      { openai: FAST_RETRY },
    );
    expect(run.code).toBe(0);
    expect((JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { judge: { calibration: unknown } }).judge.calibration).toBe('uncalibrated');
  });

  it('judge errors are excluded from rates (exit 4) and run again by --resume', async () => {
    let up = false;
    server = await startFakeOpenAI({
      models: ['judge'],
      reply: (request) => (up ? ruleJudge(request) : { status: 500, body: { error: { message: 'judge down' } } }),
    });
    const dir = scratch();
    const out = join(dir, 'run');
    const options = { suite: SUITE, out, judge: 'openai:judge', openaiBaseUrl: server.url, calibrationDir: dir, strategies: 'react' };
    const first = await runInProcess(options, { openai: FAST_RETRY });
    expect(first.code).toBe(4);
    expect(records(out).map((record) => [record.outcome.status, record.outcome.reason])).toEqual([
      ['error', 'infrastructure:judge_server_error'],
      ['error', 'infrastructure:judge_server_error'],
      ['error', 'infrastructure:judge_server_error'],
    ]);
    expect(first.stdout).toContain('│ react    │ 0/0 (+2 err)  │ 0/0 (+1 err) │ 0/0 (+3 err) │ 3      │');
    up = true;
    const resumed = await runInProcess({ resume: out, openaiBaseUrl: server.url, calibrationDir: dir }, { openai: FAST_RETRY }, new Set(['resume']));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('3 errored episode(s) to run again');
    expect(records(out).map((record) => [record.task, record.success])).toEqual([
      ['fees-tests-status', true],
      ['last-fees-commit', true],
      ['publish-catalogue', true],
    ]);
  });
});
