// Replays every reply of fixtures/ollama-replies.json through the fake server and the real ollama client.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createOllamaModel, type OllamaModelConfig } from '../src/models/ollama.js';
import { parseReply } from '../src/models/parse-reply.js';
import { InfrastructureError, type ChatOptions, type ChatRequest, type ChatResponse } from '../src/models/types.js';
import { ActionReply, ExecutorReply, PlanReply } from '../src/strategies/replies.js';
import { fixtureReply, okReply, startFakeOllama, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';

interface Fixture {
  id: string;
  status: number | null;
  body: unknown;
  expected: string;
}
const fixtures = JSON.parse(readFileSync(new URL('./fixtures/shared/ollama-replies.json', import.meta.url), 'utf8')) as Fixture[];
const fixture = (id: string): Fixture => {
  const found = fixtures.find((item) => item.id === id);
  if (!found) throw new Error(`no fixture ${id}`);
  return found;
};

/** The plan shape the synthetic fixtures use (numeric step ids, no `does`): to show a fenced reply that does match. */
const FixturePlan = z.object({ goal: z.string(), steps: z.array(z.object({ id: z.number(), tool: z.string(), args: z.record(z.string(), z.unknown()) })) });

const TOOLS = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'search_docs', description: 'Search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  {
    name: 'read_lines',
    description: 'Read some lines',
    parameters: { type: 'object', properties: { path: { type: 'string' }, start_line: { type: 'integer' }, end_line: { type: 'integer' } } },
  },
];

function request<T>(schemaName: string, schema: z.ZodType<T>, options: ChatOptions = {}): ChatRequest {
  return {
    role: 'agent',
    schemaName,
    schema: schema as z.ZodType,
    view: { role: 'gate', task_id: 't1', prompt: 'p' },
    messages: () => [
      { role: 'system', content: 'You are a careful agent.' },
      { role: 'user', content: 'Do the task.' },
    ],
    options,
    epoch: 0,
  };
}

const sleeps: number[] = [];
let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  sleeps.length = 0;
});

async function replay(replies: FixtureReply | ((index: number) => FixtureReply), config: Partial<OllamaModelConfig> = {}) {
  server = await startFakeOllama({ reply: (_body, { index }) => (typeof replies === 'function' ? replies(index) : replies) });
  let clock = 0;
  return createOllamaModel({
    model: 'qwen3:8b',
    host: server.url,
    clock: { sleep: async (ms) => void (sleeps.push(ms), (clock += ms)), random: () => 0.5, now: () => clock },
    ...config,
  });
}

const chatBodies = (): Array<Record<string, any>> => server!.chatCalls().map((call) => call.body as Record<string, any>);

async function infraError(promise: Promise<ChatResponse>): Promise<InfrastructureError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InfrastructureError);
  return error as InfrastructureError;
}

const cases: Record<string, () => Promise<void>> = {
  'json-in-markdown-fence': async () => {
    const model = await replay(fixtureReply(fixture('json-in-markdown-fence')));
    const reply = await model.chat(request('plan', FixturePlan));
    expect(reply).toMatchObject({ tokens_in: 412, tokens_out: 58, duration_ms: 2088, load_ms: 12, done_reason: 'stop', attempts: 1 });
    expect(parseReply(reply.text, FixturePlan, reply.done_reason)).toMatchObject({ ok: true, warnings: ['fenced_json'] });
    // The same fence around a reply of the wrong shape falls through to the normal classification.
    expect(parseReply(reply.text, PlanReply, reply.done_reason)).toMatchObject({ ok: false, failure: 'schema_mismatch', warnings: ['fenced_json'] });
  },
  'think-tags-in-content': async () => {
    const model = await replay(fixtureReply(fixture('think-tags-in-content')));
    const reply = await model.chat(request('executor_call', ExecutorReply));
    expect(parseReply(reply.text, ExecutorReply, reply.done_reason)).toEqual({
      ok: true,
      value: { tool: 'search_docs', args: { query: 'retry policy' } },
      warnings: ['reasoning_in_content'],
      reasoning: '',
    });
    await server?.close();
    const thinkingOnly = await replay(okReply('<think>I should search first.</think>\n'));
    const empty = await thinkingOnly.chat(request('executor_call', ExecutorReply));
    expect(parseReply(empty.text, ExecutorReply, empty.done_reason)).toMatchObject({ ok: false, failure: 'reasoning_only' });
  },
  'empty-content-done-reason-length': async () => {
    const model = await replay(fixtureReply(fixture('empty-content-done-reason-length')));
    const reply = await model.chat(request('plan', PlanReply, { num_predict: 80 }));
    expect(chatBodies().map((body) => body.options.num_predict)).toEqual([80, 160]);
    expect(reply).toMatchObject({ text: '', done_reason: 'length', attempts: 2, tokens_out: 160, reasoning: expect.stringContaining('The user wants a plan') });
    expect(reply.output_fault).toEqual({
      kind: 'output_budget_exhausted',
      detail: expect.stringMatching(/num_predict 160 .* of thinking; retried with num_predict 160 after num_predict 80$/),
    });
    expect(parseReply(reply.text, PlanReply, reply.done_reason)).toMatchObject({ ok: false, failure: 'empty_output' });
  },
  'format-silently-ignored': async () => {
    const model = await replay(fixtureReply(fixture('format-silently-ignored')));
    const reply = await model.chat(request('plan', PlanReply));
    expect(chatBodies()[0]?.format).toMatchObject({ type: 'object', required: expect.arrayContaining(['goal', 'steps']) });
    expect(reply.attempts).toBe(1);
    expect(parseReply(reply.text, PlanReply, reply.done_reason)).toMatchObject({ ok: false, failure: 'unparseable' });
  },
  'valid-json-wrong-shape': async () => {
    const model = await replay(fixtureReply(fixture('valid-json-wrong-shape')));
    const reply = await model.chat(request('plan', PlanReply));
    const parsed = parseReply(reply.text, PlanReply, reply.done_reason);
    expect(parsed).toMatchObject({ ok: false, failure: 'schema_mismatch', json: { thought: expect.any(String) } });
  },
  'truncated-json-length': async () => {
    const model = await replay(fixtureReply(fixture('truncated-json-length')));
    const reply = await model.chat(request('plan', PlanReply, { num_predict: 256 }));
    expect(chatBodies().map((body) => body.options.num_predict)).toEqual([256, 512]);
    expect(reply.output_fault?.kind).toBe('output_budget_exhausted');
    expect(reply.output_fault?.detail).toContain('retried with num_predict 512');
    expect(parseReply(reply.text, PlanReply, reply.done_reason)).toMatchObject({ ok: false, failure: 'truncated_output' });
  },
  'tool-arguments-json-string': async () => {
    const model = await replay(fixtureReply(fixture('tool-arguments-json-string')), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('action', ActionReply));
    expect(reply.text).toBe('{"action":"tool","tool":"read_file","args":{"path":"README.md"}}');
    expect(reply.format_warnings).toEqual(['stringified_arguments']);
    expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: true, value: { action: 'tool', tool: 'read_file', args: { path: 'README.md' } } });
  },
  'hallucinated-tool-name': async () => {
    const model = await replay(fixtureReply(fixture('hallucinated-tool-name')), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('action', ActionReply));
    // Passed through unchanged: the tool layer answers "unknown tool" as an observation and the loop goes on.
    expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: true, value: { action: 'tool', tool: 'execute_python', args: { code: 'print(2+2)' } } });
    expect(reply.format_warnings).toEqual([]);
  },
  'numbers-as-strings': async () => {
    const model = await replay(fixtureReply(fixture('numbers-as-strings')), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('executor_call', ExecutorReply));
    expect(JSON.parse(reply.text)).toEqual({ tool: 'read_lines', args: { path: 'app.log', start_line: 1, end_line: 10 } });
    expect(reply.format_warnings).toEqual(['type_coerced']);
  },
  'tool-call-emitted-as-text': async () => {
    for (const toolCalling of ['json', 'native'] as const) {
      const model = await replay(fixtureReply(fixture('tool-call-emitted-as-text')), { toolCalling, tools: TOOLS });
      const reply = await model.chat(request('action', ActionReply));
      expect(reply.output_fault?.kind).toBe('tool_call_in_content');
      expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: false, failure: 'unparseable' });
      await server?.close();
    }
  },
  'http500-error-parsing-tool-call': async () => {
    const model = await replay(fixtureReply(fixture('http500-error-parsing-tool-call')), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('action', ActionReply));
    expect(server!.chatCalls()).toHaveLength(2);
    expect(sleeps).toEqual([]);
    expect(reply.output_fault).toEqual({ kind: 'tool_call_malformed', detail: expect.stringContaining(`raw='{"path":"notes.md"`) });
    expect(reply).toMatchObject({ attempts: 2, tokens_in: 0, tokens_out: 0, duration_ms: 0 });
    expect(parseReply(reply.text, ActionReply)).toMatchObject({ ok: false, failure: 'unparseable' });
  },
  'http500-model-runner-stopped': async () => {
    const model = await replay(fixtureReply(fixture('http500-model-runner-stopped')));
    const error = await infraError(model.chat(request('plan', PlanReply)));
    expect(error.kind).toBe('server_error');
    expect(error.message).toMatch(/after 4 attempts.*model runner has unexpectedly stopped/);
    expect(server!.chatCalls()).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1000]);
  },
  'http404-model-not-found': async () => {
    const model = await replay(fixtureReply(fixture('http404-model-not-found')));
    const error = await infraError(model.chat(request('plan', PlanReply)));
    expect(error.kind).toBe('model_missing');
    expect(error.message).toContain('not found');
    expect(server!.chatCalls()).toHaveLength(1);
    expect(sleeps).toEqual([]);
  },
  'http503-server-busy': async () => {
    const model = await replay(fixtureReply(fixture('http503-server-busy')));
    const error = await infraError(model.chat(request('plan', PlanReply)));
    expect(error.kind).toBe('busy');
    expect(server!.chatCalls()).toHaveLength(4);
  },
  'cold-load-latency': async () => {
    const model = await replay(fixtureReply(fixture('cold-load-latency')));
    const reply = await model.chat(request('executor_call', ExecutorReply, { keep_alive: '1h' }));
    expect(reply).toMatchObject({ load_ms: 47_800, duration_ms: 4_800, cold_load: true });
    expect(chatBodies()[0]?.keep_alive).toBe('1h');
    expect(parseReply(reply.text, ExecutorReply)).toMatchObject({ ok: true, value: { tool: 'finish', args: { answer: 'done' } } });
  },
  'client-headers-timeout-300s': async () => {
    // Over HTTP: no headers ever arrive; the per-call timeout aborts the request (the server sees it closed).
    const model = await replay(fixtureReply(fixture('client-headers-timeout-300s')), { retry: { attempts: 2 }, loadTimeoutMs: 0 });
    const error = await infraError(model.chat(request('plan', PlanReply, { timeout_ms: 60 })));
    expect(error.kind).toBe('timeout');
    await vi.waitFor(() => expect(server!.chatCalls().map((call) => call.aborted)).toEqual([true, true]));
  },
  'ndjson-chunk-split': async () => {
    const model = await replay(fixtureReply(fixture('ndjson-chunk-split')), { stream: true });
    const reply = await model.chat(request('executor_call', ExecutorReply));
    expect(reply).toMatchObject({ text: '{"tool": "finish"}', done_reason: 'stop', tokens_out: 6, tokens_in: 0, load_ms: 0 });
    expect(chatBodies()[0]?.stream).toBe(true);
    expect(parseReply(reply.text, ExecutorReply)).toMatchObject({ ok: false, failure: 'schema_mismatch', json: { tool: 'finish' } });
  },
  'tool-args-missing-closing-brace': async () => {
    const model = await replay(fixtureReply(fixture('tool-args-missing-closing-brace')), { toolCalling: 'native', tools: TOOLS });
    const reply = await model.chat(request('executor_call', ExecutorReply));
    expect(reply.text).toBe('{"tool":"search_docs","args":{"query": "retry policy", "limit": 5');
    expect(reply.output_fault?.kind).toBe('tool_arguments_unparseable');
    expect(parseReply(reply.text, ExecutorReply)).toMatchObject({ ok: false, failure: 'unparseable' });
  },
};

describe('every fixture of ollama-replies.json, replayed over HTTP', () => {
  it('has a case for each fixture', () => {
    expect(Object.keys(cases).sort()).toEqual(fixtures.map((item) => item.id).sort());
  });
  for (const [id, run] of Object.entries(cases)) it(id, run);
});
