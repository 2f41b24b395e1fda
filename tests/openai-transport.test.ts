// A chat completion posted straight to undici's pool (`postCompletion`, decision 0021) against the openai client over
// Node's own fetch: for each way a server answers, the same completion or the same error, classified the same, and
// the same request at the server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { Agent } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyOpenAIError, createOpenAIModel } from '../src/models/openai.js';
import { postCompletion } from '../src/models/openai-undici.js';
import type { ChatRequest } from '../src/models/types.js';
import { PlanReply } from '../src/strategies/replies.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on 127.0.0.1 answering every request with `handler`; returns its /v1 base URL and what it was sent. */
async function serve(handler: Handler): Promise<{ baseURL: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: { ...request.headers }, body });
      handler(request, response, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

const COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_780_000_000,
  model: 'Qwen/Qwen3-8B',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"steps":[]}' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};
const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
};

const pools: Agent[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
/** A pool like modelDispatcher's, with short timeouts when a test needs them. */
function pool(timeouts: { headersTimeout?: number; bodyTimeout?: number } = {}) {
  const agent = new Agent(timeouts);
  pools.push(agent);
  return agent;
}

/** The parts of a request a server reads (the openai client's per-call ids and platform headers left out). */
function request(seen: Seen): unknown {
  const { headers } = seen;
  return {
    method: seen.method,
    url: seen.url,
    body: seen.body === '' ? '' : JSON.parse(seen.body),
    headers: {
      'content-type': headers['content-type'],
      'content-length': headers['content-length'],
      accept: headers['accept'],
      'accept-encoding': headers['accept-encoding'],
      authorization: headers['authorization'],
      'user-agent': headers['user-agent'],
      'x-stainless-retry-count': headers['x-stainless-retry-count'],
      'x-stainless-timeout': headers['x-stainless-timeout'],
      platform: ['lang', 'package-version', 'os', 'arch', 'runtime', 'runtime-version'].map((name) => headers[`x-stainless-${name}`]),
    },
  };
}

/** Sends one chat completion to `baseURL` and returns it (or throws): one of the two ways compared. */
type Sender = (baseURL: string, body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, timeoutMs: number | undefined) => Promise<unknown>;
const clientWith =
  (apiKey: string): Sender =>
  (baseURL, body, timeoutMs) =>
    new OpenAI({ baseURL, apiKey, maxRetries: 0, fetch: globalThis.fetch }).chat.completions.create(
      body,
      timeoutMs === undefined ? {} : { timeout: timeoutMs },
    );
const viaClient = clientWith('sk-local');
const direct =
  (timeouts: { headersTimeout?: number; bodyTimeout?: number } = {}, apiKey = 'sk-local'): Sender =>
  (baseURL, body, timeoutMs) =>
    postCompletion({ default: OpenAI } as unknown as typeof import('openai'), { baseURL, apiKey }, body, timeoutMs, pool(timeouts));

/** One chat completion sent by `send`: the completion or the error as a caller sees it, and the requests. */
async function observe(send: Sender, handler: Handler, timeoutMs?: number): Promise<unknown> {
  const { baseURL, seen } = await serve(handler);
  const outcome = await send(baseURL, { model: 'Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'Plan it.' }], temperature: 0 }, timeoutMs).then(
    (completion) => ({ completion: JSON.parse(JSON.stringify(completion ?? null)) as unknown }),
    (error: Error & { status?: number; cause?: { name?: string; cause?: { code?: string } } }) => ({
      error: {
        class: error.constructor.name,
        message: error.message,
        status: error.status,
        cause: error.cause === undefined ? undefined : { name: error.cause.name, code: error.cause.cause?.code },
        classified: classifyOpenAIError(error),
      },
    }),
  );
  return { outcome, requests: seen.map(request) };
}

async function same(
  handler: Handler,
  timeouts: { headersTimeout?: number; bodyTimeout?: number } = {},
  timeoutMs?: number,
  apiKey = 'sk-local',
): Promise<unknown> {
  const straight = await observe(direct(timeouts, apiKey), handler, timeoutMs);
  const client = await observe(clientWith(apiKey), handler, timeoutMs);
  expect(straight).toEqual(client);
  return straight;
}

/** A planner request of the backend. */
const planRequest = (): ChatRequest => ({
  role: 'planner',
  schemaName: 'plan',
  schema: PlanReply,
  view: { role: 'gate', task_id: 't', prompt: 'p' },
  messages: () => [{ role: 'user', content: 'Plan it.' }],
  options: {},
  epoch: 0,
});

describe('postCompletion against the openai client over Node fetch', () => {
  // classifyOpenAIError knows the client's error classes once the backend has loaded the package: one call does.
  beforeAll(async () => {
    const { baseURL } = await serve((_q, r) => json(r, 200, COMPLETION));
    await createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool() }).chat(planRequest());
  });

  it('a completion: the same value and request (body, content type, length, auth, user agent, stainless headers)', async () => {
    const seen = (await same((_request, response) => json(response, 200, COMPLETION, { 'x-request-id': 'req-7' }))) as {
      outcome: { completion: unknown };
      requests: Array<{ headers: Record<string, string> }>;
    };
    expect(seen.outcome).toEqual({ completion: COMPLETION });
    expect(seen.requests[0]!.headers).toMatchObject({ 'x-stainless-timeout': undefined });
    expect(seen.requests[0]!.headers).toMatchObject({ authorization: 'Bearer sk-local', 'accept-encoding': 'gzip, deflate' });
  });

  it('HTTP errors become the same APIError subclass, message and classification (JSON error, text, empty, 4xx and 5xx)', async () => {
    const cases: Handler[] = [
      (_q, r) => json(r, 400, { error: { message: 'response_format json_schema is not supported', type: 'BadRequestError', code: 400 } }),
      (_q, r) => json(r, 404, { error: { message: 'The model `x` does not exist.', type: 'NotFoundError', code: 404 } }),
      (_q, r) => json(r, 429, { error: { message: 'rate limited' } }),
      // Bodies without an `error` object (older vLLM's flat body, FastAPI's `detail`) keep their message here where the
      // client says "(no body)": tests/server-replies.test.ts.
      (_q, r) => json(r, 500, { error: { message: 'Error parsing tool call: unexpected token' } }),
      (_q, r) => {
        r.writeHead(502, { 'content-type': 'text/html' });
        r.end('<html>Bad gateway</html>');
      },
      (_q, r) => {
        r.writeHead(503);
        r.end();
      },
    ];
    const seen: string[] = [];
    for (const handler of cases) {
      const { outcome } = (await same(handler)) as { outcome: { error: { class: string; classified: { action: string; kind?: string } } } };
      seen.push(`${outcome.error.class} ${outcome.error.classified.action} ${outcome.error.classified.kind ?? ''}`.trim());
    }
    expect(seen).toEqual([
      'BadRequestError fail other',
      'NotFoundError fail model_missing',
      'RateLimitError retry busy',
      'InternalServerError model_output',
      'InternalServerError retry server_error',
      'InternalServerError retry busy',
    ]);
  });

  it('a reply that is not JSON comes back as its text; a gzip reply is decoded', async () => {
    await same((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' });
      r.end('plain words');
    });
    const seen = (await same((_q, r) => {
      const body = gzipSync(JSON.stringify(COMPLETION));
      r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
      r.end(body);
    })) as { outcome: { completion: unknown } };
    expect(seen.outcome.completion).toEqual(COMPLETION);
  });

  it('a 200 whose body breaks off, and a 500 whose body breaks off: the errors fetch gives (terminated)', async () => {
    const cut =
      (status: number): Handler =>
      (_q, r) => {
        r.writeHead(status, { 'content-type': 'application/json', 'content-length': 500 });
        r.write('{"id":"chatcmpl-1","choi');
        setTimeout(() => r.socket?.destroy(), 20);
      };
    const ok = (await same(cut(200))) as { outcome: { error: { class: string; message: string } } };
    expect(ok.outcome.error).toMatchObject({ class: 'TypeError', message: 'terminated' });
    const failed = (await same(cut(500))) as { outcome: { error: { class: string; message: string } } };
    expect(failed.outcome.error).toMatchObject({ class: 'InternalServerError', message: '500 terminated' });
  });

  it('no answer: a reset socket and a refused connection are APIConnectionError (unreachable); a hang past the timeout is APIConnectionTimeoutError', async () => {
    const reset = (await same((request) => request.socket.destroy())) as { outcome: { error: { class: string; classified: { kind: string } } } };
    expect(reset.outcome.error).toMatchObject({ class: 'APIConnectionError', classified: { kind: 'unreachable' } });
    const hang = (await same(() => undefined, {}, 150)) as { outcome: { error: { class: string; classified: { kind: string } } } };
    expect(hang.outcome.error).toMatchObject({ class: 'APIConnectionTimeoutError', classified: { kind: 'timeout' } });
    // A port nothing listens on: a server opened and closed again.
    const { baseURL } = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const refused = async (send: Sender) =>
      send(baseURL, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, 10_000).catch(
        (error: Error & { cause?: { message?: string; cause?: { code?: string } } }) => ({
          class: error.constructor.name,
          message: error.message,
          cause: error.cause?.message,
          code: error.cause?.cause?.code,
        }),
      );
    expect(await refused(direct())).toEqual(await refused(viaClient));
    expect(await refused(direct())).toEqual({ class: 'APIConnectionError', message: 'Connection error.', cause: 'fetch failed', code: 'ECONNREFUSED' });
  });

  it('a timeout that is not a whole number ≥ 0 is refused before anything is sent, as the client refuses it', async () => {
    for (const timeout of [1.5, -1]) {
      const outcome = async (send: Sender) =>
        send('http://127.0.0.1:9/v1', { model: 'm', messages: [] }, timeout).catch((error: Error) => `${error.constructor.name}: ${error.message}`);
      expect(await outcome(direct())).toEqual(await outcome(viaClient));
    }
  });

  it('a redirect (307) is followed with the same method and body, as fetch follows it', async () => {
    const seen = (await same((request, response) => {
      if (request.url!.startsWith('/v1/')) {
        response.writeHead(307, { location: request.url!.replace('/v1/', '/v2/') });
        response.end();
      } else json(response, 200, COMPLETION);
    })) as { requests: Array<{ method: string; url: string }> };
    expect(seen.requests.map((item) => `${item.method} ${item.url}`)).toEqual(['POST /v1/chat/completions', 'POST /v2/chat/completions']);
  });

  it('bodies as fetch reads them: a byte order mark, raw deflate, a gzip without its end, an empty gzip body, unknown codings, a 205', async () => {
    const send =
      (status: number, body: Buffer, headers: Record<string, string>): Handler =>
      (_q, r) => {
        r.writeHead(status, { 'content-length': body.length, ...headers });
        r.end(body);
      };
    const jsonType = { 'content-type': 'application/json' };
    const completion = Buffer.from(JSON.stringify(COMPLETION));
    const cases: Handler[] = [
      send(200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), completion]), jsonType),
      send(404, Buffer.from('\ufeff{"error":{"message":"no such model"}}'), jsonType),
      send(200, deflateRawSync(completion), { ...jsonType, 'content-encoding': 'deflate' }),
      send(200, gzipSync(completion).subarray(0, -8), { ...jsonType, 'content-encoding': 'gzip' }),
      send(503, Buffer.alloc(0), { 'content-encoding': 'gzip' }),
      send(200, Buffer.from('not compressed at all'), { 'content-type': 'text/plain', 'content-encoding': 'zstd' }),
      send(400, Buffer.from('{"error":{"message":"response_format is not supported"}}'), { ...jsonType, 'content-encoding': 'x-custom' }),
      send(200, gzipSync(completion), { ...jsonType, 'content-encoding': 'identity, gzip' }),
      send(205, completion, jsonType),
    ];
    const outcomes: unknown[] = [];
    for (const handler of cases) outcomes.push(((await same(handler)) as { outcome: unknown }).outcome);
    expect(outcomes[0]).toEqual({ completion: COMPLETION });
    expect(outcomes[1]).toMatchObject({ error: { class: 'NotFoundError', message: '404 no such model' } });
    expect(outcomes[2]).toEqual({ completion: COMPLETION });
    expect(outcomes[6]).toMatchObject({ error: { message: '400 response_format is not supported' } });
  });

  it('redirects as fetch follows them: not a 300, at most 20, an empty Location loops, a 303 drops the body and its type', async () => {
    const redirect =
      (status: number, location: (url: string) => string | undefined): Handler =>
      (request, response) => {
        const to = location(request.url!);
        response.writeHead(status, to === undefined ? {} : { location: to });
        response.end();
      };
    const cases: Handler[] = [
      redirect(300, (url) => url.replace('/v1/', '/v2/')),
      (request, response) => {
        const hop = Number(new URL(request.url!, 'http://x').searchParams.get('hop') ?? 0);
        if (hop < 25) redirect(307, () => `/v1/chat/completions?hop=${hop + 1}`)(request, response, '');
        else json(response, 200, COMPLETION);
      },
      redirect(307, () => ''),
      (request, response) => (request.url!.startsWith('/v1/') ? redirect(303, () => '/done')(request, response, '') : json(response, 200, COMPLETION)),
      redirect(302, () => undefined),
    ];
    const outcomes: Array<{ outcome: { error?: { class: string; message: string } }; requests: Array<{ method: string; headers: Record<string, unknown> }> }> =
      [];
    for (const handler of cases) outcomes.push((await same(handler)) as (typeof outcomes)[number]);
    expect(outcomes[0]!.outcome.error).toMatchObject({ class: 'APIError', message: '300 status code (no body)' });
    expect(outcomes[1]!.outcome.error).toMatchObject({ class: 'APIConnectionError' });
    expect(outcomes[1]!.requests).toHaveLength(21);
    expect(outcomes[2]!.outcome.error).toMatchObject({ class: 'APIConnectionError' });
    expect(outcomes[3]!.requests.map((item) => `${item.method} ${String(item.headers['content-type'])}`)).toEqual(['POST application/json', 'GET undefined']);
  });

  it('the request as fetch builds it: an API key with a trailing newline, OPENAI_ORG_ID and OPENAI_PROJECT_ID, a key fetch refuses, credentials in the URL', async () => {
    const ok: Handler = (_q, r) => json(r, 200, COMPLETION);
    const keyed = (await same(ok, {}, undefined, 'sk-secret\n')) as { outcome: unknown; requests: Array<{ headers: Record<string, unknown> }> };
    expect(keyed.outcome).toEqual({ completion: COMPLETION });
    expect(keyed.requests[0]!.headers['authorization']).toBe('Bearer sk-secret');
    const refused = (await same(ok, {}, undefined, 'sk-\u0000x')) as { outcome: { error: { class: string } }; requests: unknown[] };
    expect(refused.outcome.error.class).toBe('TypeError');
    expect(refused.requests).toEqual([]);
    process.env['OPENAI_ORG_ID'] = 'org-7';
    process.env['OPENAI_PROJECT_ID'] = 'proj-9';
    try {
      const { baseURL, seen } = await serve(ok);
      await direct()(baseURL, { model: 'm', messages: [] }, undefined);
      await viaClient(baseURL, { model: 'm', messages: [] }, undefined);
      expect(seen.map((item) => [item.headers['openai-organization'], item.headers['openai-project']])).toEqual([
        ['org-7', 'proj-9'],
        ['org-7', 'proj-9'],
      ]);
    } finally {
      delete process.env['OPENAI_ORG_ID'];
      delete process.env['OPENAI_PROJECT_ID'];
    }
    const { baseURL, seen } = await serve(ok);
    const withCredentials = baseURL.replace('http://', 'http://user:pass@');
    const outcome = async (send: Sender) =>
      send(withCredentials, { model: 'm', messages: [] }, undefined).catch(
        (error: Error & { cause?: Error }) => `${error.constructor.name}: ${error.cause?.message}`,
      );
    expect(await outcome(direct())).toEqual(await outcome(viaClient));
    expect(seen).toEqual([]);
  });

  it('the backend sends through it when given no fetch: a reply, and a dead server ends as unreachable after its retries', async () => {
    const { baseURL, seen } = await serve((_q, r) => json(r, 200, COMPLETION));
    const model = createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool() });
    const reply = await model.chat(planRequest());
    expect(reply.text).toBe('{"steps":[]}');
    expect(seen[0]!.headers['accept-encoding']).toBe('gzip, deflate');
    const { baseURL: gone } = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const dead = createOpenAIModel({
      model: 'Qwen/Qwen3-8B',
      baseURL: gone,
      dispatcher: pool(),
      retry: { attempts: 2 },
      clock: { sleep: async () => undefined },
    });
    await expect(dead.chat(planRequest())).rejects.toMatchObject({ name: 'InfrastructureError', kind: 'unreachable' });
  });
});

describe('a 2xx reply that is not a chat completion', () => {
  it('is a server error, retried and then an InfrastructureError, on both paths (it was a TypeError nothing caught)', async () => {
    const replies: Handler[] = [
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'text/html' });
        r.end('<html>proxy login</html>');
      },
      (_q, r) => json(r, 200, { object: 'list', data: [] }),
      (_q, r) => {
        r.writeHead(204);
        r.end();
      },
    ];
    for (const reply of replies) {
      const { baseURL, seen } = await serve(reply);
      const outcome = (fetch?: typeof globalThis.fetch) =>
        createOpenAIModel({
          model: 'm',
          baseURL,
          dispatcher: pool(),
          retry: { attempts: 2 },
          clock: { sleep: async () => undefined },
          ...(fetch ? { fetch } : {}),
        })
          .chat(planRequest())
          .catch((error: Error & { kind?: string }) => ({ name: error.name, kind: error.kind, message: error.message.replace(/ in \d+ ms/, '') }));
      const direct = await outcome();
      expect(direct).toEqual(await outcome(globalThis.fetch));
      expect(direct).toMatchObject({ name: 'InfrastructureError', kind: 'server_error' });
      expect((direct as { message: string }).message).toContain('not a chat completion');
      expect(seen).toHaveLength(4);
    }
  });
});
