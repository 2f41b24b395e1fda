// The run's Ollama transport (a non-streamed chat straight to undici's pool, decision 0019) against the ollama client
// over Node's own fetch: every fixture read and classified the same, and each failure shaped as Node's fetch shapes it.
import { createServer as createTcpServer, type Socket } from 'node:net';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createOllamaModel, type OllamaModelConfig } from '../src/models/ollama.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { postChat } from '../src/models/ollama-undici.js';
import { sendChat } from '../src/models/ollama-transport.js';
import { classifyOllamaError } from '../src/models/retry.js';
import { deflateRawSync, gzipSync } from 'node:zlib';
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

/**
 * What a caller can observe of one chat, through `fetch` (the ollama client over it) or, with `undefined`, the run's own
 * transport: the reply or the error, and what the server saw.
 */
async function observe(
  fetch: typeof globalThis.fetch | undefined,
  reply: FixtureReply,
  config: Partial<OllamaModelConfig>,
  chat: ChatRequest,
): Promise<unknown> {
  const server = await startFakeOllama({ reply: () => reply });
  servers.push(server);
  const model = createOllamaModel({
    model: 'qwen3:8b',
    host: server.url,
    ...(fetch ? { fetch } : {}),
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

describe('the run’s Ollama transport against the ollama client over Node fetch (undici)', () => {
  it.each(fixtures.map((item) => [item.id, item] as const))('%s: the same reply or error, the same requests', async (_id, item) => {
    const { config, chat } = scenario(item.id);
    const direct = await observe(undefined, fixtureReply(item), config, chat);
    const viaFetch = await observe(globalThis.fetch, fixtureReply(item), config, chat);
    expect(direct).toEqual(viaFetch);
  });

  it('a socket the server resets before answering: the same classification as Node fetch', async () => {
    const reset: FixtureReply = { destroy: true };
    const chat = request('plan', PlanReply);
    expect(await observe(undefined, reset, {}, chat)).toEqual(await observe(globalThis.fetch, reset, {}, chat));
  });

  it('HTTP errors read as the ollama client reads them: the JSON error, else the body text, else the status line', async () => {
    const replies: FixtureReply[] = [
      { status: 404, body: { error: 'model "qwen3:8b" not found, try pulling it first' } },
      { status: 502, chunks: ['upstream gone'] },
      { status: 503, chunks: [] },
      { status: 500, chunks: ['{"error":'] },
    ];
    for (const reply of replies) {
      const chat = request('plan', PlanReply);
      const direct = await observe(undefined, reply, {}, chat);
      expect(direct).toEqual(await observe(globalThis.fetch, reply, {}, chat));
      expect(direct).toMatchObject({ outcome: { error: { name: expect.any(String) } } });
    }
  });

  it('connection refused: TypeError "fetch failed" with the socket error as cause, like Node fetch', async () => {
    const server = await startFakeOllama();
    const url = new URL(`${server.url}/api/chat`);
    await server.close();
    const direct = await postChat({ origin: url.origin, path: url.pathname }, '{}', undefined).catch((error: unknown) => error);
    const viaFetch = await globalThis.fetch(url, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(TypeError);
    expect(direct).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(direct).toMatchObject({ message: (viaFetch as Error).message, cause: { code: ((viaFetch as Error).cause as { code: string }).code } });
  });

  it('no headers within the pool’s headers timeout: a headers timeout, after which the backend streams', async () => {
    const server = await startFakeOllama({ reply: (_body, { index }) => (index === 0 ? { hang: true } : okReply('{"answer":"ok"}')) });
    servers.push(server);
    const model = createOllamaModel({
      model: 'qwen3:8b',
      host: server.url,
      dispatcher: new Agent({ headersTimeout: 50 }),
      clock: { sleep: async () => undefined },
    });
    const reply = await model.chat(request('report', z.object({ answer: z.string() })));
    expect(reply.text).toBe('{"answer":"ok"}');
    expect(server.chatCalls().map((call) => [(call.body as { stream: boolean }).stream, call.aborted])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('a body that stops arriving: the body timeout fails the read as "terminated", as Node fetch does', async () => {
    const url = new URL(await headersThenSilence());
    const error = await postChat({ origin: url.origin, path: url.pathname }, '{}', undefined, new Agent({ bodyTimeout: 50 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated', cause: { code: 'UND_ERR_BODY_TIMEOUT' } });
  });

  it('the per-call timeout: a TimeoutError before the headers and while the body is read, the socket closed', async () => {
    const server = await startFakeOllama({ reply: () => ({ hang: true }) });
    servers.push(server);
    const url = new URL(`${server.url}/api/chat`);
    const before = await postChat({ origin: url.origin, path: url.pathname }, '{"model":"qwen3:8b"}', 30).catch((error: unknown) => error);
    expect(before).toMatchObject({ name: 'TimeoutError' });
    await vi.waitFor(() => expect(server.chatCalls().map((call) => call.aborted)).toEqual([true]));

    const silent = new URL(await headersThenSilence());
    const during = await postChat({ origin: silent.origin, path: silent.pathname }, '{}', 30).catch((error: unknown) => error);
    expect(during).toMatchObject({ name: 'TimeoutError' });
  });

  it('a reused keep-alive socket closed by the server before answering: the call still gets its reply', async () => {
    let connections = 0;
    const sockets: Socket[] = [];
    const ok = (content: string): string => {
      const body = JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content }, done: true, done_reason: 'stop' });
      return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`;
    };
    const tcp = createTcpServer((socket) => {
      sockets.push(socket);
      const connection = ++connections;
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        // The first connection answers once, then drops the next request as a server closing an idle socket would.
        if (connection === 1 && requests === 2) socket.destroy();
        else socket.write(ok('{"answer":"ok"}'));
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const model = createOllamaModel({
        model: 'qwen3:8b',
        host: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
        clock: { sleep: async () => undefined, random: () => 0.5 },
      });
      const chat = request('report', z.object({ answer: z.string() }));
      expect((await model.chat(chat)).text).toBe('{"answer":"ok"}');
      expect((await model.chat(chat)).text).toBe('{"answer":"ok"}');
      expect(connections).toBe(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      tcp.close();
    }
  });

  it('hosts as the ollama client reads them: no scheme, a path prefix, credentials as a Basic authorization header', async () => {
    const { createServer } = await import('node:http');
    const seen: Array<{ url: string | undefined; authorization: string | undefined }> = [];
    const reply = JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content: '{"answer":"ok"}' }, done: true });
    const server = createServer((incoming, outgoing) => {
      seen.push({ url: incoming.url, authorization: incoming.headers.authorization });
      incoming.resume();
      incoming.on('end', () => outgoing.writeHead(200, { 'content-type': 'application/json' }).end(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rawServers.push({ close: () => (server.closeAllConnections(), server.close()) });
    const port = (server.address() as AddressInfo).port;
    const chat = request('report', z.object({ answer: z.string() }));
    for (const host of [`127.0.0.1:${port}`, `http://127.0.0.1:${port}/ollama/`, `http://ann:p%40ss@127.0.0.1:${port}`]) {
      const model = createOllamaModel({ model: 'qwen3:8b', host, clock: { sleep: async () => undefined } });
      expect((await model.chat(chat)).text).toBe('{"answer":"ok"}');
    }
    expect(seen).toEqual([
      { url: '/api/chat', authorization: undefined },
      { url: '/ollama/api/chat', authorization: undefined },
      { url: '/api/chat', authorization: `Basic ${Buffer.from('ann:p@ss').toString('base64')}` },
    ]);
  });

  it('idle keep-alive sockets do not keep the process alive', async () => {
    // A server that keeps idle sockets for 60 s (and says so in Keep-Alive): a socket that kept the child alive shows as
    // no exit within 20 s.
    const { createServer } = await import('node:http');
    const reply = JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content: '{"answer":"ok"}' }, done: true });
    const server = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => outgoing.writeHead(200, { 'content-type': 'application/json' }).end(reply));
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rawServers.push({ close: () => server.close() });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const script = `
      import { postChat } from ${JSON.stringify(new URL('../src/models/ollama-undici.ts', import.meta.url).href)};
      const reply = await postChat({ origin: ${JSON.stringify(origin)}, path: '/api/chat' }, JSON.stringify({ model: 'qwen3:8b', messages: [] }), undefined);
      console.log(reply.message.content);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => (out += String(data)));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => (child.kill(), resolve(null)), 20_000);
      child.on('exit', (exitCode) => (clearTimeout(timer), resolve(exitCode)));
    });
    expect([code, out.trim()]).toEqual([0, '{"answer":"ok"}']);
    server.closeAllConnections();
  });

  it('undici and the ollama client are loaded only by a run that calls Ollama (undici alone: about 140 ms and 19 MB)', async () => {
    // A module-resolution hook in the child logs every file it loads from node_modules.
    const dir = mkdtempSync(join(tmpdir(), 'stratbench-loads-'));
    const log = join(dir, 'loaded.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  if (found.url.includes('/node_modules/')) appendFileSync(${JSON.stringify(log)}, found.url + '\\n');\n  return found;\n}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${join(dir, 'hooks.mjs')}`).href)});\n`,
    );
    const cli = new URL('../dist/cli.js', import.meta.url).pathname;
    // Spawned without blocking: the fake server answers from this process.
    const loaded = async (args: string[]): Promise<string[]> => {
      writeFileSync(log, '');
      const child = spawn(process.execPath, ['--import', join(dir, 'register.mjs'), cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (data) => (stderr += String(data)));
      const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(status, stderr).toBe(0);
      const packages = readFileSync(log, 'utf8')
        .split('\n')
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]);
      return [...new Set(packages.filter((name): name is string => name !== undefined))];
    };
    const common = ['run', '--tasks', 'fix-checkout-test', '--strategies', 'direct', '--epochs', '1'];
    const scripted = await loaded([...common, '--out', join(dir, 'scripted')]);
    expect(scripted).not.toContain('undici');
    expect(scripted).not.toContain('ollama');

    const server = await startFakeOllama({ reply: () => okReply('{"action":"finish","answer":"ok"}') });
    servers.push(server);
    const served = await loaded([...common, '--model', 'ollama:qwen3:8b', '--ollama-host', server.url, '--out', join(dir, 'served')]);
    expect(served).toContain('undici');
    expect(served).toContain('ollama');
  });

  it('the first call’s wall time leaves out loading undici (it stands for the model’s time when the server sends none)', async () => {
    // A resolve hook in the child holds undici's entry for 3 s, as a slow disk would.
    const dir = mkdtempSync(join(tmpdir(), 'stratbench-slow-import-'));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {\n  if (specifier === 'undici') await new Promise((done) => setTimeout(done, 3000));\n  return next(specifier, context);\n}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${join(dir, 'hooks.mjs')}`).href)});\n`,
    );
    const { createServer } = await import('node:http');
    // No total_duration in the reply: the wall time is what a run records as the model's time.
    const reply = JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content: 'ok' }, done: true });
    const server = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => outgoing.writeHead(200, { 'content-type': 'application/json' }).end(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rawServers.push({ close: () => (server.closeAllConnections(), server.close()) });
    const script = `
      import { sendChat } from ${JSON.stringify(new URL('../src/models/ollama-transport.ts', import.meta.url).href)};
      const started = performance.now();
      const reply = await sendChat({ model: 'qwen3:8b', messages: [] }, { host: 'http://127.0.0.1:${(server.address() as AddressInfo).port}', timeoutMs: undefined, stream: false });
      console.log(JSON.stringify({ wall: reply.wall_ms, total: performance.now() - started }));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', join(dir, 'register.mjs'), '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (data) => (out += String(data)));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    const { wall, total } = JSON.parse(out) as { wall: number; total: number };
    expect(total).toBeGreaterThanOrEqual(3_000);
    // A loopback call: well under the 3 s it would show with the import counted, on a loaded machine too.
    expect(wall).toBeLessThan(2_000);
  });

  /** A raw TCP server answering each request with `answer(socket, path)`; its URL. */
  async function rawServer(answer: (socket: Socket, path: string) => void): Promise<string> {
    const sockets: Socket[] = [];
    const tcp = createTcpServer((socket) => {
      sockets.push(socket);
      let buffered = '';
      socket.on('data', (data) => {
        buffered += String(data);
        const head = /^[A-Z]+ (\S+) HTTP\/1\.1\r\n[\s\S]*?\r\n\r\n/.exec(buffered);
        const length = Number(/content-length: (\d+)/i.exec(head?.[0] ?? '')?.[1] ?? 0);
        if (head && buffered.length >= head[0].length + length) {
          buffered = '';
          answer(socket, head[1]!);
        }
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    rawServers.push({ close: () => (sockets.forEach((socket) => socket.destroy()), tcp.close()) });
    return `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  }

  /** One chat through the run's transport and through the ollama client over Node fetch: reply or classified error. */
  async function bothWays(host: string, timeoutMs?: number): Promise<[unknown, unknown]> {
    const outcome = (fetch: typeof globalThis.fetch | undefined) =>
      sendChat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }] }, { host, timeoutMs, stream: false, ...(fetch ? { fetch } : {}) }).then(
        (reply) => ({ content: reply.content }),
        (error: Error & { status_code?: number }) => ({ name: error.name, message: error.message, status: error.status_code, as: classifyOllamaError(error) }),
      );
    return [await outcome(undefined), await outcome(globalThis.fetch)];
  }

  it('an error reply whose body breaks off or times out: the status line, as the ollama client gives it', async () => {
    const cut = (status: string) =>
      rawServer((socket) => {
        socket.write(`HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 100\r\n\r\n{"error":"model 'qwen3:8b' not fo`);
        setTimeout(() => socket.destroy(), 20);
      });
    for (const status of ['404 Not Found', '500 Internal Server Error']) {
      const [direct, viaFetch] = await bothWays(await cut(status));
      expect(direct).toEqual(viaFetch);
      expect(direct).toMatchObject({ name: 'ResponseError', message: `Error ${status.replace(' ', ': ')}` });
    }
    const stalls = await rawServer((socket) => socket.write('HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\nupstr'));
    const [direct, viaFetch] = await bothWays(stalls, 100);
    expect(direct).toEqual(viaFetch);
    expect(direct).toMatchObject({ name: 'ResponseError', status: 502, as: { kind: 'server_error' } });
  });

  it('redirects are followed as Node fetch follows them (307 keeps the POST)', async () => {
    const target = await startFakeOllama({ reply: () => okReply('{"answer":"ok"}') });
    servers.push(target);
    const redirector = await rawServer((socket, path) =>
      socket.write(`HTTP/1.1 307 Temporary Redirect\r\nlocation: ${target.url}${path}\r\ncontent-length: 0\r\n\r\n`),
    );
    const [direct, viaFetch] = await bothWays(redirector);
    expect(direct).toEqual(viaFetch);
    expect(direct).toEqual({ content: '{"answer":"ok"}' });
    expect(target.chatCalls()).toHaveLength(2);
  });

  it('a compressed reply is decoded, and the request carries the ollama client’s headers', async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const { createServer } = await import('node:http');
    const reply = gzipSync(JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content: 'zipped' }, done: true }));
    const server = createServer((incoming, outgoing) => {
      const { host: _host, connection: _connection, 'content-length': _length, ...headers } = incoming.headers;
      seen.push(headers);
      incoming.resume();
      incoming.on('end', () => outgoing.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rawServers.push({ close: () => (server.closeAllConnections(), server.close()) });
    const [direct, viaFetch] = await bothWays(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    expect(direct).toEqual(viaFetch);
    expect(direct).toEqual({ content: 'zipped' });
    const [ours, theirs] = seen;
    for (const name of ['content-type', 'accept', 'user-agent', 'accept-encoding']) expect([name, ours![name]]).toEqual([name, theirs![name]]);
  });
});

describe('bodies and redirects as Node fetch reads them, under the ollama client', () => {
  it('a byte order mark, raw deflate, a gzip without its end, an unknown coding, a 300 and a redirect loop: the same as over fetch', async () => {
    const chat = Buffer.from(JSON.stringify({ model: 'qwen3:8b', message: { role: 'assistant', content: 'read' }, done: true }));
    const replies: Array<(incoming: IncomingMessage, outgoing: ServerResponse) => void> = [
      (_i, o) => o.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), chat])),
      (_i, o) => o.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateRawSync(chat)),
      (_i, o) => o.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(chat).subarray(0, -8)),
      (_i, o) => o.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end('{"error":"model not found"}'),
      (i, o) => o.writeHead(300, { location: i.url!.replace('/api/', '/v9/') }).end(),
      (_i, o) => o.writeHead(308, { location: '' }).end(),
    ];
    const outcomes: unknown[] = [];
    for (const reply of replies) {
      const server = createHttpServer((incoming, outgoing) => {
        incoming.resume();
        incoming.on('end', () => reply(incoming, outgoing));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      rawServers.push({ close: () => (server.closeAllConnections(), server.close()) });
      const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const outcome = (fetch: typeof globalThis.fetch | undefined) =>
        sendChat(
          { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }] },
          { host, timeoutMs: undefined, stream: false, ...(fetch ? { fetch } : {}) },
        ).then(
          (answer) => ({ content: answer.content }),
          (error: Error & { status_code?: number; cause?: Error }) => ({
            name: error.name,
            message: error.message,
            status: error.status_code,
            as: classifyOllamaError(error),
          }),
        );
      const direct = await outcome(undefined);
      expect(direct).toEqual(await outcome(globalThis.fetch));
      outcomes.push(direct);
    }
    expect(outcomes.slice(0, 3)).toEqual([{ content: 'read' }, { content: 'read' }, { content: 'read' }]);
    expect(outcomes[3]).toMatchObject({ name: 'ResponseError', message: 'model not found', status: 404 });
    expect(outcomes[4]).toMatchObject({ name: 'ResponseError', status: 300 });
    expect(outcomes[5]).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });
});
