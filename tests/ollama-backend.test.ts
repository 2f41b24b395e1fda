// The ollama backend against the fake server: host resolution, what the server receives, accounting, native tool calls.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaModel, resolveOllamaHost, type OllamaModelConfig } from '../src/models/ollama.js';
import { flattenJsonSchema, modelJsonSchema } from '../src/models/model-json-schema.js';
import { parseReply } from '../src/models/parse-reply.js';
import type { ChatOptions, ChatRequest } from '../src/models/types.js';
import { ActionReply, ExecutorReply, PlanReply } from '../src/strategies/replies.js';
import { okReply, startFakeOllama, type FakeChatRequest, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';

const TOOLS = [
  { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run', description: 'Run a command', parameters: { type: 'object', properties: { cmd: { type: 'string' }, timeout_s: { type: 'integer' } } } },
];

function request<T>(schemaName: string, schema: z.ZodType<T>, options: ChatOptions = {}, epoch = 0): ChatRequest {
  return {
    role: 'agent',
    schemaName,
    schema: schema as z.ZodType,
    view: { role: 'gate', task_id: 't1', prompt: 'p' },
    messages: () => [
      { role: 'system', content: 'You are a careful agent.' },
      { role: 'user', content: 'Fix the failing test.' },
    ],
    options,
    epoch,
  };
}

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: FixtureReply | ((body: FakeChatRequest, index: number) => FixtureReply), config: Partial<OllamaModelConfig> = {}) {
  server = await startFakeOllama({ reply: (body, { index }) => (typeof reply === 'function' ? reply(body, index) : reply) });
  return createOllamaModel({ model: 'qwen3:8b', host: server.url, ...config });
}
const lastBody = (): Record<string, any> => server!.chatCalls().at(-1)!.body as Record<string, any>;

describe('resolveOllamaHost', () => {
  it.each([
    [undefined, {}, 'http://127.0.0.1:11434'],
    [undefined, { OLLAMA_HOST: '' }, 'http://127.0.0.1:11434'],
    [undefined, { OLLAMA_HOST: 'gpu-box' }, 'http://gpu-box:11434'],
    [undefined, { OLLAMA_HOST: 'gpu-box:8080' }, 'http://gpu-box:8080'],
    [undefined, { OLLAMA_HOST: ':11500' }, 'http://127.0.0.1:11500'],
    [undefined, { OLLAMA_HOST: '0.0.0.0' }, 'http://127.0.0.1:11434'],
    [undefined, { OLLAMA_HOST: 'https://ollama.example.com' }, 'https://ollama.example.com:443'],
    [undefined, { OLLAMA_HOST: 'http://proxy.lan/ollama/' }, 'http://proxy.lan:80/ollama'],
    [undefined, { OLLAMA_HOST: '[::1]:9000' }, 'http://[::1]:9000'],
    ['10.0.0.5:7000', { OLLAMA_HOST: 'gpu-box' }, 'http://10.0.0.5:7000'],
    ['  ', { OLLAMA_HOST: 'gpu-box' }, 'http://gpu-box:11434'],
  ])('flag %j with env %j → %s', (flag, env, expected) => {
    expect(resolveOllamaHost(flag, env)).toBe(expected);
  });

  it('reads process.env by default and names the model ollama:<model>', () => {
    const saved = process.env.OLLAMA_HOST;
    process.env.OLLAMA_HOST = 'box:1234';
    try {
      const model = createOllamaModel({ model: 'qwen3:8b' });
      expect({ name: model.name, host: model.host, deterministic: model.deterministic }).toEqual({
        name: 'ollama:qwen3:8b',
        host: 'http://box:1234',
        deterministic: false,
      });
    } finally {
      if (saved === undefined) delete process.env.OLLAMA_HOST;
      else process.env.OLLAMA_HOST = saved;
    }
  });
});

describe('what the server receives', () => {
  it('sends the defaults: temperature 0, num_ctx 8192, think false, keep_alive, a flat schema in format and in the prompt', async () => {
    const model = await serve(okReply('{"action":"finish","answer":"ok"}'));
    await model.chat(request('action', ActionReply));
    const body = lastBody();
    expect(body).toMatchObject({ model: 'qwen3:8b', stream: false, think: false, keep_alive: '30m', options: { temperature: 0, num_ctx: 8192 } });
    expect(Object.keys(body.options).sort()).toEqual(['num_ctx', 'temperature']);
    expect(body.format).toEqual(modelJsonSchema(ActionReply));
    expect(body.tools).toBeUndefined();
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0].content).toMatch(/^You are a careful agent\.\n\nAlways reply with only a JSON value matching this JSON Schema/);
    expect(body.messages[0].content).toContain(JSON.stringify(modelJsonSchema(ActionReply)));
  });

  it('lets config defaults and then request options win', async () => {
    const model = await serve(okReply('{"answer":"x"}'), { options: { temperature: 0.2, num_ctx: 16384, keep_alive: '5m' } });
    await model.chat(request('report', z.object({ answer: z.string() }), { seed: 7, num_predict: 300, think: true, temperature: 0.7, timeout_ms: 5000 }));
    expect(lastBody()).toMatchObject({ think: true, keep_alive: '5m', options: { temperature: 0.7, seed: 7, num_ctx: 16384, num_predict: 300 } });
    expect(lastBody().options.timeout_ms).toBeUndefined();
  });

  it('adds a system message when the prompt has none, and none at all with schemaInPrompt false', async () => {
    const model = await serve(okReply('{}'));
    await model.chat({ ...request('report', z.object({})), messages: () => [{ role: 'user', content: 'hi' }] });
    expect(lastBody().messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
    const bare = createOllamaModel({ model: 'qwen3:8b', host: server!.url, schemaInPrompt: false });
    await bare.chat({ ...request('report', z.object({})), messages: () => [{ role: 'user', content: 'hi' }] });
    expect(lastBody().messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('gives the model a schema without $ref or $defs, for every reply schema and for recursive or shared ones', () => {
    const Shared = z.object({ path: z.string() }).meta({ id: 'Shared' });
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    for (const schema of [PlanReply, ActionReply, ExecutorReply, z.object({ a: Shared, b: Shared }), Node]) {
      const text = JSON.stringify(modelJsonSchema(schema));
      expect(text).not.toMatch(/\$ref|\$defs|\$schema/);
    }
    expect(modelJsonSchema(z.object({ a: Shared, b: Shared }))).toEqual({
      type: 'object',
      properties: {
        a: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
        b: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(modelJsonSchema(PlanReply)).toBe(modelJsonSchema(PlanReply));
    // A property called "$defs" or "id" is data, not schema plumbing.
    expect(flattenJsonSchema({ type: 'object', properties: { id: { type: 'string' }, definitions: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, definitions: { type: 'string' } },
    });
  });
});

describe('accounting', () => {
  it('converts nanoseconds to ms and does not charge load time', async () => {
    const model = await serve(okReply('{}', { total_duration: 1_234_567_890, load_duration: 234_567_890, prompt_eval_count: 321, eval_count: 45 }));
    const reply = await model.chat(request('report', z.object({})));
    expect(reply).toEqual({
      text: '{}',
      tokens_in: 321,
      tokens_out: 45,
      duration_ms: 1000,
      load_ms: 234.568,
      done_reason: 'stop',
      format_warnings: [],
      model: 'ollama:qwen3:8b',
      attempts: 1,
      // What the server received, for the trace: the messages with the schema line, and the options.
      sent: {
        messages: lastBody().messages,
        options: { temperature: 0, num_ctx: 8192, think: false, keep_alive: '30m', structured_output: 'format' },
      },
    });
    expect(reply.sent?.messages[0]?.content).toMatch(/^You are a careful agent\.\n\nAlways reply with only a JSON value matching this JSON Schema/);
  });

  it('keeps thinking as reasoning and streams when asked (content joined across NDJSON parts)', async () => {
    const reply = okReply('{"answer":"streamed reply"}', { message: { role: 'assistant', content: '{"answer":"streamed reply"}', thinking: 'hmm' } });
    const model = await serve(reply, { stream: true });
    const response = await model.chat(request('report', z.object({ answer: z.string() })));
    expect(lastBody().stream).toBe(true);
    expect(response).toMatchObject({ text: '{"answer":"streamed reply"}', reasoning: 'hmm', tokens_in: 100, tokens_out: 20, duration_ms: 1000 });
  });

  it('retries a thinking reply cut off with no content once with think false', async () => {
    const model = await serve((body) =>
      body.think === true
        ? okReply('', { done_reason: 'length', message: { role: 'assistant', content: '', thinking: 'so long' } })
        : okReply('{"answer":"ok"}'),
    );
    const reply = await model.chat(request('report', z.object({ answer: z.string() }), { think: true }));
    expect(server!.chatCalls().map((call) => (call.body as { think: unknown }).think)).toEqual([true, false]);
    expect(reply).toMatchObject({ text: '{"answer":"ok"}', attempts: 2, tokens_out: 40, done_reason: 'stop' });
    expect(reply.output_fault).toBeUndefined();
  });

  it('does not retry a length reply when nothing can be widened', async () => {
    const model = await serve(okReply('{"answer":"cut', { done_reason: 'length' }));
    const reply = await model.chat(request('report', z.object({ answer: z.string() })));
    expect(server!.chatCalls()).toHaveLength(1);
    expect(reply.output_fault).toEqual({ kind: 'output_budget_exhausted', detail: expect.stringContaining('num_predict unset (num_ctx 8192)') });
  });
});

describe('native tool calling', () => {
  const toolCall = (name: string, args: unknown, content = ''): FixtureReply =>
    okReply(content, { message: { role: 'assistant', content, tool_calls: [{ function: { name, arguments: args } }] } });

  it('sends tools instead of format for the action schemas and turns the call back into action JSON', async () => {
    const model = await serve(toolCall('run', { cmd: 'pnpm test', timeout_s: '30' }, 'Running the tests.'), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('action', ActionReply));
    expect(lastBody().format).toBeUndefined();
    expect(lastBody().tools).toEqual(TOOLS.map((tool) => ({ type: 'function', function: tool })));
    expect(lastBody().messages[0].content).toContain('To use a tool, call it with a tool call.');
    expect(reply).toMatchObject({
      text: '{"action":"tool","tool":"run","args":{"cmd":"pnpm test","timeout_s":30}}',
      structured: { action: 'tool', tool: 'run', args: { cmd: 'pnpm test', timeout_s: 30 } },
      format_warnings: ['type_coerced'],
      reasoning: 'Running the tests.',
    });
    expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: true, value: { action: 'tool', tool: 'run' } });
  });

  it('returns the content as is when the model answers without a tool call', async () => {
    const model = await serve(okReply('{"action":"finish","answer":"all tests pass"}'), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('action', ActionReply));
    expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: true, value: { action: 'finish', answer: 'all tests pass' } });
  });

  it('writes executor calls as {tool, args}, fixes a tool name that differs only in case, and keeps format for other schemas', async () => {
    const model = await serve((body) => (body.tools ? toolCall('READ', '{"path":"a.js"}') : okReply('{"answer":"done"}')), {
      toolCalling: 'native',
      tools: TOOLS,
    });
    const reply = await model.chat(request('executor_call', ExecutorReply));
    expect(reply).toMatchObject({ text: '{"tool":"read","args":{"path":"a.js"}}', format_warnings: ['tool_name_case', 'stringified_arguments'] });
    expect(lastBody().messages[0].content).toContain('Reply with exactly one tool call');
    const report = await model.chat(request('report', z.object({ answer: z.string() })));
    expect(lastBody().tools).toBeUndefined();
    expect(lastBody().format).toMatchObject({ type: 'object' });
    expect(report.text).toBe('{"answer":"done"}');
  });

  it('needs tool definitions', () => {
    expect(() => createOllamaModel({ model: 'qwen3:8b', toolCalling: 'native' })).toThrow(/needs the tool definitions/);
  });
});
