// The lean node:http fetch of the run's Ollama models against Node's own fetch: every fixture classified the same.
import { readFileSync } from 'node:fs';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createOllamaModel, type OllamaModelConfig } from '../src/models/ollama.js';
import { createNodeHttpFetch } from '../src/models/node-http-fetch.js';
import type { ChatOptions, ChatRequest } from '../src/models/types.js';
import { ActionReply, ExecutorReply, PlanReply } from '../src/strategies/replies.js';
import { fixtureReply, okReply, startFakeOllama, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';

interface Fixture {
  id: string;
  status: number | null;
  body: unknown;
}
const fixtures = JSON.parse(readFileSync(new URL('./fixtures/shared/ollama-replies.json', import.meta.url), 'utf8')) as Fixture[];
const TOOLS = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'search_docs', description: 'Search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'read_lines', description: 'Read lines', parameters: { type: 'object', properties: { path: { type: 'string' }, start_line: { type: 'integer' } } } },
];

function request(schemaName: string, schema: z.ZodType, options: ChatOptions = {}): ChatRequest {
  return {
    role: 'agent',
    schemaName,
    schema,
    view: { role: 'gate', task_id: 't1', prompt: 'p' },
    messages: () => [{ role: 'user', content: 'Do the task.' }],
    options,
    epoch: 0,
  };
}

const servers: FakeOllama[] = [];
const rawServers: Array<{ close(): void }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const server of rawServers.splice(0)) server.close();
});

/** A raw HTTP server that sends a 200, its headers and one chunk of body, then nothing more. Returns its URL. */
async function headersThenSilence(): Promise<string> {
  const sockets: Socket[] = [];
  const tcp = createTcpServer((socket) => {
    sockets.push(socket);
    socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n'));
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  rawServers.push({ close: () => (sockets.forEach((socket) => socket.destroy()), tcp.close()) });
  return `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/api/chat`;
}

/** What a caller can observe of one chat through `fetch`: the reply or the error, and what the server saw. */
async function observe(fetch: typeof globalThis.fetch, reply: FixtureReply, config: Partial<OllamaModelConfig>, chat: ChatRequest): Promise<unknown> {
  const server = await startFakeOllama({ reply: () => reply });
  servers.push(server);
  const model = createOllamaModel({
    model: 'qwen3:8b',
    host: server.url,
    fetch,
    clock: { sleep: async () => undefined, random: () => 0.5, now: () => 0 },
    loadTimeoutMs: 0,
    retry: { attempts: 2 },
    ...config,
  });
  const outcome = await model.chat(chat).then(
    ({ duration_ms: _wall, ...response }) => ({ response }),
    (error: Error & { kind?: string }) => ({ error: { name: error.name, kind: error.kind, message: error.message.replace(server.url, 'HOST') } }),
  );
  await vi.waitFor(() => expect(server.chatCalls().every((call) => call.aborted || call.body !== undefined)).toBe(true));
  return { outcome, calls: server.chatCalls().map((call) => ({ stream: (call.body as { stream?: boolean }).stream, aborted: call.aborted })) };
}

/** How each fixture is asked for (schema, mode, options), as in tests/ollama-fixtures.test.ts. */
function scenario(id: string): { config: Partial<OllamaModelConfig>; chat: ChatRequest } {
  const native = { toolCalling: 'native' as const, tools: TOOLS };
  if (['tool-arguments-json-string', 'hallucinated-tool-name', 'http500-error-parsing-tool-call'].includes(id))
    return { config: native, chat: request('action', ActionReply) };
  if (['numbers-as-strings', 'tool-args-missing-closing-brace'].includes(id)) return { config: native, chat: request('executor_call', ExecutorReply) };
  if (id === 'ndjson-chunk-split') return { config: { stream: true }, chat: request('executor_call', ExecutorReply) };
  if (id === 'client-headers-timeout-300s') return { config: {}, chat: request('plan', PlanReply, { timeout_ms: 60 }) };
  return { config: {}, chat: request('plan', PlanReply, { num_predict: 80 }) };
}

describe('createNodeHttpFetch against Node fetch (undici), through the real ollama client', () => {
  it.each(fixtures.map((item) => [item.id, item] as const))('%s: the same reply or error, the same requests', async (_id, item) => {
    const { config, chat } = scenario(item.id);
    const lean = await observe(createNodeHttpFetch(), fixtureReply(item), config, chat);
    const undici = await observe(globalThis.fetch, fixtureReply(item), config, chat);
    expect(lean).toEqual(undici);
  });

  it('a socket the server resets before answering: the same classification as Node fetch', async () => {
    const reset: FixtureReply = { destroy: true };
    const chat = request('plan', PlanReply);
    expect(await observe(createNodeHttpFetch(), reset, {}, chat)).toEqual(await observe(globalThis.fetch, reset, {}, chat));
  });

  it('connection refused: TypeError "fetch failed" with the socket error as cause, like Node fetch', async () => {
    const server = await startFakeOllama();
    const url = `${server.url}/api/version`;
    await server.close();
    const [lean, undici] = await Promise.all([createNodeHttpFetch()(url), globalThis.fetch(url)].map((promise) => promise.catch((error: unknown) => error)));
    expect(lean).toBeInstanceOf(TypeError);
    expect(lean).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(lean).toMatchObject({ message: (undici as Error).message, cause: { code: ((undici as Error).cause as { code: string }).code } });
  });

  it('no headers within headersTimeoutMs: a headers timeout, after which the backend streams', async () => {
    const server = await startFakeOllama({ reply: (_body, { index }) => (index === 0 ? { hang: true } : okReply('{"answer":"ok"}')) });
    servers.push(server);
    const model = createOllamaModel({
      model: 'qwen3:8b',
      host: server.url,
      fetch: createNodeHttpFetch({ headersTimeoutMs: 50 }),
      clock: { sleep: async () => undefined },
    });
    const reply = await model.chat(request('report', z.object({ answer: z.string() })));
    expect(reply.text).toBe('{"answer":"ok"}');
    expect(server.chatCalls().map((call) => [(call.body as { stream: boolean }).stream, call.aborted])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('a body that stops arriving: the body timeout fails the read as "terminated"', async () => {
    const url = await headersThenSilence();
    const response = await createNodeHttpFetch({ bodyTimeoutMs: 50 })(url, { method: 'POST', body: '{}' });
    const error = await response.text().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated', cause: { code: 'UND_ERR_BODY_TIMEOUT' } });
  });

  it('an aborted signal rejects with its reason, before the headers and while the body is read', async () => {
    const server = await startFakeOllama({ reply: () => ({ hang: true }) });
    servers.push(server);
    const lean = createNodeHttpFetch();
    const before = await lean(`${server.url}/api/chat`, { method: 'POST', body: '{"model":"qwen3:8b"}', signal: AbortSignal.timeout(30) }).catch(
      (error: unknown) => error,
    );
    expect(before).toMatchObject({ name: 'TimeoutError' });
    expect(
      await lean(`${server.url}/api/chat`, { method: 'POST', body: '{}', signal: AbortSignal.abort(new Error('gone')) }).catch((error: unknown) => error),
    ).toMatchObject({ message: 'gone' });

    const controller = new AbortController();
    const response = await lean(await headersThenSilence(), { signal: controller.signal });
    expect(response.status).toBe(200);
    const reading = response.text().catch((error: unknown) => error);
    controller.abort(new DOMException('stop', 'AbortError'));
    expect(await reading).toMatchObject({ name: 'AbortError', message: 'stop' });
  });

  it('a reused keep-alive socket closed by the server before answering: sent again on a new socket', async () => {
    let connections = 0;
    const sockets: Socket[] = [];
    const ok = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}';
    const tcp = createTcpServer((socket) => {
      sockets.push(socket);
      const connection = ++connections;
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        // The first connection answers once, then drops the next request as a server closing an idle socket would.
        if (connection === 1 && requests === 2) socket.destroy();
        else socket.write(ok);
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/api/chat`;
    try {
      const lean = createNodeHttpFetch();
      expect(await (await lean(url, { method: 'POST', body: '{}' })).json()).toEqual({});
      expect(await (await lean(url, { method: 'POST', body: '{}' })).json()).toEqual({});
      expect(connections).toBe(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      tcp.close();
    }
  });
});

describe('the lean fetch’s response', () => {
  it('reads a body whole or as a stream, once, like a WHATWG Response, with the headers and status the server sent', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((incoming, outgoing) => {
      const status = incoming.url === '/missing' ? 404 : 200;
      outgoing.writeHead(status, { 'content-type': 'application/json', 'x-chunks': '3' });
      // Three writes: the body arrives in parts, as a streamed reply does.
      outgoing.write('{"a":');
      setTimeout(() => {
        outgoing.write('[1,2,');
        setTimeout(() => outgoing.end('3]}'), 5);
      }, 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rawServers.push(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetch = createNodeHttpFetch();

    const whole = await fetch(`${base}/ok`, { method: 'POST', body: '{}' });
    expect([whole.ok, whole.status, whole.headers.get('content-type'), whole.headers.get('X-Chunks')]).toEqual([true, 200, 'application/json', '3']);
    expect(await whole.json()).toEqual({ a: [1, 2, 3] });
    await expect(whole.text()).rejects.toThrow(TypeError);

    const streamed = await fetch(`${base}/ok`, { method: 'POST', body: '{}' });
    const reader = streamed.body!.getReader();
    const parts: string[] = [];
    for (let part = await reader.read(); !part.done; part = await reader.read()) parts.push(Buffer.from(part.value).toString('utf8'));
    expect(parts.join('')).toBe('{"a":[1,2,3]}');
    expect(streamed.bodyUsed).toBe(true);

    const missing = await fetch(`${base}/missing`, { method: 'POST', body: '{}' });
    expect([missing.ok, missing.status]).toEqual([false, 404]);
    expect(await missing.text()).toBe('{"a":[1,2,3]}');
  });
});
