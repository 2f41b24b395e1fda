// Model servers as they really answer (issue 29 §4): error bodies of every shape keep their message, so the backend's
// fallbacks fire on them. Fake servers on 127.0.0.1 send the bodies those servers send.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostPool, httpProbe } from '../src/models/host-pool.js';
import { modelFetch } from '../src/models/model-fetch.js';
import { preflightOllama } from '../src/models/preflight.js';
import { createOllamaModel } from '../src/models/ollama.js';
import { createOpenAIModel } from '../src/models/openai.js';
import { MAX_REPLY_BYTES, retryAfterMs } from '../src/models/retry.js';
import { errorBody, postCompletion } from '../src/models/openai-undici.js';
import type { ChatRequest } from '../src/models/types.js';
import { PlanReply } from '../src/strategies/replies.js';
import { scratch, startStratbench } from './support/cli.js';
import { startFakeOpenAI } from './support/fake-openai-server.js';
import { records, runInProcess } from './support/scripted-over-ollama.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const servers: Server[] = [];
const pools: Agent[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** A server on 127.0.0.1 answering every request with `handler`; returns its /v1 base URL and the request bodies. */
async function serve(handler: Handler): Promise<{ baseURL: string; bodies: Array<Record<string, unknown>> }> {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body === '' ? {} : (JSON.parse(body) as Record<string, unknown>));
      handler(request, response, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

function pool(): Agent {
  const agent = new Agent();
  pools.push(agent);
  return agent;
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
};

const COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_780_000_000,
  model: 'Qwen/Qwen3-8B',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"steps":[]}' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

/** What older vLLM releases send for every error: `ErrorResponse` flat, without an `error` object. */
const flatVllm = (message: string, type: string, code: number) => ({ object: 'error', message, type, param: null, code });

const planRequest = (): ChatRequest => ({
  role: 'planner',
  schemaName: 'plan',
  schema: PlanReply,
  view: { role: 'gate', task_id: 't', prompt: 'p' },
  messages: () => [{ role: 'user', content: 'Plan it.' }],
  options: {},
  epoch: 0,
});

const sdk = { default: OpenAI } as unknown as typeof import('openai');

/** The error postCompletion throws for `handler`'s reply, as a user reads it. */
async function errorFor(handler: Handler): Promise<{ class: string; message: string; status?: number; type?: unknown }> {
  const { baseURL } = await serve(handler);
  const error = (await postCompletion(sdk, { baseURL, apiKey: 'sk-local' }, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, 10_000, pool()).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as InstanceType<typeof OpenAI.APIError>;
  return { class: error.constructor.name, message: error.message, status: error.status, type: error.type };
}

describe('error bodies of every shape keep their message', () => {
  it('older vLLM (flat), current vLLM (nested), TGI (error as text), FastAPI detail (text and list); other bodies as before', async () => {
    const message = "1 validation error for ChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object'";
    const outcomes = [
      await errorFor((_q, r) => json(r, 400, flatVllm(message, 'BadRequestError', 400))),
      await errorFor((_q, r) => json(r, 400, { error: { message, type: 'BadRequestError', code: 400 } })),
      await errorFor((_q, r) => json(r, 422, { error: 'Input validation error: `inputs` must have less than 4096 tokens', error_type: 'validation' })),
      await errorFor((_q, r) => json(r, 404, { detail: 'Not Found' })),
      await errorFor((_q, r) => json(r, 422, { detail: [{ loc: ['body', 'messages'], msg: 'Field required', type: 'missing' }] })),
      await errorFor((_q, r) => json(r, 400, { unexpected: true })),
      await errorFor((_q, r) => json(r, 400, {})),
    ];
    expect(outcomes).toEqual([
      { class: 'BadRequestError', message: `400 ${message}`, status: 400, type: 'BadRequestError' },
      { class: 'BadRequestError', message: `400 ${message}`, status: 400, type: 'BadRequestError' },
      {
        class: 'UnprocessableEntityError',
        message: '422 Input validation error: `inputs` must have less than 4096 tokens',
        status: 422,
        type: 'validation',
      },
      { class: 'NotFoundError', message: '404 Not Found', status: 404, type: undefined },
      { class: 'UnprocessableEntityError', message: '422 body.messages: Field required', status: 422, type: undefined },
      { class: 'BadRequestError', message: '400 status code (no body)', status: 400, type: undefined },
      { class: 'BadRequestError', message: '400 status code (no body)', status: 400, type: undefined },
    ]);
  });

  it('errorBody leaves what is not an object as it came', () => {
    expect([errorBody(undefined), errorBody([1]), errorBody('text'), errorBody({ error: '' })]).toEqual([undefined, [1], 'text', { error: '' }]);
  });

  it('the json_schema fallback fires on older vLLM: the 400 is followed by the same call with the schema in the prompt', async () => {
    const { baseURL, bodies } = await serve((_q, r, body) => {
      if ('response_format' in (JSON.parse(body) as object)) {
        json(
          r,
          400,
          flatVllm("1 validation error for ChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object'", 'BadRequestError', 400),
        );
      } else json(r, 200, COMPLETION);
    });
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool() });
    const reply = await model.chat(planRequest());
    expect({ text: reply.text, structured_output: reply.sent?.options['structured_output'] }).toEqual({ text: '{"steps":[]}', structured_output: 'prompt' });
    expect(bodies.map((body) => 'response_format' in body)).toEqual([true, false]);
    // For good: the next call does not ask for json_schema again.
    await model.chat(planRequest());
    expect(bodies.map((body) => 'response_format' in body)).toEqual([true, false, false]);
  });

  it("the tool-call-parse retry fires on older vLLM's flat 500: one retry, then the model's fault (not infrastructure)", async () => {
    const { baseURL, bodies } = await serve((_q, r) =>
      json(r, 500, flatVllm('Error parsing tool call: Expecting value: line 1 column 1', 'InternalServerError', 500)),
    );
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool(), clock: { sleep: async () => undefined } });
    const reply = await model.chat(planRequest());
    expect(reply.output_fault).toEqual({ kind: 'tool_call_malformed', detail: '500 Error parsing tool call: Expecting value: line 1 column 1' });
    expect({ attempts: reply.attempts, requests: bodies.length }).toEqual({ attempts: 2, requests: 2 });
  });

  it('a flat 404 is a missing model, named by the server and not retried', async () => {
    const { baseURL, bodies } = await serve((_q, r) => json(r, 404, flatVllm('The model `Qwen/Qwen3-8B` does not exist.', 'NotFoundError', 404)));
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool(), clock: { sleep: async () => undefined } });
    const error = await model
      .chat(planRequest())
      .catch((thrown: Error & { kind?: string }) => ({ name: thrown.name, kind: thrown.kind, message: thrown.message }));
    expect(error).toEqual({
      name: 'InfrastructureError',
      kind: 'model_missing',
      message: `OpenAI-compatible chat with Qwen/Qwen3-8B at ${baseURL}: HTTP 404: 404 The model \`Qwen/Qwen3-8B\` does not exist.`,
    });
    expect(bodies).toHaveLength(1);
  });
});

/** An Ollama /api/chat reply (not streamed). */
const OLLAMA_REPLY = {
  model: 'qwen3:8b',
  created_at: '2026-12-04T00:00:00Z',
  message: { role: 'assistant', content: '{"steps":[]}' },
  done: true,
  done_reason: 'stop',
  total_duration: 2_000_000,
  load_duration: 0,
  prompt_eval_count: 10,
  eval_count: 5,
};

/** Answers `busy` (status, headers) to the first `times` calls, then `ok`; counts the calls. */
function busyThen(times: number, status: number, headers: Record<string, string>, ok: (response: ServerResponse) => void, errorBody: unknown): Handler {
  let calls = 0;
  return (_q, r) => {
    calls += 1;
    if (calls <= times) json(r, status, errorBody, headers);
    else ok(r);
  };
}

describe('Retry-After on 429 and 503 is honoured within the retry budget', () => {
  it('reads retry-after-ms, Retry-After seconds and an HTTP-date; ignores what it cannot read', () => {
    const now = Date.parse('Fri, 04 Dec 2026 05:00:00 GMT');
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    const cases: Array<Record<string, string>> = [
      { 'retry-after': '7' },
      { 'retry-after': ' 0 ' },
      { 'retry-after': 'Fri, 04 Dec 2026 05:00:30 GMT' },
      { 'retry-after': 'Fri, 04 Dec 2026 04:59:00 GMT' },
      { 'retry-after-ms': '1500', 'retry-after': '9' },
      { 'retry-after': '1.5' },
      { 'retry-after': '-3' },
      { 'retry-after': 'soon' },
      {},
    ];
    expect(cases.map((values) => retryAfterMs(headers(values), now))).toEqual([7000, 0, 30_000, 0, 1500, undefined, undefined, undefined, undefined]);
  });

  it('openai: a 429 with Retry-After: 2 waits 2000 ms (not the backoff) and the next call is answered', async () => {
    const { baseURL, bodies } = await serve(
      busyThen(1, 429, { 'retry-after': '2' }, (r) => json(r, 200, COMPLETION), { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }),
    );
    const waits: number[] = [];
    const model = createOpenAIModel({
      model: 'Qwen/Qwen3-8B',
      baseURL,
      dispatcher: pool(),
      clock: { sleep: async (ms) => void waits.push(ms), random: () => 0.5, now: () => 0 },
    });
    const reply = await model.chat(planRequest());
    expect({ text: reply.text, waits, requests: bodies.length }).toEqual({ text: '{"steps":[]}', waits: [2000], requests: 2 });
  });

  it('openai: a 503 with retry-after-ms (as OpenAI and Azure send) waits that many ms', async () => {
    const { baseURL } = await serve(
      busyThen(2, 503, { 'retry-after-ms': '750' }, (r) => json(r, 200, COMPLETION), flatVllm('Service Unavailable', 'ServiceUnavailableError', 503)),
    );
    const waits: number[] = [];
    const model = createOpenAIModel({ model: 'm', baseURL, dispatcher: pool(), clock: { sleep: async (ms) => void waits.push(ms), now: () => 0 } });
    await model.chat(planRequest());
    expect(waits).toEqual([750, 750]);
  });

  it('a wait past the retry budget is not started: busy at once, saying what the server asked', async () => {
    const { baseURL, bodies } = await serve(
      busyThen(9, 503, { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }, (r) => json(r, 200, COMPLETION), { error: { message: 'overloaded' } }),
    );
    const waits: number[] = [];
    const model = createOpenAIModel({ model: 'm', baseURL, dispatcher: pool(), clock: { sleep: async (ms) => void waits.push(ms), now: () => 0 } });
    const error = await model
      .chat(planRequest())
      .catch((thrown: Error & { kind?: string }) => ({ name: thrown.name, kind: thrown.kind, message: thrown.message }));
    expect(error).toMatchObject({ name: 'InfrastructureError', kind: 'busy' });
    expect((error as { message: string }).message).toMatch(
      /^OpenAI-compatible chat with m at .* failed after 1 attempt in 0 ms: HTTP 503: 503 overloaded \(the server asked to wait \d+ ms, Retry-After, past the 60000 ms retry budget\)$/,
    );
    expect({ waits, requests: bodies.length }).toEqual({ waits: [], requests: 1 });
  });

  it('several hosts: a host answering 429 with Retry-After is not probed nor called again before it; the call goes to another host', async () => {
    const limited = await serve((_q, r) => json(r, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '120' }));
    const other = await serve((_q, r) => json(r, 200, COMPLETION));
    let clock = 0;
    const probes: string[] = [];
    const backend = (baseURL: string) =>
      createOpenAIModel({ model: 'm', baseURL, dispatcher: pool(), retry: { attempts: 1 }, clock: { sleep: async () => undefined, now: () => clock } });
    const hosts = [limited.baseURL, other.baseURL].map((url) => ({ url, model: backend(url), probe: async () => void probes.push(url) }));
    const pooled = createHostPool({ hosts, perHostConcurrency: 1, now: () => clock });
    await pooled.chat(planRequest());
    clock = 60_000; // past the pool's own backoff (at most 8 s), within the server's 120 s
    await pooled.chat(planRequest());
    expect({ probes, limited: limited.bodies.length, other: other.bodies.length }).toEqual({ probes: [], limited: 1, other: 2 });
    clock = 121_000;
    await pooled.chat(planRequest());
    expect(probes).toEqual([limited.baseURL]);
  });

  it('ollama: a 503 with Retry-After: 3 waits 3000 ms; a 429 with an unreadable one falls back to the backoff', async () => {
    const ok = (r: ServerResponse) => json(r, 200, OLLAMA_REPLY);
    for (const [headers, expected] of [
      [{ 'retry-after': '3' }, [3000]],
      [{ 'retry-after': 'later' }, [250]],
    ] as const) {
      const { baseURL, bodies } = await serve(
        busyThen(1, headers['retry-after'] === '3' ? 503 : 429, headers, ok, { error: 'server busy, please try again.  maximum pending requests exceeded' }),
      );
      const waits: number[] = [];
      const model = createOllamaModel({
        model: 'qwen3:8b',
        host: baseURL.replace(/\/v1$/, ''),
        dispatcher: pool(),
        loadTimeoutMs: 0,
        clock: { sleep: async (ms) => void waits.push(ms), random: () => 0.5, now: () => 0 },
      });
      const reply = await model.chat(planRequest());
      expect({ text: reply.text, waits, requests: bodies.length }).toEqual({ text: '{"steps":[]}', waits: expected, requests: 2 });
    }
  });
});

describe('a reply larger than the cap (16 MiB decoded) ends as an infrastructure error, not retried', () => {
  const failure = (thrown: Error & { kind?: string }) => ({ name: thrown.name, kind: thrown.kind, message: thrown.message });

  it('the default cap is 16 MiB', () => {
    expect(MAX_REPLY_BYTES).toBe(16 * 1024 * 1024);
  });

  it('openai: a 64 KB gzip of 64 MiB (a decompression bomb) stops at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
    const { baseURL, bodies } = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
      r.end(bomb);
    });
    const model = createOpenAIModel({ model: 'm', baseURL, dispatcher: pool(), clock: { sleep: async () => undefined } });
    expect(await model.chat(planRequest()).catch(failure)).toEqual({
      name: 'InfrastructureError',
      kind: 'other',
      message: `OpenAI-compatible chat with m at ${baseURL}: the server's reply is too large: it decodes to more than 16777216 bytes (16 MiB, the cap on one reply); reading stopped`,
    });
    expect(bodies).toHaveLength(1);
  });

  it('openai: a Content-Length above the cap is refused before its body is read', async () => {
    const { baseURL } = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json', 'content-length': 1024 * 1024 * 1024 });
      r.write('{"id":"chatcmpl-1",');
    });
    const model = createOpenAIModel({ model: 'm', baseURL, dispatcher: pool(), clock: { sleep: async () => undefined } });
    const outcome = await model.chat(planRequest()).catch(failure);
    expect(outcome).toMatchObject({ name: 'InfrastructureError', kind: 'other' });
    expect((outcome as { message: string }).message).toContain('its Content-Length declares more than 16777216 bytes');
  });

  it('ollama: a chunked body without a length stops once it passes the cap', async () => {
    const { baseURL, bodies } = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      let sent = 0;
      const more = (): void => {
        while (sent < 17 && !r.destroyed) {
          sent += 1;
          if (!r.write(chunk)) return void r.once('drain', more);
        }
        r.end();
      };
      more();
    });
    const host = baseURL.replace(/\/v1$/, '');
    const model = createOllamaModel({ model: 'qwen3:8b', host, dispatcher: pool(), loadTimeoutMs: 0, clock: { sleep: async () => undefined } });
    expect(await model.chat(planRequest()).catch(failure)).toEqual({
      name: 'InfrastructureError',
      kind: 'other',
      message: `Ollama chat with qwen3:8b at ${host}: the server's reply is too large: its body passed 16777216 bytes (16 MiB, the cap on one reply); reading stopped`,
    });
    expect(bodies).toHaveLength(1);
  });
});

describe('every other read of a model server (/v1/models, /api/tags, /api/show, /api/version, probes) has the same cap', () => {
  /** A server answering GET `path` with a gzip of 64 MiB of spaces (64 KB sent) and every other request with `other`. */
  const bombAt = (path: string, other: Handler = (_q, r) => json(r, 404, { error: 'no route' })) => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
    return serve((request, response, body) => {
      if (request.url !== path) return other(request, response, body);
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
      response.end(bomb);
    });
  };
  const capped = 'is too large: it decodes to more than 16777216 bytes (16 MiB, the cap on one reply); reading stopped';

  it('run: a /v1/models that decodes past the cap is refused at preflight, exit 2, naming the URL and the cap', async () => {
    const { baseURL, bodies } = await bombAt('/v1/models');
    const child = startStratbench(['run', '--model', 'openai:Qwen/Qwen3-8B', '--openai-base-url', baseURL, '--out', scratch(), '--no-validate']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ status, stderr }).toEqual({
      status: 2,
      stderr: `stratbench: cannot use the OpenAI-compatible server at ${baseURL}: the server's reply to GET ${baseURL}/models ${capped}\n`,
    });
    expect(bodies).toHaveLength(1);
  });

  it('ollama preflight: /api/version and /api/tags past the cap are refused naming the URL', async () => {
    const version = await bombAt('/api/version');
    const host = version.baseURL.replace(/\/v1$/, '');
    expect(await preflightOllama(host, ['qwen3:8b']).catch((error: Error) => `${error.name}: ${error.message}`)).toBe(
      `ConfigurationError: cannot use Ollama at ${host}: the server's reply to GET ${host}/api/version ${capped}`,
    );
    const tags = await bombAt('/api/tags', (_q, r) => json(r, 200, { version: '0.12.0' }));
    const tagsHost = tags.baseURL.replace(/\/v1$/, '');
    expect(await preflightOllama(tagsHost, ['qwen3:8b']).catch((error: Error) => `${error.name}: ${error.message}`)).toBe(
      `ConfigurationError: cannot use Ollama at ${tagsHost}: the server's reply to GET ${tagsHost}/api/tags ${capped}`,
    );
  });

  it("the probe of a down host fails on such a reply, naming it; a small reply reads as fetch's", async () => {
    const { baseURL } = await bombAt('/v1/models', (_q, r) => json(r, 200, { object: 'list', data: [] }, { 'x-model': 'm' }));
    await expect(httpProbe(`${baseURL}/models`, modelFetch)()).rejects.toThrow(`the server's reply to GET ${baseURL}/models ${capped}`);
    const small = await modelFetch(`${baseURL}/other`, { headers: { accept: 'application/json' } });
    expect({ status: small.status, type: small.headers.get('x-model'), body: await small.json() }).toEqual({
      status: 200,
      type: 'm',
      body: { object: 'list', data: [] },
    });
  });
});

describe("the tool-call-parse retry's outcome names the server's refusal, not a parse of its message", () => {
  it.each([
    ['older vLLM (flat)', flatVllm('Error parsing tool call: Expecting value: line 1 column 1', 'InternalServerError', 500)],
    ['TGI', { error: 'Error parsing tool call: Expecting value: line 1 column 1', error_type: 'InternalServerError' }],
  ])('%s: invalid_output with the message the server sent', async (_server, body) => {
    const server = await startFakeOpenAI({ reply: () => ({ status: 500, body }) });
    try {
      const out = join(scratch(), 'refused');
      const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: server.url, strategies: 'react', tasks: 'default-currency' });
      const [record] = records(out);
      const calls = record!.trace.filter((event) => event.type === 'model_call');
      const expected = "unparseable: the server could not parse the model's tool call, twice: 500 Error parsing tool call: Expecting value: line 1 column 1";
      expect({ code: run.code, outcome: record!.outcome, errors: calls.map((event) => event.error), requests: server.completionCalls().length }).toEqual({
        code: 0,
        outcome: { status: 'invalid_output', reason: expect.any(String), message: expected },
        errors: [expected, expected],
        requests: 4,
      });
    } finally {
      await server.close();
    }
  });
});
