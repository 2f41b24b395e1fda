// A fake Ollama server on 127.0.0.1 (real node:http, ephemeral port) for tests and scripts; no vitest imports.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A model the fake server lists in /api/tags and describes in /api/show. */
export interface FakeModel {
  name: string;
  digest: string;
  /** Reported by /api/show (default ["completion", "tools", "thinking"], what Ollama reports for qwen3). */
  capabilities?: string[];
  /** The model's trained context length, reported in /api/show `model_info` as `<family>.context_length` (default 40960). */
  contextLength?: number;
}

/** The body of POST /api/chat exactly as the client sent it (model, messages, format, tools, options, …). */
export interface FakeChatRequest {
  model: string;
  messages?: Array<{ role: string; content: string; thinking?: string; tool_calls?: unknown[] }>;
  format?: unknown;
  tools?: unknown[];
  options?: Record<string, unknown>;
  think?: unknown;
  keep_alive?: unknown;
  stream?: boolean;
  [field: string]: unknown;
}

/**
 * What the server does with one chat request:
 * - `{status?, body}`: `body` as JSON (`content-type: application/json`, status default 200). A 200 body
 *   shaped like an Ollama chat response is sent as NDJSON parts when the request asked to stream.
 * - `{chunks}`: the raw NDJSON text written as these transport chunks, as is (they may split lines).
 * - `{hang: true}`: never answer (the client must time out); `{destroy: true}`: reset the socket.
 */
export type FixtureReply = { status?: number; body: unknown } | { chunks: string[]; status?: number } | { hang: true } | { destroy: true };

/** One request the server received. `aborted`: the client closed the connection before the reply ended. */
export interface RequestLog {
  method: string;
  path: string;
  body: unknown;
  aborted: boolean;
}

export interface FakeOllamaOptions {
  /** Delay before each /api/chat reply, in ms (real time; default 0). */
  latencyMs?: number;
  /** Reported by /api/version (default "0.12.0"). */
  version?: string;
  /** Listed by /api/tags (default: qwen3:8b). */
  models?: FakeModel[];
  /** Answers each /api/chat request; `index` counts chat requests from 0. Default: `{"action":"finish","answer":"ok"}`. */
  reply?: (request: FakeChatRequest, context: { index: number }) => FixtureReply | Promise<FixtureReply>;
  /** While this returns false, every request's connection is reset at once (a host that is down, then back). */
  available?: () => boolean;
  /**
   * What the server does with a prompt longer than the num_ctx in effect (the request's `options.num_ctx`, else 4096),
   * its tokens counted as one per 4 characters of the messages: `truncate` answers as usual with `prompt_eval_count`
   * = num_ctx (Ollama's llama runner keeps num_ctx tokens and says nothing: "truncating input prompt" limit=2048
   * prompt=3940 keep=5 new=2048, ollama/ollama#3839); `error` answers HTTP 400 "the input length exceeds the context
   * length" (the runner's errorInputTooLong). Absent: prompts are never measured.
   */
  overflow?: 'truncate' | 'error';
  /**
   * Keep each request's parsed body in `calls` (default true). Benchmarks say false: thousands of kept bodies (about
   * 11 KB of JSON each) made the server's garbage collection a share of the CPU it takes from the harness.
   */
  keepBodies?: boolean;
}

export interface FakeOllama {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Every request in arrival order (all endpoints); bodies are undefined with `keepBodies: false`. */
  calls: RequestLog[];
  /** The /api/chat requests only. */
  chatCalls(): RequestLog[];
  /** Closes every connection (hanging ones too) and the server. */
  close(): Promise<void>;
}

export const DEFAULT_FAKE_MODELS: FakeModel[] = [{ name: 'qwen3:8b', digest: 'sha256:' + '8'.repeat(64) }];

/** A 200 chat reply with `content` and typical fields (1 s model time, 10 ms load, 100/20 tokens); `fields` override. */
export function okReply(content: string, fields: Record<string, unknown> = {}): FixtureReply {
  return {
    status: 200,
    body: {
      model: 'qwen3:8b',
      created_at: '2026-05-01T12:00:00.000Z',
      message: { role: 'assistant', content },
      done: true,
      done_reason: 'stop',
      total_duration: 1_010_000_000,
      load_duration: 10_000_000,
      prompt_eval_count: 100,
      prompt_eval_duration: 200_000_000,
      eval_count: 20,
      eval_duration: 800_000_000,
      ...fields,
    },
  };
}

/**
 * The reply for an entry of fixtures/ollama-replies.json: `__ndjson_chunks` become raw chunks; a
 * `__transport_error` (no HTTP status ever reached the client) becomes a hang the client must time out on.
 */
export function fixtureReply(fixture: { status: number | null; body: unknown }): FixtureReply {
  const body = fixture.body as Record<string, unknown> | null;
  if (body !== null && typeof body === 'object' && Array.isArray(body.__ndjson_chunks)) {
    return { status: fixture.status ?? 200, chunks: body.__ndjson_chunks.map(String) };
  }
  if (fixture.status === null || (body !== null && typeof body === 'object' && '__transport_error' in body)) return { hang: true };
  return { status: fixture.status, body: fixture.body };
}

/** The fake's token count of a chat request's prompt: one token per 4 characters of the messages, rounded up. */
export function fakePromptTokens(body: FakeChatRequest): number {
  return Math.ceil((body.messages ?? []).reduce((sum, message) => sum + message.content.length, 0) / 4);
}

const withDefaultTag = (name: string): string => (name.slice(name.lastIndexOf('/') + 1).includes(':') ? name : `${name}:latest`);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** A 200 chat body as streamed NDJSON lines: content in two parts, then the final `done` line with the counters. */
function ndjsonParts(body: Record<string, unknown>): string[] {
  const message = (body.message ?? {}) as Record<string, unknown>;
  const content = typeof message.content === 'string' ? message.content : '';
  const middle = Math.ceil(content.length / 2);
  const base = { model: body.model, created_at: body.created_at };
  const { content: _content, ...extras } = message;
  const parts = [
    { ...base, message: { ...extras, role: 'assistant', content: content.slice(0, middle) }, done: false },
    { ...base, message: { role: 'assistant', content: content.slice(middle) }, done: false },
    { ...body, message: { role: 'assistant', content: '' }, done: true },
  ];
  return parts.map((part) => `${JSON.stringify(part)}\n`);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { __invalid_json: text };
  }
}

/** Starts the fake server on 127.0.0.1 at an ephemeral port. Loopback only. */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = options.models ?? DEFAULT_FAKE_MODELS;
  const calls: RequestLog[] = [];
  let chatIndex = 0;

  const chat = async (body: FakeChatRequest, response: ServerResponse, request: IncomingMessage, arrived: number): Promise<void> => {
    const index = chatIndex++;
    const numCtx = typeof body.options?.['num_ctx'] === 'number' ? body.options['num_ctx'] : 4096;
    const over = options.overflow !== undefined && fakePromptTokens(body) > numCtx;
    if (over && options.overflow === 'error') return sendJson(response, 400, { error: 'the input length exceeds the context length' });
    let reply: FixtureReply;
    try {
      reply = options.reply ? await options.reply(body, { index }) : okReply('{"action":"finish","answer":"ok"}');
    } catch (error) {
      sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (over && 'body' in reply && reply.body !== null && typeof reply.body === 'object') {
      reply = { ...reply, body: { ...(reply.body as Record<string, unknown>), prompt_eval_count: numCtx } };
    }
    // The latency is the model's time to answer, counted from the request's arrival: the time spent reading the
    // body and computing the reply is part of it, not added on top.
    if (options.latencyMs) await pause(Math.max(0, arrived + options.latencyMs - performance.now()));
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      request.socket.destroy();
      return;
    }
    if ('chunks' in reply) {
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/x-ndjson' });
      for (const chunk of reply.chunks) {
        response.write(chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
      return;
    }
    const status = reply.status ?? 200;
    const replyBody = reply.body as Record<string, unknown> | null;
    const isChat = status === 200 && replyBody !== null && typeof replyBody === 'object' && 'message' in replyBody;
    if (body.stream === true && isChat) {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const line of ndjsonParts(replyBody)) response.write(line);
      response.end();
      return;
    }
    sendJson(response, status, reply.body);
  };

  const server = createServer((request, response) => {
    const arrived = performance.now();
    if (options.available?.() === false) {
      request.socket.destroy();
      return;
    }
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const body = await readBody(request);
      const log: RequestLog = { method: request.method ?? 'GET', path, body: options.keepBodies === false ? undefined : body, aborted: false };
      calls.push(log);
      response.on('close', () => {
        if (!response.writableFinished) log.aborted = true;
      });
      response.socket?.setNoDelay(true);
      const route = `${log.method} ${path}`;
      if (route === 'GET /api/version') return sendJson(response, 200, { version: options.version ?? '0.12.0' });
      if (route === 'GET /api/tags') {
        return sendJson(response, 200, {
          models: models.map((model) => ({
            name: model.name,
            model: model.name,
            modified_at: '2026-05-01T12:00:00Z',
            size: 5_200_000_000,
            digest: model.digest,
            details: { format: 'gguf', family: model.name.split(':')[0], parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
          })),
        });
      }
      if (route === 'POST /api/show') {
        const wanted = String((body as { model?: unknown; name?: unknown } | undefined)?.model ?? (body as { name?: unknown } | undefined)?.name ?? '');
        const model = models.find((item) => withDefaultTag(item.name) === withDefaultTag(wanted));
        if (model === undefined) return sendJson(response, 404, { error: `model '${wanted}' not found` });
        return sendJson(response, 200, {
          modelfile: '',
          parameters: '',
          template: '',
          details: { format: 'gguf', family: model.name.split(':')[0], parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
          model_info: { [`${model.name.split(':')[0]}.context_length`]: model.contextLength ?? 40960 },
          capabilities: model.capabilities ?? ['completion', 'tools', 'thinking'],
          modified_at: '2026-05-01T12:00:00Z',
        });
      }
      if (route === 'POST /api/chat') {
        if (body === undefined || typeof body !== 'object' || body === null || '__invalid_json' in body) {
          return sendJson(response, 400, { error: 'invalid request body' });
        }
        return chat(body as FakeChatRequest, response, request, arrived);
      }
      return sendJson(response, 404, { error: `no route ${route}` });
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    chatCalls: () => calls.filter((call) => call.path === '/api/chat'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
