// Infrastructure errors: classification, bounded backoff with jitter (injected sleep), timeouts, fail-fast 404.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaModel, type OllamaModelConfig } from '../src/models/ollama.js';
import { backoffDelayMs, classifyOllamaError, DEFAULT_RETRY_POLICY, withRetry } from '../src/models/retry.js';
import { InfrastructureError, type ChatOptions, type ChatRequest } from '../src/models/types.js';
import { okReply, startFakeOllama, type FakeChatRequest, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';

const Answer = z.object({ answer: z.string() });
function request(options: ChatOptions = {}): ChatRequest {
  return {
    role: 'reporter',
    schemaName: 'report',
    schema: Answer as z.ZodType,
    view: { role: 'gate', task_id: 't1', prompt: 'p' },
    messages: () => [{ role: 'user', content: 'Report.' }],
    options,
    epoch: 0,
  };
}

let server: FakeOllama | undefined;
let clock = 0;
const sleeps: number[] = [];
const fakeClock = { sleep: async (ms: number) => void (sleeps.push(ms), (clock += ms)), random: () => 0.5, now: () => clock };
afterEach(async () => {
  await server?.close();
  server = undefined;
  sleeps.length = 0;
  clock = 0;
});

async function serve(reply: (body: FakeChatRequest, index: number) => FixtureReply, config: Partial<OllamaModelConfig> = {}) {
  server = await startFakeOllama({ reply: (body, { index }) => reply(body, index) });
  return createOllamaModel({ model: 'qwen3:8b', host: server.url, clock: fakeClock, ...config });
}
const error = (status: number, text: string): FixtureReply => ({ status, body: { error: text } });
async function rejection(promise: Promise<unknown>): Promise<InfrastructureError> {
  const caught = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(caught).toBeInstanceOf(InfrastructureError);
  return caught as InfrastructureError;
}

describe('retry with backoff', () => {
  it('recovers when the server comes back (503, 500, then a reply), sleeping with full jitter', async () => {
    const model = await serve((_body, index) =>
      index === 0
        ? error(503, 'server busy, please try again.')
        : index === 1
          ? error(500, 'model runner has unexpectedly stopped')
          : okReply('{"answer":"ok"}'),
    );
    const reply = await model.chat(request());
    expect(reply.text).toBe('{"answer":"ok"}');
    expect(server!.chatCalls()).toHaveLength(3);
    expect(sleeps).toEqual([250, 500]);
  });

  it('stops at the total-time bound before the attempt bound', async () => {
    const model = await serve(() => error(503, 'busy'), {
      retry: { attempts: 10, baseMs: 500, maxMs: 8000, totalMs: 1000 },
      clock: { ...fakeClock, random: () => 0.99 },
    });
    const failure = await rejection(model.chat(request()));
    expect(failure.kind).toBe('busy');
    expect(sleeps).toEqual([495]); // the next delay (990 ms) would pass 1000 ms in all
    expect(server!.chatCalls()).toHaveLength(2);
  });

  it('caps each delay at maxMs and keeps it in [0, ceiling)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelayMs(retry, DEFAULT_RETRY_POLICY, () => 0.999999))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
    expect(backoffDelayMs(3, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });

  it('fails fast on 404 (one call, no sleep) and on other 4xx', async () => {
    const model = await serve((_body, index) => (index === 0 ? error(404, "model 'qwen3:8b' not found") : error(400, 'invalid options')));
    expect((await rejection(model.chat(request()))).kind).toBe('model_missing');
    const other = await rejection(model.chat(request()));
    expect({ kind: other.kind, message: other.message }).toEqual({ kind: 'other', message: expect.stringContaining('HTTP 400: invalid options') });
    expect(server!.chatCalls()).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it('classifies a refused connection as unreachable after the bounded attempts', async () => {
    const closed = await startFakeOllama();
    const url = closed.url;
    await closed.close();
    const model = createOllamaModel({ model: 'qwen3:8b', host: url, clock: fakeClock, retry: { attempts: 3 } });
    const failure = await rejection(model.chat(request()));
    expect(failure.kind).toBe('unreachable');
    expect(failure.message).toMatch(/after 3 attempts.*ECONNREFUSED/);
    expect(sleeps).toHaveLength(2);
  });

  it('retries a reset socket and a runner crash in the middle of a stream', async () => {
    const crashLine =
      '{"model":"qwen3:8b","message":{"role":"assistant","content":"{\\"ans"},"done":false}\n{"error":"model runner has unexpectedly stopped"}\n';
    const model = await serve((_body, index) => (index === 0 ? { destroy: true } : index === 1 ? { chunks: [crashLine] } : okReply('{"answer":"ok"}')), {
      stream: true,
    });
    expect((await model.chat(request())).text).toBe('{"answer":"ok"}');
    expect(server!.chatCalls()).toHaveLength(3);
  });

  it('times out a hanging call with the per-call timeout and lets a call that may be loading the model wait longer', async () => {
    const model = await serve((_body, index) => (index === 1 ? okReply('{"answer":"ok"}') : { hang: true }), { retry: { attempts: 1 }, loadTimeoutMs: 2_000 });
    let started = performance.now();
    expect((await rejection(model.chat(request({ timeout_ms: 30 })))).kind).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_990); // first call: the model may be loading
    await model.chat(request({ timeout_ms: 30 }));
    started = performance.now();
    expect((await rejection(model.chat(request({ timeout_ms: 30 })))).kind).toBe('timeout');
    // The 30 ms timeout, not the 2 s one: a bound 50 times the timeout, which no load short of a stalled machine reaches.
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('switches to streaming for good after an undici headers timeout (fixture client-headers-timeout-300s)', async () => {
    server = await startFakeOllama({ reply: () => okReply('{"answer":"ok"}') });
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      calls += 1;
      if (calls === 1) {
        const cause = Object.assign(new Error('Headers Timeout Error'), { name: 'HeadersTimeoutError', code: 'UND_ERR_HEADERS_TIMEOUT' });
        return Promise.reject(new TypeError('fetch failed', { cause }));
      }
      return fetch(input, init);
    };
    const model = createOllamaModel({ model: 'qwen3:8b', host: server.url, fetch: flaky, clock: fakeClock });
    expect((await model.chat(request())).text).toBe('{"answer":"ok"}');
    await model.chat(request());
    expect(server.chatCalls().map((call) => (call.body as { stream: boolean }).stream)).toEqual([true, true]);
    expect(sleeps).toHaveLength(1);
  });
});

describe('classifyOllamaError', () => {
  const responseError = (status: number, message: string) => Object.assign(new Error(message), { name: 'ResponseError', status_code: status });
  it.each([
    [responseError(500, "error parsing tool call: raw='x', err=y"), { action: 'model_output' }],
    [responseError(404, 'model "x" not found, try pulling it first'), { action: 'fail', kind: 'model_missing' }],
    [responseError(400, "model 'x' not found"), { action: 'fail', kind: 'model_missing' }],
    [responseError(503, 'server busy'), { action: 'retry', kind: 'busy' }],
    [responseError(429, 'too many requests'), { action: 'retry', kind: 'busy' }],
    [responseError(502, 'bad gateway'), { action: 'retry', kind: 'server_error' }],
    [new TypeError('fetch failed', { cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } }), { action: 'retry', kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' }],
    [
      new TypeError('fetch failed', { cause: Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}) }),
      { action: 'retry', kind: 'unreachable' },
    ],
    [new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } }), { action: 'retry', kind: 'unreachable', reason: 'fetch failed (ENOTFOUND)' }],
    // A port fetch refuses to contact (the Fetch spec's bad ports, e.g. 9): no system code, the cause says why.
    [new TypeError('fetch failed', { cause: new Error('bad port') }), { action: 'retry', kind: 'unreachable', reason: 'fetch failed (bad port)' }],
    [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), { action: 'retry', kind: 'timeout' }],
    [new Error('Did not receive done or success response in stream.'), { action: 'retry', kind: 'server_error' }],
    [new SyntaxError('Unexpected end of JSON input'), { action: 'retry', kind: 'server_error' }],
    [new RangeError('a bug'), { action: 'rethrow' }],
  ])('%s', (thrown, expected) => {
    expect(classifyOllamaError(thrown)).toMatchObject(expected);
  });

  it('passes a bug through withRetry unchanged, without retrying', async () => {
    let calls = 0;
    const bug = new RangeError('a bug');
    await expect(
      withRetry(
        'test',
        async () => {
          calls += 1;
          throw bug;
        },
        { sleep: async () => undefined },
      ),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
  });
});
