// One episode's bridge on 127.0.0.1: the MCP server at /mcp, the model proxy at /v1 (OpenAI) and /api (Ollama).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveMcp } from './mcp.js';
import { proxyChat, requestProblem, type AssistantMessage, type ProxyResult } from './proxy.js';
import type { AgentSession } from './session.js';

/** The model name the proxy lists and answers as (a request may name any model: the run's model for the agent serves it). */
export const PROXY_MODEL = 'stratbench-agent';

/** Requests larger than this are refused (413): a runaway agent cannot fill the harness's memory. 8 MiB. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A running bridge: its port and URLs, and close(). */
export interface Bridge {
  port: number;
  mcpUrl: string;
  openaiBaseUrl: string;
  ollamaHost: string;
  close(): Promise<void>;
}

/**
 * Starts the bridge of one episode on 127.0.0.1 (an ephemeral port). Rejects when the port cannot be bound. Every URL
 * it serves starts with a secret of the episode (`/<uuid>/mcp`, `/<uuid>/v1`): another process that finds the port
 * (another episode's agent, a web page rebinding DNS) cannot end or spend this episode; and the Host header must name
 * the loopback address. Anything else is answered 403.
 */
export async function startBridge(session: AgentSession, task: string, signal: AbortSignal | undefined): Promise<Bridge> {
  let port = 0;
  const secret = randomUUID();
  const server: Server = createServer((req, res) => {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    const prefix = `/${secret}`;
    if (!hosts.includes(req.headers.host ?? '') || !(req.url === prefix || req.url?.startsWith(`${prefix}/`) || req.url?.startsWith(`${prefix}?`))) {
      json(res, 403, { error: { message: "not this episode's bridge URL" } });
      return;
    }
    req.url = req.url.slice(prefix.length) || '/';
    handle(session, task, port, req, res, signal).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: `bridge error: ${error instanceof Error ? error.message : String(error)}` } });
      else res.destroy();
    });
  });
  // Agents' keep-alive connections must not hold the episode open.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}/${secret}`;
  return {
    port,
    mcpUrl: `${base}/mcp`,
    openaiBaseUrl: `${base}/v1`,
    ollamaHost: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  session: AgentSession,
  task: string,
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal | undefined,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/mcp') {
    if (req.method !== 'POST')
      return json(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: the server is stateless (POST only)' }, id: null });
    const body = await readJson(req, res);
    if (body === undefined) return;
    return serveMcp(session, task, port, req, res, body);
  }
  if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
    return json(res, 200, { object: 'list', data: [{ id: PROXY_MODEL, object: 'model', created: 0, owned_by: 'stratbench' }] });
  }
  if (req.method === 'GET' && path === '/api/tags') {
    return json(res, 200, { models: [{ name: PROXY_MODEL, model: PROXY_MODEL, modified_at: new Date(0).toISOString(), size: 0, digest: '', details: {} }] });
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && (path === '/api/version' || path === '/')) {
    return path === '/' ? text(res, 200, 'Ollama is running') : json(res, 200, { version: '0.12.0' });
  }
  if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
    const body = await readJson(req, res);
    if (body === undefined) return;
    const problem = requestProblem(body);
    if (problem !== undefined) return json(res, 400, openaiError(problem, 'invalid_request_error'));
    const request = body as Record<string, unknown>;
    const result = await proxyChat(session, request, signal);
    return request['stream'] === true ? openaiStream(res, result, request) : openaiReply(res, result, request);
  }
  if (req.method === 'POST' && path === '/api/chat') {
    const body = await readJson(req, res);
    if (body === undefined) return;
    const problem = requestProblem(body);
    if (problem !== undefined) return json(res, 400, { error: problem });
    const request = body as Record<string, unknown>;
    const result = await proxyChat(session, fromOllama(request), signal);
    return ollamaReply(res, result, request);
  }
  json(res, 404, {
    error: { message: `no route ${req.method} ${path}: the bridge serves POST /mcp, POST /v1/chat/completions, GET /v1/models, POST /api/chat` },
  });
}

/** The request body as JSON, or undefined after answering 400 (not JSON) or 413 (over MAX_BODY_BYTES). */
async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      json(res, 413, { error: { message: `request body over ${MAX_BODY_BYTES} bytes` } });
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    json(res, 400, { error: { message: `the request body is not JSON: ${error instanceof Error ? error.message : String(error)}` } });
    return undefined;
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function text(res: ServerResponse, status: number, value: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(value);
}

const openaiError = (message: string, type: string) => ({ error: { message, type, param: null, code: null } });

let completions = 0;
const completionId = (): string => `chatcmpl-stratbench-${(completions += 1)}`;

function openaiReply(res: ServerResponse, result: ProxyResult, request: Record<string, unknown>): void {
  if (!result.ok) {
    json(res, result.status, openaiError(result.message, result.status === 429 ? 'budget_exhausted' : 'stratbench_error'));
    return;
  }
  json(res, 200, {
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof request['model'] === 'string' ? request['model'] : PROXY_MODEL,
    choices: [{ index: 0, message: result.message, finish_reason: result.finish_reason, logprobs: null }],
    usage: { prompt_tokens: result.tokens_in, completion_tokens: result.tokens_out, total_tokens: result.tokens_in + result.tokens_out },
  });
}

/** The reply as OpenAI's server-sent events: one chunk with the whole message, one with the finish reason and usage, [DONE]. */
function openaiStream(res: ServerResponse, result: ProxyResult, request: Record<string, unknown>): void {
  if (!result.ok) {
    openaiReply(res, result, request);
    return;
  }
  const id = completionId();
  const head = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: typeof request['model'] === 'string' ? request['model'] : PROXY_MODEL,
  };
  const delta: Record<string, unknown> = { role: 'assistant', content: result.message.content ?? '' };
  if (result.message.tool_calls) delta['tool_calls'] = result.message.tool_calls.map((call, index) => ({ index, ...call }));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
  res.write(
    `data: ${JSON.stringify({
      ...head,
      choices: [{ index: 0, delta: {}, finish_reason: result.finish_reason }],
      usage: { prompt_tokens: result.tokens_in, completion_tokens: result.tokens_out, total_tokens: result.tokens_in + result.tokens_out },
    })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

/**
 * An Ollama /api/chat request in OpenAI's shape: messages (an assistant's tool calls get ids, each tool reply the id of
 * the call it answers, in order), tools as they are, and options.temperature/seed/num_predict as the sampling fields.
 */
export function fromOllama(request: Record<string, unknown>): Record<string, unknown> {
  const pending: string[] = [];
  let next = 0;
  const messages = (request['messages'] as Array<Record<string, unknown>>).map((message) => {
    const calls = message['tool_calls'];
    if (message['role'] === 'assistant' && Array.isArray(calls) && calls.length > 0) {
      return {
        role: 'assistant',
        content: typeof message['content'] === 'string' ? message['content'] : '',
        tool_calls: calls.map((call: { function?: { name?: unknown; arguments?: unknown } }) => {
          const id = `call_${(next += 1)}`;
          pending.push(id);
          return { id, type: 'function', function: { name: String(call.function?.name ?? ''), arguments: JSON.stringify(call.function?.arguments ?? {}) } };
        }),
      };
    }
    if (message['role'] === 'tool') return { role: 'tool', content: String(message['content'] ?? ''), tool_call_id: pending.shift() ?? `call_${(next += 1)}` };
    return { role: message['role'], content: message['content'] ?? '' };
  });
  const options = (request['options'] ?? {}) as Record<string, unknown>;
  return {
    model: request['model'],
    messages,
    ...(Array.isArray(request['tools']) ? { tools: request['tools'] } : {}),
    ...(options['temperature'] !== undefined ? { temperature: options['temperature'] } : {}),
    ...(options['seed'] !== undefined ? { seed: options['seed'] } : {}),
    ...(options['num_predict'] !== undefined ? { max_tokens: options['num_predict'] } : {}),
  };
}

/** The reply as Ollama's /api/chat answers: one object (or one NDJSON line when streaming, Ollama's default), done. */
function ollamaReply(res: ServerResponse, result: ProxyResult, request: Record<string, unknown>): void {
  if (!result.ok) {
    json(res, result.status, { error: result.message });
    return;
  }
  const message: AssistantMessage = result.message;
  const body = {
    model: typeof request['model'] === 'string' ? request['model'] : PROXY_MODEL,
    created_at: new Date().toISOString(),
    message: {
      role: 'assistant',
      content: message.content ?? '',
      ...(message.tool_calls
        ? { tool_calls: message.tool_calls.map((call) => ({ function: { name: call.function.name, arguments: parseArguments(call.function.arguments) } })) }
        : {}),
    },
    done: true,
    done_reason: result.finish_reason === 'length' ? 'length' : 'stop',
    prompt_eval_count: result.tokens_in,
    eval_count: result.tokens_out,
  };
  if (request['stream'] === false) {
    json(res, 200, body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.end(`${JSON.stringify(body)}\n`);
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}
