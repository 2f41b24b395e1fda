// The core suite over HTTP: the scripted model served by the fake Ollama server gives the in-process scripted results.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGIES } from '../src/strategies/index.js';
import { extractView } from '../src/strategies/prompts.js';
import { ACTION_SCHEMA_NAMES } from '../src/models/tool-calling.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { cellOf, comparable, records, runInProcess, scratch, startScriptedOllama, toolCalls, RUN_DEFAULTS } from './support/scripted-over-ollama.js';
import type { FakeChatRequest, FakeOllama } from './support/fake-ollama-server.js';

let server: FakeOllama;
let scripted: EpisodeRecord[];

beforeAll(async () => {
  server = await startScriptedOllama({ suitePath: String(RUN_DEFAULTS.suite), latencyMs: 0 });
  const out = join(scratch(), 'scripted');
  const run = await runInProcess({ out });
  expect(run.code).toBe(0);
  scripted = records(out);
});

afterAll(async () => {
  await server.close();
});

describe('§5 the core suite through the fake Ollama server serving the scripted model', () => {
  it('the in-process reference run covers every core task with every default strategy', () => {
    const tasks = new Set(scripted.map((record) => record.task));
    expect(tasks.size).toBe(14);
    expect(new Set(scripted.map((record) => record.strategy))).toEqual(new Set(DEFAULT_STRATEGIES));
    expect(scripted).toHaveLength(14 * DEFAULT_STRATEGIES.length);
    expect(scripted.some((record) => record.success)).toBe(true);
    expect(scripted.some((record) => !record.success)).toBe(true);
  });

  it.each(['json', 'native'] as const)('--tool-calling %s gives the same episodes: successes, tool-call sequences, traces', async (toolCalling) => {
    const before = server.chatCalls().length;
    const out = join(scratch(), toolCalling);
    const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: server.url, toolCalling });
    expect(run.code).toBe(0);
    const overHttp = records(out);

    expect(overHttp.map((record) => [cellOf(record), record.success])).toEqual(scripted.map((record) => [cellOf(record), record.success]));
    expect(overHttp.map(toolCalls)).toEqual(scripted.map(toolCalls));
    expect(comparable(overHttp)).toEqual(comparable(scripted));
    expect(overHttp.every((record) => record.outcome.status !== 'error')).toBe(true);

    // Every model call went over HTTP, one request each, naming the Ollama model on every event and record.
    const events = overHttp.flatMap((record) => record.trace.filter((event) => event.type === 'model_call'));
    const requests = server
      .chatCalls()
      .slice(before)
      .map((call) => call.body as FakeChatRequest);
    expect(requests).toHaveLength(events.length);
    expect(new Set(events.map((event) => (event.type === 'model_call' ? event.model : '')))).toEqual(new Set(['ollama:qwen3:8b']));
    expect(overHttp.every((record) => Object.values(record.models).every((name) => name === 'ollama:qwen3:8b'))).toBe(true);
    expect(new Set(events.map((event) => (event.type === 'model_call' ? event.role : '')))).toEqual(
      new Set(['direct', 'agent', 'planner', 'executor', 'replanner', 'reporter', 'gate']),
    );

    // How actions were asked for: `format` in json mode; `tools` and no `format` for action roles in native mode.
    const actionRequests = requests.filter((body) => body.tools !== undefined);
    if (toolCalling === 'json') {
      expect(actionRequests).toEqual([]);
      expect(requests.every((body) => body.format !== undefined)).toBe(true);
    } else {
      const actionEvents = events.filter((event) => event.type === 'model_call' && ACTION_SCHEMA_NAMES.has(event.schema));
      expect(actionRequests).toHaveLength(actionEvents.length);
      expect(actionRequests.every((body) => body.format === undefined && (body.tools as unknown[]).length === 10)).toBe(true);
    }

    // run.json records the server, the digest, the mode and the options.
    const runInfo = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, any>;
    expect(runInfo.ollama).toEqual({
      host: server.url,
      server_version: '0.12.0',
      models: { 'qwen3:8b': expect.objectContaining({ name: 'qwen3:8b', digest: 'sha256:' + '8'.repeat(64) }) },
      tool_calling: toolCalling,
      options: { temperature: 0, num_ctx: 8192, think: false, keep_alive: '30m' },
      role_options: {},
      cache: null,
    });
    expect(run.stdout).toContain('models: ');
    expect(run.stdout).toMatch(/planner=ollama:qwen3:8b/);
    expect(run.stdout).toContain(`note: ollama 0.12.0 at ${server.url}: tool calling ${toolCalling}, temperature 0, num_ctx 8192, think false`);
  });

  it('mixes backends: a scripted planner with an Ollama executor, each record naming the model of each role', async () => {
    const before = server.chatCalls().length;
    const out = join(scratch(), 'mixed');
    const run = await runInProcess({ out, strategies: 'plan-replan', plannerModel: 'scripted', model: 'ollama:qwen3:8b', ollamaHost: server.url });
    expect(run.code).toBe(0);
    const mixed = records(out);
    expect(mixed.map((record) => record.success)).toEqual(scripted.filter((record) => record.strategy === 'plan-replan').map((record) => record.success));
    expect(mixed[0]?.models).toEqual({ planner: 'scripted', executor: 'ollama:qwen3:8b', replanner: 'ollama:qwen3:8b', reporter: 'ollama:qwen3:8b' });
    const roles = new Set(
      server
        .chatCalls()
        .slice(before)
        .map((call) => extractRole(call.body as FakeChatRequest)),
    );
    expect(roles.has('planner')).toBe(false);
    expect(roles.has('executor')).toBe(true);
    expect(run.stdout).toMatch(/models: planner=scripted executor=ollama:qwen3:8b replanner=ollama:qwen3:8b reporter=ollama:qwen3:8b/);
  });
});

/** The role of a chat request, read from its state block. */
function extractRole(body: FakeChatRequest): string | undefined {
  return extractView(body.messages ?? [])?.role;
}
