// The judged check: its schema, the scripted judge's rule, κ by hand, and every judge failure as infrastructure.
import { describe, expect, it, afterEach } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Check } from '../src/suite/schema.js';
import { rubricFacts, scriptedVerdict } from '../src/scoring/judge/scripted-judge.js';
import { judgeAgreement } from '../src/report/judge-agreement.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { parseAnswerSet } from '../src/suite/judge-answers.js';
import { runEpisode, type RunEnvironment } from '../src/runner/episode.js';
import { modelJudge } from '../src/runner/judge.js';
import { createOpenAIModel } from '../src/models/openai.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { ROLES, type ChatModel, type Role } from '../src/models/types.js';
import { loadPromptSet } from '../src/runner/prompt-files.js';
import { toolDescriptionsForPrompt } from '../src/tools/index.js';
import { completion, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai-server.js';
import { findPromptContamination } from '../src/suite/prompt-contamination.js';

const SUITE = fileURLToPath(new URL('../docs/examples/judged-suite.yaml', import.meta.url));
const PROMPTS = fileURLToPath(new URL('../prompts', import.meta.url));
const RUBRIC = 'Says the tests do not pass: "charges 25 cents a day" fails with `expected 120 to be 150`.';

describe('the judged check in the suite schema', () => {
  it('accepts a rubric, with or without `on`', () => {
    expect(Check.parse({ check: 'judged', rubric: 'names the owner' })).toEqual({ check: 'judged', rubric: 'names the owner' });
    expect(Check.parse({ check: 'judged', rubric: 'names the owner', on: 'message' })).toEqual({ check: 'judged', rubric: 'names the owner', on: 'message' });
  });

  it('rejects a missing or empty rubric, an unknown `on` and an unknown key', () => {
    const issues = (value: unknown) => Check.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
    expect(issues({ check: 'judged' })).toEqual(['rubric: invalid_type']);
    expect(issues({ check: 'judged', rubric: '' })).toEqual(['rubric: too_small']);
    expect(issues({ check: 'judged', rubric: 'x', on: 'stdout' })).toEqual(['on: invalid_value']);
    expect(issues({ check: 'judged', rubric: 'x', model: 'gpt' })).toEqual([': unrecognized_keys']);
  });
});

describe('the scripted judge', () => {
  it('reads the facts a rubric quotes ("…", “…”, `…`), each once', () => {
    expect(rubricFacts('Names "Priya Nair" and `4be19d2`, and “Priya Nair” again')).toEqual(['Priya Nair', '4be19d2']);
    expect(rubricFacts('Names the owner')).toEqual([]);
  });

  it('passes a text holding every quoted fact, compared normalised and case-insensitively', () => {
    expect(scriptedVerdict(RUBRIC, 'No: ‘Charges 25 cents a  day’ fails —\nexpected 120 to be 150.')).toEqual({
      verdict: 'pass',
      reason: 'states every quoted fact of the rubric ("charges 25 cents a day", "expected 120 to be 150")',
    });
  });

  it('fails a text missing a fact, naming it, and fails every text when the rubric quotes none', () => {
    expect(scriptedVerdict(RUBRIC, 'The tests fail: expected 120 to be 150.')).toEqual({ verdict: 'fail', reason: 'does not state "charges 25 cents a day"' });
    expect(scriptedVerdict('Names the owner', 'Priya')).toEqual({
      verdict: 'fail',
      reason: 'the rubric quotes no fact ("…" or `…`) for the scripted judge to look for',
    });
  });

  it('is deterministic: the same verdicts for the same inputs, whatever came before', () => {
    const texts = ['a', 'charges 25 cents a day, expected 120 to be 150', '', 'EXPECTED 120 TO BE 150'];
    const first = texts.map((text) => scriptedVerdict(RUBRIC, text));
    const second = [...texts].reverse().map((text) => scriptedVerdict(RUBRIC, text));
    expect(second.reverse()).toEqual(first);
  });
});

describe('the judge prompt', () => {
  it('shares no 12-word sequence with the core, bench or example suites (its examples come from other domains)', async () => {
    const template = readFileSync(`${PROMPTS}/judge.md`, 'utf8');
    for (const suite of ['../tasks/core.yaml', '../tasks/bench.json', '../docs/examples/judged-suite.yaml']) {
      const loaded = await loadSuiteFile(fileURLToPath(new URL(suite, import.meta.url)));
      if (!loaded.ok) throw new Error(`${suite} does not load`);
      expect(findPromptContamination({ judge: template }, loaded.tasks), suite).toEqual([]);
    }
    for (const word of ['pnpm', 'vitest', 'commit', 'token', 'catalogue']) expect(template.toLowerCase()).not.toContain(word);
  });
});

describe("Cohen's κ", () => {
  it('agrees with the hand computation on 10 items (4 both pass, 4 both fail, 1 false pass, 1 false fail)', () => {
    // p_o = 8/10; p_e = 0.5·0.5 + 0.5·0.5 = 0.5; κ = (0.8 − 0.5)/(1 − 0.5) = 0.6; SE = √(0.8·0.2 / (10·0.25)) = √0.064.
    const items = [
      ...Array.from({ length: 4 }, () => ({ label: 'pass' as const, verdict: 'pass' as const })),
      ...Array.from({ length: 4 }, () => ({ label: 'fail' as const, verdict: 'fail' as const })),
      { label: 'fail' as const, verdict: 'pass' as const },
      { label: 'pass' as const, verdict: 'fail' as const },
    ];
    const agreement = judgeAgreement(items);
    expect(agreement.kappa).toBeCloseTo(0.6, 12);
    expect(agreement.kappa_se).toBeCloseTo(Math.sqrt(0.064), 12);
    expect(agreement.kappa_ci95?.[0]).toBeCloseTo(0.6 - 1.96 * Math.sqrt(0.064), 12);
    expect(agreement).toMatchObject({ n: 10, agreement: 0.8, false_passes: 1, false_fails: 1, kappa_ci95: [expect.any(Number), 1] });
  });

  it('is undefined when labels and verdicts are all one value', () => {
    expect(judgeAgreement([{ label: 'pass', verdict: 'pass' }])).toEqual({
      n: 1,
      agreement: 1,
      kappa: null,
      kappa_se: null,
      kappa_ci95: null,
      false_passes: 0,
      false_fails: 0,
    });
  });
});

describe('the labelled answer set', () => {
  it('reports schema and reference errors as file:line:col', async () => {
    const loaded = await loadSuiteFile(SUITE);
    if (!loaded.ok) throw new Error('suite does not load');
    const text = ['version: 1', 'suite: judged-example', 'tasks:', '  nope:', '    answers:', '      - { label: maybe, text: x }', ''].join('\n');
    const result = parseAnswerSet(text, 'answers.yaml', { name: loaded.suite.name, tasks: loaded.tasks });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => `${error.file}:${error.line}:${error.col}  ${error.path}`)).toEqual(['answers.yaml:6:11  tasks.nope.answers[0].label']);
    const unknownTask = parseAnswerSet(text.replace('maybe', 'pass'), 'answers.yaml', { name: loaded.suite.name, tasks: loaded.tasks });
    expect(unknownTask.ok ? [] : unknownTask.errors.map((error) => `${error.line}:${error.col} ${error.message}`)).toEqual([
      '4:3 task "nope" is not a task of the suite',
    ]);
  });

  it('the shipped set loads: 47 answers, 20 labelled pass', async () => {
    const loaded = await loadSuiteFile(SUITE);
    if (!loaded.ok) throw new Error('suite does not load');
    const path = SUITE.replace(/\.yaml$/, '.judge-answers.yaml');
    const result = parseAnswerSet(readFileSync(path, 'utf8'), path, { name: loaded.suite.name, tasks: loaded.tasks });
    if (!result.ok) throw new Error(result.errors.map((error) => error.message).join('\n'));
    expect([result.items.length, result.items.filter((item) => item.label === 'pass').length]).toEqual([47, 20]);
  });
});

// ─── A judge model's failures are infrastructure, never the agent's ───

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function environment(judgeModel: ChatModel, timeoutMs = 60_000): Promise<{ env: RunEnvironment; task: LoadedTask }> {
  const loaded = await loadSuiteFile(SUITE);
  if (!loaded.ok) throw new Error('suite does not load');
  const task = loaded.tasks.find((candidate) => candidate.id === 'fees-tests-status')!;
  const scripted = new ScriptedModel(loaded.tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })));
  const prompts = await loadPromptSet(PROMPTS);
  const template = { template: readFileSync(`${PROMPTS}/judge.md`, 'utf8'), sha256: 'test' };
  const env: RunEnvironment = {
    models: Object.fromEntries(ROLES.map((role) => [role, scripted as ChatModel])) as Record<Role, ChatModel>,
    prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({}),
    options: { lookupMissAsResult: false },
    configHash: 'test',
    judge: modelJudge('openai:judge', judgeModel, template, { timeout_ms: timeoutMs }),
  };
  return { env, task };
}

const judgeModelAt = (baseURL: string) => createOpenAIModel({ model: 'judge', baseURL, retry: { attempts: 1, baseMs: 1, maxMs: 1, totalMs: 1_000 } });

const episodeOf = async (env: RunEnvironment, task: LoadedTask) => runEpisode({ task, strategy: 'react', epoch: 1, seed: 1 }, env);

describe('a judge model grades the judged check after the episode', () => {
  it('a pass verdict scores the check, recorded with the judge and its reason in the checks and the trace', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: () => completion('{"verdict":"pass","reason":"names the failing test and its values"}') });
    const { env, task } = await environment(judgeModelAt(server.url));
    const record = await episodeOf(env, task);
    expect(record.success).toBe(true);
    expect(record.checks[0]).toEqual({ check: task.checks[0], pass: true, detail: 'judge openai:judge: pass: names the failing test and its values' });
    const finalChecks = record.trace.flatMap((event) => (event.type === 'check' && event.scope === 'final' ? [event.detail] : []));
    expect(finalChecks[0]).toBe('judge openai:judge: pass: names the failing test and its values');
    // The judge saw the prompt, the rubric, the answer and what `pnpm test` printed.
    const state = server.completionCalls()[0]!.body.messages[1]!.content;
    expect(state).toContain('"rubric":');
    expect(state).toContain('"tool":"run"');
    expect(state).toContain('expected 120 to be 150');
    // Not in the strategy's cost: the judge's call is no role's.
    expect(record.metrics.model_calls['judge' as Role]).toBeUndefined();
  });

  it('a fail verdict is the agent’s failure (not an error)', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: () => completion('{"verdict":"fail","reason":"no test named"}') });
    const { env, task } = await environment(judgeModelAt(server.url));
    const record = await episodeOf(env, task);
    expect([record.outcome.status, record.success, record.checks[0]?.pass]).toEqual(['finished', false, false]);
  });
});

describe('judge failures are infrastructure errors', () => {
  it('an unreachable judge: error / infrastructure:judge_unreachable, naming the judge', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { env, task } = await environment(judgeModelAt(`http://127.0.0.1:${port}/v1`));
    const record = await episodeOf(env, task);
    expect([record.outcome.status, record.outcome.reason, record.success, record.checks]).toEqual(['error', 'infrastructure:judge_unreachable', false, []]);
    expect(record.outcome.message).toMatch(/^judge openai:judge: /);
  });

  it('a reply that fails the verdict schema after the repair attempt: infrastructure:judge_invalid_reply (two calls)', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: () => completion('{"verdict":"maybe"}') });
    const { env, task } = await environment(judgeModelAt(server.url));
    const record = await episodeOf(env, task);
    expect([record.outcome.status, record.outcome.reason, record.success]).toEqual(['error', 'infrastructure:judge_invalid_reply', false]);
    expect(record.outcome.message).toContain('after a repair attempt');
    expect(server.completionCalls()).toHaveLength(2);
  });

  it('a judge that never answers: infrastructure:judge_timeout', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: () => ({ hang: true }) });
    const { env, task } = await environment(judgeModelAt(server.url), 200);
    const record = await episodeOf(env, task);
    expect([record.outcome.status, record.outcome.reason, record.success]).toEqual(['error', 'infrastructure:judge_timeout', false]);
  });

  it('a server error: infrastructure:judge_server_error', async () => {
    server = await startFakeOpenAI({ models: ['judge'], reply: () => ({ status: 500, body: { error: { message: 'boom' } } }) });
    const { env, task } = await environment(judgeModelAt(server.url));
    const record = await episodeOf(env, task);
    expect([record.outcome.status, record.outcome.reason]).toEqual(['error', 'infrastructure:judge_server_error']);
  });
});
