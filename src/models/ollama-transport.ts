// One /api/chat exchange through the ollama npm client: per-call timeout fetch, streamed or not, folded into one reply.
import type { ChatRequest as OllamaChatRequest, ChatResponse as OllamaChatResponse, Ollama } from 'ollama';

/**
 * The ollama client class, imported on first use: with its fetch polyfill it adds about 6 MB to a process that
 * only runs the scripted model (measured with `process.memoryUsage().rss` before and after the import).
 */
export function ollamaClient(): Promise<typeof Ollama> {
  // Once per process: a dynamic import per call costs a module-loader round trip (0.6 ms a call under tsx's loader).
  loaded ??= import('ollama').then((module) => module.Ollama);
  return loaded;
}
let loaded: Promise<typeof Ollama> | undefined;
import type { RawToolCall } from './tool-calling.js';
import type { Dispatcher } from 'undici';
import { modelDispatcher, postChat, type ChatEndpoint } from './ollama-undici.js';
import { modelFetch } from './model-fetch.js';

/** A chat reply with streamed parts joined; timings in nanoseconds as Ollama sends them. */
export interface OllamaReply {
  model?: string;
  content: string;
  thinking: string;
  tool_calls: RawToolCall[];
  done_reason?: string;
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  eval_count?: number;
  /** Wall-clock time of the exchange in ms (used when the server sends no durations). */
  wall_ms: number;
}

/**
 * A fetch that aborts after `timeoutMs` (combined with the client's own signal on streamed calls).
 * `Ollama.abort()` only reaches streamed requests, so this is the only per-call timeout for a
 * non-streamed one (LIBRARIES.md). Aborting closes the socket, so the server stops generating.
 * Without `timeoutMs` the base fetch is returned unchanged.
 */
export function timeoutFetch(base: typeof fetch, timeoutMs: number | undefined): typeof fetch {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return base;
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return base(input, { ...init, signal });
  };
}

export interface SendOptions {
  host: string;
  /**
   * The fetch the ollama client sends with. Without one, a call that is not streamed goes straight to undici's
   * connection pool (`postChat`, decision 0019) and a streamed one through the ollama client over `modelFetch` (the
   * same pool, the reply capped at MAX_REPLY_BYTES).
   */
  fetch?: typeof fetch;
  /** The undici pool of calls sent without `fetch`; default `modelDispatcher()` (timeouts of 300 000 ms). */
  dispatcher?: Dispatcher;
  /** Overall deadline of the call (headers and body), ms; none when undefined. */
  timeoutMs: number | undefined;
  stream: boolean;
  /** Aborts the call (the run was interrupted); honoured by the undici path (the ollama client paths time out instead). */
  signal?: AbortSignal;
  /** Wall clock in ms (default performance.now). */
  now?: () => number;
}

/**
 * Sends `request` to POST /api/chat and returns the whole reply. Streamed replies are NDJSON; the client
 * buffers partial lines across reads (fixture ndjson-chunk-split). Errors are the client's and fetch's,
 * unchanged (see retry.ts for their classification).
 */
export async function sendChat(request: OllamaChatRequest, options: SendOptions): Promise<OllamaReply> {
  const now = options.now ?? (() => performance.now());
  // The clock starts once the modules are loaded (the first call imports undici or the ollama client): a reply's
  // wall time stands for the model's time when the server sends no durations.
  if (!options.stream && options.fetch === undefined) {
    const endpoint = await chatEndpoint(options.host);
    const dispatcher = options.dispatcher ?? (await modelDispatcher());
    const started = now();
    const body = JSON.stringify({ ...request, stream: false });
    const response = (await postChat(endpoint, body, options.timeoutMs, dispatcher, options.signal)) as OllamaChatResponse;
    return fromParts([response], now() - started);
  }
  const client = await clientFor(options);
  const started = now();
  if (!options.stream) {
    const response = await client.chat({ ...request, stream: false });
    return fromParts([response], now() - started);
  }
  const parts: OllamaChatResponse[] = [];
  for await (const part of await client.chat({ ...request, stream: true })) parts.push(part);
  return fromParts(parts, now() - started);
}

/** Clients by fetch, then host and timeout: one client serves every call to a host (its constructor costs per call). */
const clients = new WeakMap<typeof fetch, Map<string, Ollama>>();

async function clientFor(options: SendOptions): Promise<Ollama> {
  const fetch = options.fetch ?? modelFetch;
  let byHost = clients.get(fetch);
  if (byHost === undefined) clients.set(fetch, (byHost = new Map()));
  const key = `${options.timeoutMs ?? ''}|${options.host}`;
  let client = byHost.get(key);
  if (client === undefined) {
    const OllamaClient = await ollamaClient();
    client = byHost.get(key) ?? new OllamaClient({ host: options.host, fetch: timeoutFetch(fetch, options.timeoutMs) });
    byHost.set(key, client);
  }
  return client;
}

/**
 * A host's /api/chat, formatted by the ollama client itself (scheme, default port 11434, no trailing slash; a path
 * prefix kept). Credentials in the URL (`http://user:pass@gateway`) become a Basic authorization header, as
 * node:http sends them.
 */
async function chatEndpoint(host: string): Promise<ChatEndpoint> {
  let endpoint = endpoints.get(host);
  if (endpoint === undefined) {
    const OllamaClient = await ollamaClient();
    // The client keeps the formatted host in its config (ollama-js 0.6.4 `formatHost`); it is not exported.
    const url = new URL(`${(new OllamaClient({ host }) as unknown as { config: { host: string } }).config.host}/api/chat`);
    const user = url.username === '' ? undefined : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    endpoint = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      ...(user !== undefined ? { authorization: `Basic ${Buffer.from(user).toString('base64')}` } : {}),
    };
    if (endpoints.size >= 256) endpoints.clear();
    endpoints.set(host, endpoint);
  }
  return endpoint;
}
const endpoints = new Map<string, ChatEndpoint>();

function fromParts(parts: readonly OllamaChatResponse[], wallMs: number): OllamaReply {
  const reply: OllamaReply = { content: '', thinking: '', tool_calls: [], wall_ms: wallMs };
  for (const part of parts) {
    const message = part.message as Partial<OllamaChatResponse['message']> | undefined;
    reply.content += typeof message?.content === 'string' ? message.content : '';
    reply.thinking += typeof message?.thinking === 'string' ? message.thinking : '';
    if (Array.isArray(message?.tool_calls)) reply.tool_calls.push(...(message.tool_calls as RawToolCall[]));
    if (typeof part.model === 'string') reply.model = part.model;
    if (part.done || parts.length === 1) {
      if (typeof part.done_reason === 'string') reply.done_reason = part.done_reason;
      if (typeof part.total_duration === 'number') reply.total_duration = part.total_duration;
      if (typeof part.load_duration === 'number') reply.load_duration = part.load_duration;
      if (typeof part.prompt_eval_count === 'number') reply.prompt_eval_count = part.prompt_eval_count;
      if (typeof part.eval_count === 'number') reply.eval_count = part.eval_count;
    }
  }
  return reply;
}
