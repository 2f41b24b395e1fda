// The openai:<model> backend against a fake OpenAI-compatible server on 127.0.0.1: requests as vLLM and llama.cpp take
// them, the same reply faults as the Ollama fixtures, infrastructure errors, preflight, and the core suite end to end.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAIModel, preflightOpenAI } from '../src/models/openai.js';
import { ConfigurationError } from '../src/models/preflight.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { InfrastructureError, type ChatRequest } from '../src/models/types.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { apiError, completion, scriptedOpenAIReply, startFakeOpenAI, type FakeOpenAI, type OpenAIReply } from './support/fake-openai-server.js';
import { cellOf, comparable, records, runInProcess, scratch, scriptedTasksOf, toolCalls, RUN_DEFAULTS } from './support/scripted-over-ollama.js';

const Answer = z.object({ action: z.literal('finish'), answer: z.string() });
const request = (fields: Partial<ChatRequest> = {}): ChatRequest => ({
  role: 'agent',
  schemaName: 'answer',
  schema: Answer,
  view: { kind: 'agent' } as never,
  messages: () => [
    { role: 'system', content: 'You answer questions about a repository.' },
    { role: 'user', content: 'What is the default currency?' },
  ],
  options: {},
  epoch: 0,
  ...fields,
});
const fastRetry = { retry: { attempts: 3, baseMs: 1, maxMs: 2, totalMs: 5_000 } };

async function serve(replies: OpenAIReply[], options: { models?: string[]; apiKey?: string } = {}): Promise<FakeOpenAI> {
  return startFakeOpenAI({ ...options, reply: (_request, { index }) => replies[Math.min(index, replies.length - 1)]! });
}

describe('openai:<model> backend', () => {
  const servers: FakeOpenAI[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  const start = async (replies: OpenAIReply[], options: { models?: string[]; apiKey?: string } = {}) => {
    const server = await serve(replies, options);
    servers.push(server);
    return server;
  };

  it('asks for the reply schema with response_format json_schema, greedy, thinking off, and accounts tokens', async () => {
    const server = await start([completion('{"action":"finish","answer":"EUR"}')]);
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url, apiKey: 'sk-test' });
    const reply = await model.chat(request());
    expect(reply).toMatchObject({ text: '{"action":"finish","answer":"EUR"}', tokens_in: 100, tokens_out: 20, model: 'openai:Qwen/Qwen3-8B', attempts: 1 });
    const body = server.completionCalls()[0]!.body;
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'answer', strict: true } });
    expect(body.response_format?.json_schema?.schema).toMatchObject({ type: 'object', required: ['action', 'answer'] });
    expect(body).toMatchObject({ model: 'Qwen/Qwen3-8B', temperature: 0, chat_template_kwargs: { enable_thinking: false } });
    expect(body.messages[0]!.content).toMatch(/^You answer questions about a repository\.\n\nAlways reply with only a JSON value/);
    expect(server.calls[0]!.authorization).toBe('Bearer sk-test');
    expect(reply.sent?.options).toMatchObject({ structured_output: 'json_schema', temperature: 0, think: false });
  });

  it('falls back to the schema in the prompt, for good, when the server rejects response_format with a 400', async () => {
    const server = await start([
      apiError(400, "Unsupported parameter: 'response_format' of type json_schema"),
      completion('{"action":"finish","answer":"EUR"}'),
    ]);
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url });
    expect((await model.chat(request())).text).toBe('{"action":"finish","answer":"EUR"}');
    await model.chat(request());
    const bodies = server.completionCalls().map((call) => call.body);
    expect(bodies.map((body) => body.response_format?.type ?? 'none')).toEqual(['json_schema', 'none', 'none']);
  });

  it('keeps the reasoning a server returns apart (reasoning_content) and leaves a fenced or thinking-wrapped reply for the parser', async () => {
    const server = await start([completion('```json\n{"action":"finish","answer":"EUR"}\n```', { message: { reasoning_content: 'The config says EUR.' } })]);
    const reply = await createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url }).chat(request());
    expect(reply.text).toBe('```json\n{"action":"finish","answer":"EUR"}\n```');
    expect(reply.reasoning).toBe('The config says EUR.');
  });

  it('finish_reason "length": one retry with thinking off when thinking left no content, then output_budget_exhausted', async () => {
    const server = await start([completion('', { finish_reason: 'length' }), completion('{"action":"fin', { finish_reason: 'length' })]);
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url });
    const reply = await model.chat(request({ options: { think: true } }));
    expect(server.completionCalls().map((call) => call.body.chat_template_kwargs?.enable_thinking)).toEqual([true, false]);
    expect(reply.output_fault?.kind).toBe('output_budget_exhausted');
    expect(reply.output_fault?.detail).toMatch(/retried with think: false/);
    expect(reply).toMatchObject({ text: '{"action":"fin', attempts: 2, tokens_out: 40 });
  });

  it("a 500 from the server's tool-call parser is the model's output: retried once, then tool_call_malformed", async () => {
    const server = await start([apiError(500, 'error parsing tool call: invalid character', 'InternalServerError')]);
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url, ...fastRetry });
    const reply = await model.chat(request());
    expect(reply.output_fault).toEqual({ kind: 'tool_call_malformed', detail: expect.stringMatching(/error parsing tool call/) });
    expect(server.completionCalls()).toHaveLength(2);
  });

  it('native tool calls with JSON-string arguments become the action schema text, the name case repaired', async () => {
    const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
    const server = await start([
      completion(null, {
        finish_reason: 'tool_calls',
        message: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"src/config.js"}' } }] },
      }),
    ]);
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url, toolCalling: 'native', tools });
    const reply = await model.chat(request({ schemaName: 'action' }));
    expect(JSON.parse(reply.text)).toEqual({ action: 'tool', tool: 'read', args: { path: 'src/config.js' } });
    expect(reply.format_warnings).toEqual(expect.arrayContaining(['tool_name_case', 'stringified_arguments']));
    const body = server.completionCalls()[0]!.body;
    expect(body.tools?.[0]).toMatchObject({ type: 'function', function: { name: 'read' } });
    expect(body.response_format).toBeUndefined();
  });

  it('retries 503 and 429 (busy) and a 502 (server error) with backoff, then answers', async () => {
    const server = await start([
      apiError(503, 'overloaded', 'ServiceUnavailable'),
      apiError(502, 'bad gateway', 'InternalServerError'),
      completion('{"action":"finish","answer":"EUR"}'),
    ]);
    const reply = await createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: server.url, ...fastRetry }).chat(request());
    expect(reply.text).toBe('{"action":"finish","answer":"EUR"}');
    expect(server.completionCalls()).toHaveLength(3);
  });

  it('ends in InfrastructureError, never a reply: 5xx forever (server_error), a missing model (model_missing, no retry), a hang (timeout), a dead server (unreachable)', async () => {
    const broken = await start([apiError(500, 'CUDA out of memory', 'InternalServerError')]);
    await expect(createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: broken.url, ...fastRetry }).chat(request())).rejects.toMatchObject({
      name: 'InfrastructureError',
      kind: 'server_error',
    });
    expect(broken.completionCalls()).toHaveLength(3);

    const missing = await start([completion('{}')]);
    const error = await createOpenAIModel({ model: 'nope', baseURL: missing.url, ...fastRetry })
      .chat(request())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(error).toMatchObject({ kind: 'model_missing' });
    expect(missing.completionCalls()).toHaveLength(1);

    const hanging = await start([{ hang: true }]);
    await expect(
      createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: hanging.url, retry: { attempts: 2, baseMs: 1, maxMs: 1, totalMs: 5_000 } }).chat(
        request({ options: { timeout_ms: 150 } }),
      ),
    ).rejects.toMatchObject({ kind: 'timeout' });

    const dead = await start([completion('{}')]);
    const deadUrl = dead.url;
    await dead.close();
    await expect(createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL: deadUrl, ...fastRetry }).chat(request())).rejects.toMatchObject({
      kind: 'unreachable',
    });
  });

  it('preflight lists the models at /v1/models, and names the base URL or the missing model otherwise', async () => {
    const server = await start([completion('{}')], { models: ['Qwen/Qwen3-8B', 'meta-llama/Llama-3.1-8B-Instruct'] });
    await expect(preflightOpenAI(server.url, ['Qwen/Qwen3-8B'])).resolves.toMatchObject({
      models: { 'Qwen/Qwen3-8B': { id: 'Qwen/Qwen3-8B', max_model_len: 32768 } },
    });
    await expect(preflightOpenAI(server.url, ['Qwen/Qwen3-32B'])).rejects.toThrow(
      new ConfigurationError(
        `the OpenAI-compatible server at ${server.url} does not serve "Qwen/Qwen3-32B"; it serves: Qwen/Qwen3-8B, meta-llama/Llama-3.1-8B-Instruct`,
      ),
    );
    const locked = await start([completion('{}')], { apiKey: 'sk-right' });
    await expect(preflightOpenAI(locked.url, ['Qwen/Qwen3-8B'], { apiKey: 'sk-wrong' })).rejects.toThrow(/HTTP 401.*check OPENAI_API_KEY/);
    await expect(preflightOpenAI('http://127.0.0.1:9/v1', ['Qwen/Qwen3-8B'])).rejects.toThrow(
      /cannot reach the OpenAI-compatible server at http:\/\/127\.0\.0\.1:9\/v1/,
    );
  });
});

describe('the core suite through the fake OpenAI-compatible server serving the scripted model', () => {
  let server: FakeOpenAI;
  let scripted: EpisodeRecord[];
  beforeAll(async () => {
    server = await startFakeOpenAI({ reply: scriptedOpenAIReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite)))) });
    const out = join(scratch(), 'scripted');
    expect((await runInProcess({ out })).code).toBe(0);
    scripted = records(out);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['json', 'native'] as const)(
    '--tool-calling %s gives the in-process episodes: successes, tool calls, traces',
    async (toolCalling) => {
      const before = server.completionCalls().length;
      const out = join(scratch(), `openai-${toolCalling}`);
      const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: server.url, toolCalling });
      expect(run.code).toBe(0);
      const overHttp = records(out);
      expect(overHttp.map((record) => [cellOf(record), record.success])).toEqual(scripted.map((record) => [cellOf(record), record.success]));
      expect(overHttp.map(toolCalls)).toEqual(scripted.map(toolCalls));
      expect(comparable(overHttp)).toEqual(comparable(scripted));
      const events = overHttp.flatMap((record) => record.trace.filter((event) => event.type === 'model_call'));
      // Native tool calls add the preflight's one probe request.
      expect(server.completionCalls().length - before).toBe(events.length + (toolCalling === 'native' ? 1 : 0));
      expect(overHttp.every((record) => Object.values(record.models).every((name) => name === 'openai:Qwen/Qwen3-8B'))).toBe(true);
      expect(run.stdout).toMatch(/openai-compatible server at http:\/\/127\.0\.0\.1:\d+\/v1: tool calling/);
    },
    120_000,
  );

  it('exits 2 before any episode when the server does not serve the model', async () => {
    await expect(runInProcess({ out: join(scratch(), 'missing'), model: 'openai:Qwen/Qwen3-32B', openaiBaseUrl: server.url })).rejects.toThrow(
      /does not serve "Qwen\/Qwen3-32B"/,
    );
  });
});
