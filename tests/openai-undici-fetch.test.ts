// The openai client over `undiciFetch` (undici's pool, decision 0021) against the same client over Node's own fetch:
// for each way a server answers, the same completion or the same error, classified the same, and the same request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { Agent, interceptors } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyOpenAIError, createOpenAIModel } from '../src/models/openai.js';
import { undiciFetch } from '../src/models/undici-fetch.js';
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
/** A pool like modelDispatcher's (redirects followed), with short timeouts when a test needs them. */
function pool(timeouts: { headersTimeout?: number; bodyTimeout?: number } = {}) {
  const agent = new Agent(timeouts);
  pools.push(agent);
  return agent.compose(interceptors.redirect({ maxRedirections: 20 }));
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
    },
  };
}

/** One chat completion through the openai client over `fetch`: the completion or the error as a caller sees it, and the requests. */
async function observe(fetch: typeof globalThis.fetch, handler: Handler, timeoutMs = 10_000): Promise<unknown> {
  const { baseURL, seen } = await serve(handler);
  const client = new OpenAI({ baseURL, apiKey: 'sk-local', maxRetries: 0, fetch });
  const outcome = await client.chat.completions
    .create({ model: 'Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'Plan it.' }], temperature: 0 }, { timeout: timeoutMs })
    .then(
      (completion) => ({ completion: JSON.parse(JSON.stringify(completion)) as unknown, requestId: completion._request_id }),
      (error: Error & { status?: number; cause?: { code?: string; name?: string } }) => ({
        error: {
          class: error.constructor.name,
          message: error.message,
          status: error.status,
          cause: error.cause === undefined ? undefined : { name: error.cause.name, code: error.cause.code },
          classified: classifyOpenAIError(error),
        },
      }),
    );
  return { outcome, requests: seen.map(request) };
}

async function same(handler: Handler, timeouts: { headersTimeout?: number; bodyTimeout?: number } = {}, timeoutMs?: number): Promise<unknown> {
  const viaUndici = await observe(undiciFetch(pool(timeouts)), handler, timeoutMs);
  const viaFetch = await observe(globalThis.fetch, handler, timeoutMs);
  expect(viaUndici).toEqual(viaFetch);
  return viaUndici;
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

describe('undiciFetch under the openai client, against Node fetch', () => {
  // classifyOpenAIError knows the client's error classes once the backend has loaded the package: one call does.
  beforeAll(async () => {
    const { baseURL } = await serve((_q, r) => json(r, 200, COMPLETION));
    await createOpenAIModel({ model: 'Qwen/Qwen3-8B', baseURL, dispatcher: pool() }).chat(planRequest());
  });

  it('a completion: the same value, request id, and request (body, content type, length, auth, user agent)', async () => {
    const seen = (await same((_request, response) => json(response, 200, COMPLETION, { 'x-request-id': 'req-7' }))) as {
      outcome: { completion: unknown; requestId: string };
      requests: Array<{ headers: Record<string, string> }>;
    };
    expect(seen.outcome).toEqual({ completion: COMPLETION, requestId: 'req-7' });
    expect(seen.requests[0]!.headers).toMatchObject({ authorization: 'Bearer sk-local', 'accept-encoding': 'gzip, deflate' });
  });

  it('HTTP errors become the same APIError subclass, message and classification (JSON error, text, empty, 4xx and 5xx)', async () => {
    const cases: Handler[] = [
      (_q, r) => json(r, 400, { error: { message: 'response_format json_schema is not supported', type: 'BadRequestError', code: 400 } }),
      (_q, r) => json(r, 404, { error: { message: 'The model `x` does not exist.', type: 'NotFoundError', code: 404 } }),
      (_q, r) => json(r, 429, { error: { message: 'rate limited' } }),
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
    const refused = async (fetch: typeof globalThis.fetch) =>
      new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0, fetch }).chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
        .catch((error: Error & { cause?: { cause?: { code?: string } } }) => ({
          class: error.constructor.name,
          message: error.message,
          code: error.cause?.cause?.code,
        }));
    expect(await refused(undiciFetch(pool()))).toEqual(await refused(globalThis.fetch));
    expect(await refused(undiciFetch(pool()))).toEqual({ class: 'APIConnectionError', message: 'Connection error.', code: 'ECONNREFUSED' });
  });

  it('a redirect (307) is followed with the same method and body, as fetch follows it', async () => {
    let hops = 0;
    const seen = (await same((request, response) => {
      if (hops++ % 2 === 0) {
        response.writeHead(307, { location: request.url!.replace('/v1/', '/v2/') });
        response.end();
      } else json(response, 200, COMPLETION);
    })) as { requests: Array<{ method: string; url: string }> };
    expect(seen.requests.map((item) => `${item.method} ${item.url}`)).toEqual(['POST /v1/chat/completions', 'POST /v2/chat/completions']);
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
