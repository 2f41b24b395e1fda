// compare as a CI gate (issue 10 §1): coverage of the base, error rates, the three-way verdict, every configuration difference.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare, type RunCompareOptions } from '../src/report/compare.js';
import type { RunFile } from '../src/records/index.js';
import { episodeRecord, runFile } from './support/results-files.js';
import { stratbench } from './support/cli.js';

type Result = boolean | 'error';

let root: string;
let folders = 0;

/** A results folder: `strategies` × `tasks` tasks × `epochs`, each episode's result from `result`. */
async function folder(
  shape: { strategies?: string[]; tasks: number; epochs: number; result?: (strategy: string, task: number, epoch: number) => Result },
  run: Partial<RunFile> = {},
): Promise<string> {
  folders += 1;
  const dir = join(root, `run-${folders}`);
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (const strategy of shape.strategies ?? ['direct']) {
    for (let task = 0; task < shape.tasks; task += 1) {
      for (let epoch = 0; epoch < shape.epochs; epoch += 1) {
        const result = shape.result?.(strategy, task, epoch) ?? true;
        lines.push(
          JSON.stringify(
            episodeRecord(`t${task}`, {
              strategy,
              epoch,
              success: result === true,
              outcome: result === 'error' ? { status: 'error', reason: 'infrastructure:unreachable' } : { status: 'finished', reason: 'answered' },
            }),
          ),
        );
      }
    }
  }
  await writeFile(join(dir, 'episodes.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(join(dir, 'run.json'), JSON.stringify(runFile(run)));
  return dir;
}

const gate: RunCompareOptions = { failOnRegression: true, color: false };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stratbench-gate-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('coverage: the head must have every base episode', () => {
  it('exits 2 naming what a head run on fewer tasks lacks (it used to exit 0)', async () => {
    const base = await folder({ strategies: ['direct', 'react'], tasks: 14, epochs: 3 });
    const head = await folder({ strategies: ['direct', 'react'], tasks: 2, epochs: 3 });
    const result = await runCompare(base, head, gate);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^stratbench compare: head lacks 72 of 84 base episodes: direct × t2 \(epochs 0–2\), direct × t3 \(epochs 0–2\), .* and 16 more strategy × task pair\(s\); the head must cover/,
    );
    expect(result.stderr).toContain('--allow-partial');
  });

  it('exits 2 for a truncated episodes.jsonl: missing epochs are named', async () => {
    const base = await folder({ tasks: 14, epochs: 3 });
    const head = await folder({ tasks: 14, epochs: 3 });
    const text = (await import('node:fs')).readFileSync(join(head, 'episodes.jsonl'), 'utf8').split('\n');
    await writeFile(join(head, 'episodes.jsonl'), `${text.slice(0, 40).join('\n')}\n`);
    const result = await runCompare(base, head, gate);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('head lacks 2 of 42 base episodes: direct × t13 (epochs 1–2)');
  });

  it('with --allow-partial compares the shared episodes and says so in every output', async () => {
    const base = await folder({ tasks: 14, epochs: 1 });
    const head = await folder({ tasks: 12, epochs: 1 });
    const result = await runCompare(base, head, { ...gate, allowPartial: true, minEffect: 0.6, json: false });
    expect(result.exitCode).toBe(0);
    expect(result.report?.coverage).toEqual({
      baseEpisodes: 14,
      covered: 12,
      partial: true,
      missing: [
        { strategy: 'direct', task: 't12', epochs: [0] },
        { strategy: 'direct', task: 't13', epochs: [0] },
      ],
    });
    expect(result.report?.strategies[0]?.change.tasks).toBe(12);
    expect(result.stdout).toContain('coverage: PARTIAL — head has 12 of 14 base episodes (--allow-partial)');
    expect(result.stdout).toContain('warning: partial comparison (--allow-partial): head lacks 2 of 14 base episodes');
    expect(result.stderr).toContain('warning: partial comparison');
  });
});

describe('errors: the head fails on too many, or significantly more, infrastructure errors', () => {
  it('exits 1 when 180 of 210 head episodes are errors (it used to exit 0)', async () => {
    const base = await folder({ strategies: ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'], tasks: 14, epochs: 3 });
    let n = 0;
    const head = await folder({
      strategies: ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'],
      tasks: 14,
      epochs: 3,
      result: () => ((n += 1) > 30 ? 'error' : true),
    });
    const result = await runCompare(base, head, gate);
    expect(result.exitCode).toBe(1);
    expect(result.report?.decision.verdict).toBe('regressed');
    expect(result.report?.errors.head).toEqual({ errors: 180, episodes: 210, rate: 180 / 210 });
    expect(result.report?.decision.reasons).toContain(
      `head errors: 180 of 210 (85.7%) episodes ended in an infrastructure error, above --max-error-rate 5.0%; its success rates stand on too few episodes (once the model server is back, \`stratbench run --resume ${head}\` runs them again)`,
    );
    expect(result.stdout).toContain('Decision: REGRESSION (exit 1 with --fail-on-regression)');
  });

  it('exits 1 when errors rise significantly even under the limit, and not when the base had the same errors', async () => {
    const base = await folder({ tasks: 70, epochs: 3 });
    // 6 of 210 (2.9%): under 5%, but McNemar's exact p = 2 · 2⁻⁶ = 0.031 against a base without errors.
    const head = await folder({ tasks: 70, epochs: 3, result: (_, task, epoch) => (epoch === 0 && task < 6 ? 'error' : true) });
    const result = await runCompare(base, head, gate);
    expect(result.exitCode).toBe(1);
    expect(result.report?.errors.rise).toEqual({ baseOnly: 0, headOnly: 6, pValue: 2 / 64 });
    expect(result.report?.decision.reasons[0]).toMatch(
      /^head errors rose: 0 of 210 \(0\.0%\) in the base, 6 of 210 \(2\.9%\) in the head \(McNemar exact on the same episodes, p = 0\.0313 < 0\.05\)$/,
    );
    const sameErrors = await runCompare(head, head, gate);
    expect(sameErrors.exitCode).toBe(0);
    expect(sameErrors.report?.errors.roseSignificantly).toBe(false);
  });

  it('--max-error-rate takes a fraction or a percentage, bounded', () => {
    expect(stratbench(['compare', 'a', 'b', '--max-error-rate', '150%']).stderr).toMatch(/--max-error-rate takes a fraction from 0 to 1 or a percentage/);
    expect(stratbench(['compare', 'a', 'b', '--min-effect', 'big']).status).toBe(2);
  });

  it('--min-effect 0 (or 0%) is refused with exit 2: no comparison could detect a zero drop, so the gate would be inconclusive forever', async () => {
    for (const value of ['0', '0%']) {
      const result = stratbench(['compare', 'a', 'b', '--fail-on-regression', '--min-effect', value]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('stratbench compare: --min-effect must be above 0 and at most 1 (a drop in success rate, 0.2 or 20% = 20 pp), got 0:');
      expect(result.stderr).toContain('the gate would be inconclusive (exit 3) forever');
    }
    const base = await folder({ tasks: 14, epochs: 3 });
    const inProcess = await runCompare(base, base, { ...gate, minEffect: -0.1 });
    expect(inProcess.exitCode).toBe(2);
    expect(inProcess.stderr).toContain('--min-effect must be above 0 and at most 1 (a drop in success rate, 0.2 or 20% = 20 pp), got -0.1');
  });
});

describe('verdict: regressed, no regression or inconclusive', () => {
  it('is inconclusive (exit 3) when 14 tasks cannot show a 20 pp drop, and says how large a drop they could', async () => {
    const base = await folder({ tasks: 14, epochs: 3 });
    const result = await runCompare(base, await folder({ tasks: 14, epochs: 3 }), gate);
    expect(result.exitCode).toBe(3);
    expect(result.report?.decision).toMatchObject({ verdict: 'inconclusive', regression: false, reasons: [] });
    expect(result.report?.decision.inconclusive).toEqual([
      'direct: with 14 shared tasks the smallest detectable drop is 47.2 pp, above --min-effect 20.0 pp (more tasks lower it)',
    ]);
    expect(result.stdout).toContain(
      'Decision: INCONCLUSIVE: no significant regression, but the comparison could have missed one (exit 3 with --fail-on-regression)',
    );
    // Enough tasks for the effect asked: no regression.
    const wide = await folder({ tasks: 100, epochs: 1 });
    expect((await runCompare(wide, await folder({ tasks: 100, epochs: 1 }), gate)).exitCode).toBe(0);
    // Without --fail-on-regression compare reports and exits 0.
    expect((await runCompare(base, base, { ...gate, failOnRegression: false })).exitCode).toBe(0);
  });

  it('--json prints the verdict, the exit code and the report; unusable input is a JSON error too', async () => {
    const base = await folder({ tasks: 100, epochs: 1 });
    const result = await runCompare(base, await folder({ tasks: 100, epochs: 1 }), { ...gate, json: true });
    const document = JSON.parse(result.stdout) as { verdict: string; exitCode: number; report: { coverage: { covered: number } } };
    expect(document).toMatchObject({ verdict: 'no regression', exitCode: 0, report: { coverage: { covered: 100 } } });
    const broken = await runCompare(base, join(root, 'nope'), { ...gate, json: true });
    expect(broken.exitCode).toBe(2);
    expect(JSON.parse(broken.stdout)).toMatchObject({ verdict: null, exitCode: 2, error: expect.stringContaining('cannot use HEAD') });
  });
});

describe('configuration: every difference is reported', () => {
  const ollama = (options: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    host: 'http://127.0.0.1:11434',
    server_version: '0.12.0',
    models: { 'qwen3:8b': { digest: 'sha256:aaaa' } },
    tool_calling: 'json',
    options: { temperature: 0, num_ctx: 8192, think: false, ...options },
    role_options: {},
    cache: null,
    ...extra,
  });

  it('names temperature, num_ctx, think, tool calling, seed and model digest changes: "models: same" hides nothing', async () => {
    const real = { models: { direct: 'ollama:qwen3:8b' }, config: { ...runFile().config, model_specs: { direct: 'ollama:qwen3:8b' } } };
    const base = await folder({ tasks: 100, epochs: 1 }, { ...real, ollama: ollama({}) });
    const head = await folder(
      { tasks: 100, epochs: 1 },
      {
        ...real,
        seed: 2,
        ollama: ollama({ temperature: 0.7, num_ctx: 4096, think: true }, { tool_calling: 'native', models: { 'qwen3:8b': { digest: 'sha256:bbbb' } } }),
      },
    );
    const result = await runCompare(base, head, gate);
    expect(result.report?.configuration.differences).toEqual([
      { aspect: 'models', field: 'ollama.models.qwen3:8b.digest', base: 'sha256:aaaa', head: 'sha256:bbbb' },
      { aspect: 'options', field: 'ollama.options.num_ctx', base: '8192', head: '4096' },
      { aspect: 'options', field: 'ollama.options.temperature', base: '0', head: '0.7' },
      { aspect: 'options', field: 'ollama.options.think', base: 'false', head: 'true' },
      { aspect: 'options', field: 'ollama.tool_calling', base: 'json', head: 'native' },
      { aspect: 'options', field: 'seed', base: '1', head: '2' },
    ]);
    expect(result.stdout).toContain('models: DIFFER — ollama.models.qwen3:8b.digest: sha256:aaaa → sha256:bbbb');
    expect(result.stdout).toContain(
      'options: DIFFER — ollama.options.num_ctx: 8192 → 4096; ollama.options.temperature: 0 → 0.7; ollama.options.think: false → true; ollama.tool_calling: json → native; seed: 1 → 2',
    );
  });

  it('names a scripted:faults model that run.json records as plain "scripted", and a different suite', async () => {
    const base = await folder({ tasks: 100, epochs: 1 });
    const head = await folder(
      { tasks: 100, epochs: 1 },
      {
        config: {
          ...runFile().config,
          model_specs: { direct: 'scripted:faults=agent.no_stop', agent: 'scripted:faults=agent.no_stop', planner: 'scripted:faults=agent.no_stop' },
        },
        suite: { path: 'tasks/core.yaml', name: 'core', hash: 'e'.repeat(64) },
      },
    );
    const result = await runCompare(base, head, gate);
    // One change made to several roles is named once, with the roles.
    expect(result.stdout).toContain(
      'models: DIFFER — config.model_specs.{agent,planner}: (none) → scripted:faults=agent.no_stop; ' +
        'config.model_specs.direct: scripted → scripted:faults=agent.no_stop\n',
    );
    expect(result.stdout).toContain(`suite: DIFFER — suite.hash: ${'f'.repeat(12)} → ${'e'.repeat(12)}`);
  });

  it('warns, and is inconclusive, when prompts differ but every role whose prompt changed is the scripted stand-in', async () => {
    const base = await folder({ tasks: 100, epochs: 1 });
    const head = await folder({ tasks: 100, epochs: 1 }, { prompts: { direct: 'b'.repeat(64) } });
    const result = await runCompare(base, head, gate);
    expect(result.exitCode).toBe(3);
    expect(result.report?.configuration).toMatchObject({ prompts: 'different', promptRolesChanged: ['direct'], promptRolesRead: [] });
    expect(result.stderr).toMatch(/warning: prompts differ \(direct\) but no role whose prompt changed is served by a model that reads prompts/);
    expect(result.stdout).toContain('says nothing about the prompt change');
    // The same change with a real model on that role: no warning, a two-way verdict.
    const real = { models: { direct: 'ollama:qwen3:8b' }, config: { ...runFile().config, model_specs: { direct: 'ollama:qwen3:8b' } } };
    const realBase = await folder({ tasks: 100, epochs: 1 }, real);
    const realHead = await folder({ tasks: 100, epochs: 1 }, { ...real, prompts: { direct: 'b'.repeat(64) } });
    const checked = await runCompare(realBase, realHead, gate);
    expect(checked.exitCode).toBe(0);
    expect(checked.stderr).toBe('');
  });
});
