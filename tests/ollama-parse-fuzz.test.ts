// Property tests: any reply text (random strings, random JSON, truncated plans) is classified, never a crash, never guessed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaModel } from '../src/models/ollama.js';
import { parseReply, type ParsedReply } from '../src/models/parse-reply.js';
import type { ChatRequest } from '../src/models/types.js';
import { ActionReply, ExecutorReply, PlanReply } from '../src/strategies/replies.js';
import { okReply, startFakeOllama, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';

const FAILURES = ['empty_output', 'reasoning_only', 'truncated_output', 'unparseable', 'schema_mismatch'];

function expectClassified(result: ParsedReply<unknown>): void {
  if (result.ok) expect(Array.isArray(result.warnings)).toBe(true);
  else {
    expect(FAILURES).toContain(result.failure);
    expect(typeof result.error).toBe('string');
  }
}

const VALID_PLAN = JSON.stringify({
  goal: 'make the checkout test pass',
  done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
  assumptions: ['the rounding bug is in src/money.js'],
  steps: [
    { id: 's1', does: 'run the tests', tool: 'run', args: { cmd: 'pnpm test' }, depends_on: [], expect: 'exit 1', side_effect: 'none' },
    { id: 's2', does: 'read the code', tool: 'read', args: { path: 'src/money.js' }, depends_on: ['s1'], expect: 'any exit', side_effect: 'none' },
  ],
});
const doneReason = fc.constantFrom(undefined, 'stop', 'length');
const wrap = fc.constantFrom(
  (text: string) => text,
  (text: string) => '```json\n' + text + '\n```',
  (text: string) => `<think>\n\n</think>\n\n${text}`,
  (text: string) => `${text}\n\n`,
);

describe('parseReply never throws and always classifies', () => {
  it('on random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), doneReason, (text, reason) => {
        expectClassified(parseReply(text, PlanReply, reason));
      }),
      { numRuns: 500 },
    );
  });

  it('on random JSON, bare, fenced or after a think block', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), wrap, doneReason, (json, wrapper, reason) => {
        for (const schema of [PlanReply, ActionReply, ExecutorReply]) expectClassified(parseReply(wrapper(json), schema as z.ZodType, reason));
      }),
      { numRuns: 300 },
    );
  });

  it('on random truncations of a valid plan: never accepted, never repaired', () => {
    expect(parseReply(VALID_PLAN, PlanReply)).toMatchObject({ ok: true });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: VALID_PLAN.length - 1 }), wrap, (cut, wrapper) => {
        const length = parseReply(wrapper(VALID_PLAN.slice(0, cut)), PlanReply, 'length');
        expect(length.ok).toBe(false);
        if (!length.ok) expect(['empty_output', 'reasoning_only', 'truncated_output', 'unparseable']).toContain(length.failure);
        const stop = parseReply(VALID_PLAN.slice(0, cut), PlanReply, 'stop');
        expect(stop.ok).toBe(false);
        if (!stop.ok) expect(['empty_output', 'unparseable']).toContain(stop.failure);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the backend returns a reply for any content or tool call (never a crash)', () => {
  let server: FakeOllama;
  let next: FixtureReply = okReply('{}');
  beforeAll(async () => {
    server = await startFakeOllama({ reply: () => next });
  });
  afterAll(async () => {
    await server.close();
  });
  const tools = [{ name: 'read', description: 'Read', parameters: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' } } } }];
  const request = (schemaName: string, schema: z.ZodType): ChatRequest => ({
    role: 'agent',
    schemaName,
    schema,
    view: { role: 'gate', task_id: 't', prompt: 'p' },
    messages: () => [{ role: 'user', content: 'go' }],
    options: {},
    epoch: 0,
  });

  it('in json and native mode', async () => {
    const json = createOllamaModel({ model: 'qwen3:8b', host: server.url });
    const native = createOllamaModel({ model: 'qwen3:8b', host: server.url, toolCalling: 'native', tools });
    const argumentsValue = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.json({ maxDepth: 2 }),
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.option(fc.tuple(fc.string({ maxLength: 12 }), argumentsValue)), async (content, call) => {
        next = okReply(content, call ? { message: { role: 'assistant', content, tool_calls: [{ function: { name: call[0], arguments: call[1] } }] } } : {});
        for (const [model, schemaName, schema] of [
          [json, 'action', ActionReply],
          [native, 'action', ActionReply],
          [native, 'executor_call', ExecutorReply],
        ] as const) {
          const reply = await model.chat(request(schemaName, schema as z.ZodType));
          expect(typeof reply.text).toBe('string');
          expectClassified(parseReply(reply.text, schema as z.ZodType, reply.done_reason));
        }
      }),
      { numRuns: 40 },
    );
  });
});
