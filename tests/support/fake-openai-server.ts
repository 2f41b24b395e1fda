// A fake OpenAI-compatible server (vLLM / llama.cpp server shape) on 127.0.0.1 for tests and scripts; no vitest imports.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedModel } from '../../src/models/scripted.js';
import { extractView } from '../../src/strategies/prompts.js';

/** The body of POST /v1/chat/completions as the client sent it. */
export interface FakeCompletionRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>;
  temperature?: number;
  seed?: number;
  max_tokens?: number;
  chat_template_kwargs?: { enable_thinking?: boolean };
  [field: string]: unknown;
}

/** `{status?, body}` as JSON; `{hang: true}` never answers; `{destroy: true}` resets the socket. */
export type OpenAIReply = { status?: number; body: unknown } | { hang: true } | { destroy: true };

export interface FakeOpenAIOptions {
  /** Listed by GET /v1/models (default: Qwen/Qwen3-8B). */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Delay of each /v1/chat/completions reply, ms, counted from the request's arrival (reading it and computing the reply are part of it). */
  latencyMs?: number;
  /** Keep each request's body in `calls` (default true; false for long benchmarks, whose server would grow with the run). */
  keepBodies?: boolean;
  /** `root` listed for a model id in /v1/models (default: the id itself, as vLLM does for a local checkpoint). */
  roots?: Record<string, string>;
  /**
   * Which server's /v1/models to answer (default `vllm`: `owned_by` "vllm", `root`, `max_model_len`). `llama.cpp`: the
   * shape of `llama-server -m FILE.gguf --alias ID` (tools/server `handle_models`): `owned_by` "llamacpp", no `root` nor
   * `max_model_len`, a `meta` object (`llamaCppMeta`, overridden key by key by `meta`), and Ollama's `models` list beside `data`.
   */
  flavour?: 'vllm' | 'llama.cpp';
  meta?: Record<string, number | string>;
  reply?: (request: FakeCompletionRequest, context: { index: number }) => OpenAIReply | Promise<OpenAIReply>;
  /**
   * The context window in tokens (listed as `max_model_len`, default 32768). With `overflow`, a request whose prompt
   * (one token per 4 characters of the messages) plus `max_tokens` is past it gets the HTTP 400 that server sends:
   * `vllm` its "This model's maximum context length is …" error, `llama.cpp` its `exceed_context_size_error`
   * (`vllmContextError`, `llamaCppContextError`).
   */
  maxModelLen?: number;
  overflow?: 'vllm' | 'llama.cpp';
  /**
   * false: a vLLM started without `--enable-auto-tool-choice`: a request with `tools` (tool_choice absent or "auto")
   * gets HTTP 400 `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`
   * (`AUTO_TOOL_CHOICE_ERROR`). Default true.
   */
  autoToolChoice?: boolean;
}

/** llama.cpp server's `meta` for a Qwen3-8B Q4_K_M GGUF (tools/server `handle_models`; sizes in bytes). */
export const LLAMA_CPP_META = { vocab_type: 2, n_vocab: 151_936, n_ctx_train: 40_960, n_embd: 4096, n_params: 8_190_735_360, size: 5_027_783_488, ftype: 15 };

/**
 * vLLM's refusal of tool calls when it was started without a tool parser (vllm/entrypoints/openai/serving_chat.py
 * `create_chat_completion`, vllm-project/vllm@003fe593; vLLM makes tool_choice "auto" when a request has tools and no
 * tool_choice).
 */
export const AUTO_TOOL_CHOICE_ERROR = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';

/**
 * vLLM's 400 for a prompt past max_model_len, as vllm/entrypoints/openai/serving_engine.py words it
 * (`_validate_prompt_and_tokenize`, vllm-project/vllm@0030b9ff), in the `{"error": {...}}` body of current releases.
 */
export function vllmContextError(maxModelLen: number, promptTokens: number, maxTokens: number): OpenAIReply {
  return apiError(
    400,
    `This model's maximum context length is ${maxModelLen} tokens. However, you requested ${promptTokens + maxTokens} tokens ` +
      `(${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
  );
}

/**
 * llama.cpp server's 400 for a prompt past n_ctx (ggml-org/llama.cpp tools/server: server-context.cpp sends
 * ERROR_TYPE_EXCEED_CONTEXT_SIZE, server-common.cpp `format_error_response` names it, server-task.cpp adds the counts).
 */
export function llamaCppContextError(nCtx: number, promptTokens: number): OpenAIReply {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: `request (${promptTokens} tokens) exceeds the available context size (${nCtx} tokens), try increasing it`,
        type: 'exceed_context_size_error',
        n_prompt_tokens: promptTokens,
        n_ctx: nCtx,
      },
    },
  };
}

export interface FakeOpenAI {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:40123/v1 */
  url: string;
  calls: Array<{ method: string; path: string; body: unknown; authorization?: string }>;
  completionCalls(): Array<{ body: FakeCompletionRequest }>;
  close(): Promise<void>;
}

/** A 200 chat completion with `content` (or a message override) and usage 100/20 tokens; `choice` fields override. */
export function completion(content: string | null, choice: Record<string, unknown> = {}, model = 'Qwen/Qwen3-8B'): OpenAIReply {
  const { message, ...rest } = choice as { message?: Record<string, unknown> };
  return {
    status: 200,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_780_000_000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, ...message }, finish_reason: 'stop', logprobs: null, ...rest }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

/** An OpenAI-style error body (`{error: {message, type, code}}`) with `status`. */
export function apiError(status: number, message: string, type = 'BadRequestError'): OpenAIReply {
  return { status, body: { error: { message, type, param: null, code: status } } };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Starts the fake server on 127.0.0.1 at an ephemeral port. Loopback only. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const models = options.models ?? ['Qwen/Qwen3-8B'];
  const calls: FakeOpenAI['calls'] = [];
  let index = 0;
  const server = createServer((request, response) => {
    const arrived = performance.now();
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const authorization = request.headers.authorization;
      calls.push({ method: request.method ?? 'GET', path, body: options.keepBodies === false ? undefined : body, ...(authorization ? { authorization } : {}) });
      if (options.apiKey !== undefined && authorization !== `Bearer ${options.apiKey}`) {
        return sendJson(response, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      }
      if (request.method === 'GET' && path === '/v1/models' && options.flavour === 'llama.cpp') {
        const meta = { ...LLAMA_CPP_META, n_ctx: options.maxModelLen ?? 32768, ...options.meta };
        return sendJson(response, 200, {
          models: models.map((id) => ({ name: id, model: id, modified_at: '', size: '', digest: '', type: 'model', description: '', tags: [''] })),
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 1_780_000_000, owned_by: 'llamacpp', meta })),
        });
      }
      if (request.method === 'GET' && path === '/v1/models') {
        return sendJson(response, 200, {
          object: 'list',
          data: models.map((id) => ({
            id,
            object: 'model',
            created: 1_780_000_000,
            owned_by: 'vllm',
            root: options.roots?.[id] ?? id,
            max_model_len: options.maxModelLen ?? 32768,
          })),
        });
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        const completionRequest = body as FakeCompletionRequest;
        if (!models.includes(completionRequest.model)) {
          return sendJson(response, 404, { error: { message: `The model \`${completionRequest.model}\` does not exist.`, type: 'NotFoundError', code: 404 } });
        }
        if (options.autoToolChoice === false && Array.isArray(completionRequest.tools) && (completionRequest['tool_choice'] ?? 'auto') === 'auto') {
          return sendJson(response, 400, { error: { message: AUTO_TOOL_CHOICE_ERROR, type: 'BadRequestError', param: null, code: 400 } });
        }
        const promptTokens = Math.ceil(completionRequest.messages.reduce((sum, message) => sum + String(message.content ?? '').length, 0) / 4);
        const window = options.maxModelLen ?? 32768;
        if (options.overflow !== undefined && promptTokens + (completionRequest.max_tokens ?? 0) > window) {
          const refusal =
            options.overflow === 'vllm'
              ? vllmContextError(window, promptTokens, completionRequest.max_tokens ?? 0)
              : llamaCppContextError(window, promptTokens);
          return sendJson(response, (refusal as { status: number }).status, (refusal as { body: unknown }).body);
        }
        const reply = options.reply ? await options.reply(completionRequest, { index: index++ }) : completion('{"action":"finish","answer":"ok"}');
        if (options.latencyMs) await pause(Math.max(0, arrived + options.latencyMs - performance.now()));
        if ('hang' in reply) return;
        if ('destroy' in reply) return request.socket.destroy();
        return sendJson(response, reply.status ?? 200, reply.body);
      }
      return sendJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'NotFoundError' } });
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    completionCalls: () => calls.filter((call) => call.path === '/v1/chat/completions') as Array<{ body: FakeCompletionRequest }>,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A reply handler that answers as `model` would in process: the view is read back out of the messages
 * (`extractView`) and `model.decide(view)` is sent as JSON content; when the request offers `tools` without a
 * `response_format` (native tool calling) a tool-call value goes into `tool_calls` with JSON-string arguments,
 * as OpenAI-compatible servers send them. Usage is zero tokens, like the in-process scripted model.
 */
export function scriptedOpenAIReply(model: ScriptedModel): (request: FakeCompletionRequest) => OpenAIReply {
  return (request) => {
    const view = extractView(request.messages as Parameters<typeof extractView>[0]);
    // A request without a state block that offers tools is the tool-call preflight probe: answered as a model would.
    if (view === undefined) return Array.isArray(request.tools) ? completion('OK') : apiError(400, 'no ```json state block in the messages');
    const value = model.decide(view) as Record<string, unknown> | string;
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const isCall = typeof value === 'object' && value !== null && typeof value.tool === 'string' && (!('action' in value) || value.action === 'tool');
    if (Array.isArray(request.tools) && request.response_format === undefined && isCall) {
      const reply = completion(null, {
        finish_reason: 'tool_calls',
        message: { tool_calls: [{ id: 'call_0', type: 'function', function: { name: value.tool, arguments: JSON.stringify(value.args ?? {}) } }] },
      }) as { body: Record<string, unknown> };
      reply.body.usage = zero;
      return reply as OpenAIReply;
    }
    const reply = completion(typeof value === 'string' ? value : JSON.stringify(value)) as { body: Record<string, unknown> };
    reply.body.usage = zero;
    return reply as OpenAIReply;
  };
}
