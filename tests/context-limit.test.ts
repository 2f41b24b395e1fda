// Context overflow is the strategy's failure (issue 25 §5): each server's way of saying a prompt did not fit, and the
// ending it gives end to end — budget_exhausted / context_exceeded, in the success rate, blamed on the role, not resumed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaContextOverflow, ollamaTruncation, openAIContextOverflow } from '../src/models/context-limit.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { extractView } from '../src/strategies/prompts.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';
import { llamaCppContextError, scriptedOpenAIReply, startFakeOpenAI, vllmContextError, type FakeOpenAI } from './support/fake-openai-server.js';
import { RUN_DEFAULTS, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';
import { firstCallOverflowWarning } from '../src/runner/run-ending.js';

/** An APIError of the openai client as it reaches the backend: `status`, and `error` the body's `error` object. */
const apiError = (status: number, error: Record<string, unknown>) => ({ status, message: `${status} ${String(error['message'])}`, error });

describe('the servers’ words for a prompt past the context window', () => {
  it('vLLM, every wording in its source (vllm-project/vllm): counts read where it gives them', () => {
    const cases: Array<[string, number | undefined, number]> = [
      // vllm/entrypoints/openai/serving_engine.py@0030b9ff, _validate_prompt_and_tokenize
      [
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4900 in the messages, 100 in the completion). Please reduce the length of the messages or completion.",
        4900,
        4096,
      ],
      [
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens in the messages, Please reduce the length of the messages.",
        5000,
        4096,
      ],
      // later releases (renderer): "… your prompt contains at least N input tokens …"
      [
        "This model's maximum context length is 4096 tokens. However, you requested 100 output tokens and your prompt contains at least 4097 input tokens, for a total of at least 4197 tokens. Please reduce the length of the input prompt or the number of requested output tokens.",
        4097,
        4096,
      ],
      // vllm/renderers/params.py@017638d7, TokenizeParams._token_len_check and _text_len_check
      [
        "You passed 5000 input tokens and requested 100 output tokens. However, the model's context length is only 4096 tokens, resulting in a maximum input length of 3996 tokens. Please reduce the length of the input prompt.",
        5000,
        4096,
      ],
      [
        "You passed 40000 input characters and requested 100 output tokens. However, the model's context length is only 4096 tokens, resulting in a maximum input length of 3996 tokens (at most 15984 characters). Please reduce the length of the input prompt.",
        undefined,
        4096,
      ],
      // vllm/v1/engine/processor.py@01055a4b, _validate_model_input
      [
        'The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.',
        5000,
        4096,
      ],
    ];
    for (const [message, prompt, context] of cases) {
      expect(openAIContextOverflow(apiError(400, { message, type: 'BadRequestError', param: null, code: 400 }))).toEqual({
        source: 'vllm',
        ...(prompt === undefined ? {} : { prompt_tokens: prompt }),
        context_tokens: context,
        detail: message,
      });
    }
  });

  it('llama.cpp server: the exceed_context_size_error body with its counts (tools/server), old and new wording', () => {
    const body = (llamaCppContextError(4096, 5000) as { body: { error: Record<string, unknown> } }).body.error;
    expect(openAIContextOverflow(apiError(400, body))).toEqual({
      source: 'llama.cpp',
      prompt_tokens: 5000,
      context_tokens: 4096,
      detail: 'request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it',
    });
    const older = {
      code: 400,
      message: 'the request exceeds the available context size, try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 5000,
      n_ctx: 4096,
    };
    expect(openAIContextOverflow(apiError(400, older))).toEqual({ source: 'llama.cpp', prompt_tokens: 5000, context_tokens: 4096, detail: older.message });
  });

  it('other 4xx and any 5xx are not an overflow', () => {
    expect(openAIContextOverflow(apiError(400, { message: "'messages' must not be empty", type: 'BadRequestError' }))).toBeUndefined();
    expect(openAIContextOverflow(apiError(500, { message: "This model's maximum context length is 4096 tokens." }))).toBeUndefined();
    expect(openAIContextOverflow(new Error('fetch failed'))).toBeUndefined();
  });

  it('Ollama: its 400 "the input length exceeds the context length", a relayed llama-server overflow, and truncation at num_ctx', () => {
    const responseError = (error: unknown, status_code: number) => ({ name: 'ResponseError', message: String(error), error, status_code });
    expect(ollamaContextOverflow(responseError('the input length exceeds the context length', 400))).toEqual({
      source: 'ollama',
      detail: 'the input length exceeds the context length',
    });
    const relayed = JSON.stringify({ error: (llamaCppContextError(512, 2622) as { body: { error: unknown } }).body.error });
    expect(ollamaContextOverflow(responseError(relayed, 400))).toEqual({ source: 'ollama', prompt_tokens: 2622, context_tokens: 512, detail: relayed });
    expect(ollamaContextOverflow(responseError('model "x" not found, try pulling it first', 404))).toBeUndefined();
    // The llama runner keeps num_ctx tokens of a longer prompt ("truncating input prompt" limit=2048 prompt=3940 new=2048).
    expect(ollamaTruncation(2048, 2048)).toEqual({
      source: 'ollama_truncated',
      prompt_tokens: 2048,
      context_tokens: 2048,
      detail: 'Ollama evaluated 2048 prompt tokens with num_ctx 2048: the prompt filled the context window and was truncated',
    });
    expect(ollamaTruncation(2047, 2048)).toBeUndefined();
    expect(ollamaTruncation(5000, undefined)).toBeUndefined();
  });
});

let ollama: FakeOllama | undefined;
let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await ollama?.close();
  await openai?.close();
  ollama = undefined;
  openai = undefined;
});

const suite = String(RUN_DEFAULTS.suite);
const overflowCall = (record: EpisodeRecord) => record.trace.find((event) => event.type === 'model_call' && event.output_fault?.kind === 'context_exceeded');
const summaryOf = (out: string) =>
  JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
    strategies: Array<{ strategy: string; scored: number; errors: number; successes?: number }>;
  };

describe('a window smaller than the first prompt', () => {
  it('still ends every episode as context_exceeded, and warns at the end that the window is the problem (review 6)', async () => {
    const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(suite)));
    ollama = await startFakeOllama({ reply: scripted, overflow: 'truncate' });
    const out = join(scratch(), 'ollama-tiny-window');
    const run = await runInProcess({
      out,
      model: 'ollama:qwen3:8b',
      ollamaHost: ollama.url,
      tasks: 'fix-checkout-test',
      strategies: 'react,direct',
      numCtx: 512,
    });
    expect(run.code).toBe(0);
    expect(records(out).map((record) => record.outcome)).toEqual([
      { status: 'budget_exhausted', reason: 'context_exceeded' },
      { status: 'budget_exhausted', reason: 'context_exceeded' },
    ]);
    expect(run.stderr).toContain(`stratbench: warning: ${firstCallOverflowWarning(2)}\n`);
  });
});

describe('an overflow ends the episode as the strategy’s failure, on every backend', () => {
  it('Ollama truncating a ReAct history at num_ctx: budget_exhausted / context_exceeded, scored, agent.context_exceeded, not resumed', async () => {
    const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(suite)));
    // The first prompt (about 2,160 tokens at 4 characters a token) fits 2,300; the history outgrows it.
    ollama = await startFakeOllama({ reply: scripted, overflow: 'truncate' });
    const out = join(scratch(), 'ollama-truncate');
    const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: ollama.url, tasks: 'fix-checkout-test', strategies: 'react', numCtx: 2300 });
    expect(run.code).toBe(0);
    // The history outgrew the window, not the first prompt: no configuration warning.
    expect(run.stderr).not.toContain('on their first model call');
    const [record] = records(out);
    expect([record?.outcome, record?.success]).toEqual([{ status: 'budget_exhausted', reason: 'context_exceeded' }, false]);
    const call = overflowCall(record!);
    expect(call).toMatchObject({
      role: 'agent',
      outcome: 'invalid',
      tokens_in: 2300,
      output_fault: {
        kind: 'context_exceeded',
        detail: 'Ollama evaluated 2300 prompt tokens with num_ctx 2300: the prompt filled the context window and was truncated',
      },
    });
    expect(record?.attribution).toMatchObject({ component: 'agent', mode: 'context_exceeded', evidence: [call!.id, call!.id + 1, call!.id + 2] });
    expect(record?.trace.slice(call!.id + 1, call!.id + 3)).toMatchObject([
      {
        type: 'budget',
        limit: 'context_exceeded',
        detail: expect.stringMatching(/^the agent's prompt does not fit the model's context window: Ollama evaluated 2300/),
      },
      { type: 'end', status: 'budget_exhausted', reason: 'context_exceeded' },
    ]);
    expect(summaryOf(out).strategies.map((s) => [s.strategy, s.scored, s.errors])).toEqual([['react', 1, 0]]);
    expect(run.stdout).not.toContain('Errored episodes');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/server is back/);

    // --resume keeps it: a strategy's failure is not re-run.
    const before = ollama.chatCalls().length;
    expect((await runInProcess({ resume: out })).code).toBe(0);
    expect(ollama.chatCalls().length).toBe(before);
    expect(records(out)).toHaveLength(1);
  });

  it('Ollama’s 400 "the input length exceeds the context length" ends it the same way, after one call (never retried)', async () => {
    ollama = await startFakeOllama({ overflow: 'error' });
    const out = join(scratch(), 'ollama-error');
    const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: ollama.url, tasks: 'fix-checkout-test', strategies: 'direct', numCtx: 100 });
    expect(run.code).toBe(0);
    const [record] = records(out);
    expect(record?.outcome).toEqual({ status: 'budget_exhausted', reason: 'context_exceeded' });
    expect(ollama.chatCalls()).toHaveLength(1);
    expect(overflowCall(record!)).toMatchObject({
      role: 'direct',
      output_fault: { kind: 'context_exceeded', detail: 'the input length exceeds the context length' },
    });
    expect(record?.attribution).toMatchObject({ component: 'agent', mode: 'context_exceeded' });
  });

  it('vLLM’s 400 for the executor’s prompt: executor.context_exceeded, counted as a failure of plan-replan', async () => {
    const scripted = scriptedOpenAIReply(new ScriptedModel(await scriptedTasksOf(suite)));
    openai = await startFakeOpenAI({
      reply: (request) =>
        extractView(request.messages as Parameters<typeof extractView>[0])?.role === 'executor' ? vllmContextError(4096, 4900, 100) : scripted(request),
    });
    const out = join(scratch(), 'vllm');
    const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: openai.url, tasks: 'fix-checkout-test', strategies: 'plan-replan' });
    expect(run.code).toBe(0);
    const [record] = records(out);
    expect([record?.outcome, record?.success]).toEqual([{ status: 'budget_exhausted', reason: 'context_exceeded' }, false]);
    expect(overflowCall(record!)).toMatchObject({ role: 'executor', tokens_in: 4900, output_fault: { kind: 'context_exceeded' } });
    expect(record?.attribution).toMatchObject({ component: 'executor', mode: 'context_exceeded' });
    expect(summaryOf(out).strategies.map((s) => [s.strategy, s.scored, s.errors])).toEqual([['plan-replan', 1, 0]]);
    // One request for the overflowing call: a 400 is not retried.
    const executorCalls = openai.completionCalls().filter((call) => extractView(call.body.messages as Parameters<typeof extractView>[0])?.role === 'executor');
    expect(executorCalls).toHaveLength(1);
  });

  it('llama.cpp server’s exceed_context_size_error for a prompt past n_ctx: the planner’s, with the counts it sent', async () => {
    openai = await startFakeOpenAI({ overflow: 'llama.cpp', maxModelLen: 200 });
    const out = join(scratch(), 'llama-cpp');
    const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: openai.url, tasks: 'fix-checkout-test', strategies: 'plan-up-front' });
    expect(run.code).toBe(0);
    const [record] = records(out);
    expect(record?.outcome).toEqual({ status: 'budget_exhausted', reason: 'context_exceeded' });
    const call = overflowCall(record!);
    expect(call).toMatchObject({ role: 'planner', output_fault: { kind: 'context_exceeded' } });
    expect(call?.type === 'model_call' && call.output_fault?.detail).toMatch(
      /^request \(\d+ tokens\) exceeds the available context size \(200 tokens\), try increasing it$/,
    );
    expect(call?.type === 'model_call' && call.sent?.messages.length).toBeGreaterThan(0);
    expect(record?.attribution).toMatchObject({ component: 'planner', mode: 'context_exceeded' });
  });
});
