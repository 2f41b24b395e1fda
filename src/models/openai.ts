// The `openai:<model>` backend: a ChatRequest as an OpenAI-compatible /v1/chat/completions call (vLLM, llama.cpp
// server, LM Studio, LiteLLM): the official `openai` client's request, reply and errors, posted straight to undici's
// pool (decision 0021), with the Ollama backend's fault handling.
import type OpenAI from 'openai';
import type { ChatMessage, ChatModel, ChatOptions, ChatRequest, ChatResponse, OutputFault, SentMessages } from './types.js';
import { modelJsonSchema, type JsonSchema } from './model-json-schema.js';
import {
  classifyOllamaError,
  errorMessage,
  replyTooLarge,
  retryAfterMs,
  withRetry,
  type ErrorClassification,
  type RetryOptions,
  type RetryPolicy,
} from './retry.js';
import { schemaLine } from './ollama.js';
import { ConfigurationError } from './preflight.js';
import { ACTION_SCHEMA_NAMES, looksLikeToolCallText, toolCallToReplyText, type ToolSpec } from './tool-calling.js';
import type { Dispatcher } from 'undici';
import { modelDispatcher } from './ollama-undici.js';
import { modelFetch } from './model-fetch.js';
import { postCompletion } from './openai-undici.js';
import { ContextExceededError, openAIContextOverflow } from './context-limit.js';

/** The `openai` package, loaded on first use (≈ 200 ms): a run without openai: models never pays for it. */
type Sdk = typeof import('openai');
let sdk: Sdk | undefined;
async function loadSdk(): Promise<Sdk> {
  sdk ??= await import('openai');
  return sdk;
}

/** Where `openai:` models are served unless `--openai-base-url` or OPENAI_BASE_URL says otherwise (vLLM's default port). */
export const DEFAULT_OPENAI_BASE_URL = 'http://127.0.0.1:8000/v1';

/** How a reply's shape is asked for. */
export type StructuredOutputMode = 'json_schema' | 'prompt' | 'auto';

export interface OpenAIModelConfig {
  /** The model id the server lists at /v1/models, e.g. "Qwen/Qwen3-8B". */
  model: string;
  /** Base URL ending in /v1; default `resolveOpenAIBaseUrl()`. */
  baseURL?: string;
  /** Sent as the bearer token; default OPENAI_API_KEY, else a placeholder (local servers ignore it). */
  apiKey?: string;
  /** Defaults for every call; a request's own options win. */
  options?: ChatOptions;
  /** Actions as JSON matching the action schema (default) or through the `tools` field. */
  toolCalling?: 'json' | 'native';
  /** Tools offered in native mode (JSON Schema parameters, flat). */
  tools?: ToolSpec[];
  /**
   * `json_schema`: `response_format: {type: "json_schema"}` (vLLM, llama.cpp server, LM Studio); `prompt`: the
   * schema in the system prompt only; `auto` (default): json_schema, and schema-in-prompt for good after the
   * server rejects `response_format` with a 400.
   */
  structuredOutput?: StructuredOutputMode;
  retry?: Partial<RetryPolicy>;
  /** Send through the openai client over this fetch (tests); without it a completion goes straight to undici's pool (decision 0021). */
  fetch?: typeof fetch;
  /** The undici pool of calls sent without `fetch` (tests: short header and body timeouts); default `modelDispatcher()`. */
  dispatcher?: Dispatcher;
  /**
   * Overall deadline of a call without `timeout_ms`, ms (headers and whole body, over undici's pool); default
   * DEFAULT_CALL_DEADLINE_MS (600 000, openai-node's default timeout).
   */
  deadlineMs?: number;
  /** Injected timing for tests: backoff sleep, jitter source, clock in ms. */
  clock?: Pick<RetryOptions, 'sleep' | 'random' | 'now'>;
  onRetry?: RetryOptions['onRetry'];
}

/** Greedy and no thinking unless asked: Ollama's `/v1` sets temperature 1.0 when it is omitted (LIBRARIES.md). */
export const OPENAI_DEFAULT_OPTIONS = { temperature: 0, think: false } as const satisfies ChatOptions;

/** `flag`, else OPENAI_BASE_URL, else DEFAULT_OPENAI_BASE_URL; a trailing slash is dropped. */
export function resolveOpenAIBaseUrl(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = (flag ?? env['OPENAI_BASE_URL'] ?? DEFAULT_OPENAI_BASE_URL).trim();
  return value.replace(/\/+$/, '');
}

/**
 * Classifies an error of the openai client (6.30: `APIError` subclasses with `status`; `APIConnectionError`,
 * `APIConnectionTimeoutError`, `APIUserAbortError` without one) as the Ollama backend's errors are classified:
 * 404 → model_missing; 429/503 → busy (with the reply's `retry-after-ms` / `Retry-After` as `retryAfterMs`); other 5xx → server_error (retried); connection failures → unreachable;
 * timeouts → timeout; other 4xx → fail. A 500 whose message says the server could not parse the model's tool
 * call (vLLM, llama.cpp) is the model's output, not the server's fault.
 */
export function classifyOpenAIError(error: unknown): ErrorClassification {
  if (error instanceof NotACompletionError) return { action: 'retry', kind: 'server_error', reason: error.message };
  // The client's errors can only exist once the package is loaded.
  const OpenAI = sdk?.default;
  if (OpenAI === undefined) return classifyOllamaError(error);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { action: 'retry', kind: 'timeout', reason: error.message };
  if (error instanceof OpenAI.APIUserAbortError) return { action: 'retry', kind: 'timeout', reason: error.message };
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = classifyOllamaError(error.cause);
    if (cause.action === 'retry' || replyTooLarge(error.cause)) return cause;
    return { action: 'retry', kind: 'unreachable', reason: `${error.message}${error.cause ? ` (${errorMessage(error.cause)})` : ''}` };
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    const message = errorMessage(error);
    if (status === 500 && /error parsing tool call|failed to parse tool call|tool call parsing/i.test(message)) {
      return { action: 'model_output', reason: message };
    }
    if (status === 404) return { action: 'fail', kind: 'model_missing', reason: `HTTP 404: ${message}` };
    if (status === 429 || status === 503) {
      const after = error.headers ? retryAfterMs((name) => error.headers?.get(name)) : undefined;
      return { action: 'retry', kind: 'busy', reason: `HTTP ${status}: ${message}`, ...(after !== undefined ? { retryAfterMs: after } : {}) };
    }
    if (status >= 500) return { action: 'retry', kind: 'server_error', reason: `HTTP ${status}: ${message}` };
    return { action: 'fail', kind: 'other', reason: `HTTP ${status}: ${message}` };
  }
  return classifyOllamaError(error);
}

/**
 * A 2xx reply that is not a chat completion (no `choices` list): text, an empty body, other JSON. The server's fault
 * (a proxy's page, a half-started server), retried as a server error; before, the backend read `choices[0]` of it and
 * threw a TypeError that no retry or host failover saw.
 */
export class NotACompletionError extends Error {
  override readonly name = 'NotACompletionError';
}

/** `value` as a completion, or NotACompletionError naming what came instead. */
function asCompletion(value: unknown): OpenAI.Chat.Completions.ChatCompletion {
  if (value !== null && typeof value === 'object' && Array.isArray((value as { choices?: unknown }).choices))
    return value as OpenAI.Chat.Completions.ChatCompletion;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : value === undefined ? 'an empty body' : JSON.stringify(value)?.slice(0, 200);
  throw new NotACompletionError(`the server answered 2xx with ${shown}, not a chat completion (no "choices")`);
}

/** A 400 that says the server does not take `response_format` (json_schema) as asked. */
function rejectsResponseFormat(error: unknown): boolean {
  return sdk !== undefined && error instanceof sdk.default.BadRequestError && /response_format|json_schema|guided|grammar/i.test(errorMessage(error));
}

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;

/**
 * Creates the `openai:<model>` backend. Each `chat` sends one /v1/chat/completions request (more on retries):
 * `response_format` json_schema (strict) with the reply schema, or in native mode for the action schemas the
 * `tools` field; temperature, seed, `max_tokens` = num_predict, and `chat_template_kwargs.enable_thinking` =
 * think (Qwen3-style templates on vLLM and llama.cpp; servers that do not know it ignore it). The schema line is
 * always appended to the system prompt, as for Ollama. Returns the raw reply text (never parsed here), tokens
 * from `usage`, `duration_ms` = the request's wall time (these servers report no model time), and the server's
 * separate reasoning (`reasoning_content` or `reasoning`) for the trace. `finish_reason: "length"` is retried
 * once with twice the max_tokens (or thinking off) and otherwise reported as `output_budget_exhausted`.
 * Throws `InfrastructureError` (unreachable | server_error | busy | timeout after bounded retries; model_missing
 * | other at once); `ContextExceededError` at once when the server says the prompt does not fit the context window
 * (vLLM, llama.cpp server: `openAIContextOverflow`); a plain Error when native mode has no tools.
 */
export function createOpenAIModel(config: OpenAIModelConfig): ChatModel & { readonly host: string } {
  const baseURL = config.baseURL ?? resolveOpenAIBaseUrl();
  const tools = config.tools ?? [];
  const toolCalling = config.toolCalling ?? 'json';
  if (toolCalling === 'native' && tools.length === 0) throw new Error('toolCalling "native" needs the tool definitions (config.tools)');
  const defaults: ChatOptions = { ...OPENAI_DEFAULT_OPTIONS, ...definedOnly(config.options ?? {}) };
  let structured: StructuredOutputMode = config.structuredOutput ?? 'auto';
  let client: Promise<OpenAI> | undefined;
  // Without an injected fetch, a completion is posted straight to undici's pool (postCompletion, decision 0021); the
  // client (over `config.fetch`) serves tests that inject one.
  const getClient = (): Promise<OpenAI> =>
    (client ??= loadSdk().then(
      (loaded) =>
        new loaded.default({
          baseURL,
          apiKey,
          maxRetries: 0, // retries are ours: bounded, classified, with the same policy as Ollama's
          ...(config.fetch ? { fetch: config.fetch } : {}),
        }),
    ));
  const apiKey = config.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'sk-stratbench-local';
  const retryOptions: RetryOptions = {
    ...config.clock,
    classify: classifyOpenAIError,
    ...(config.retry ? { policy: config.retry } : {}),
    ...(config.onRetry ? { onRetry: config.onRetry } : {}),
  };
  const now = config.clock?.now ?? (() => performance.now());

  async function send(
    body: Body,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ completion: OpenAI.Chat.Completions.ChatCompletion; wall_ms: number }> {
    return withRetry(
      `OpenAI-compatible chat with ${config.model} at ${baseURL}`,
      async () => {
        if (config.fetch === undefined) {
          // The imports (openai ≈ 200 ms, undici ≈ 140 ms) come before the clock: they are not the model's time.
          const [loaded, dispatcher] = await Promise.all([loadSdk(), config.dispatcher ?? modelDispatcher()]);
          const started = now();
          const deadline = timeoutMs ?? config.deadlineMs; // undefined: postCompletion's DEFAULT_CALL_DEADLINE_MS
          const completion = asCompletion(await postCompletion(loaded, { baseURL, apiKey }, body, deadline, dispatcher, signal));
          return { completion, wall_ms: now() - started };
        }
        const openai = await getClient();
        const started = now();
        const completion = asCompletion(
          await openai.chat.completions.create(body, { ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}), ...(signal ? { signal } : {}) }),
        );
        return { completion, wall_ms: now() - started };
      },
      signal ? { ...retryOptions, signal } : retryOptions,
    );
  }

  return {
    name: `openai:${config.model}`,
    deterministic: false,
    host: baseURL,
    cacheIdentity: { backend: 'openai', toolCalling, tools, defaults, structured: config.structuredOutput ?? 'auto' },
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const options: ChatOptions = { ...defaults, ...definedOnly(request.options) };
      const native = toolCalling === 'native' && ACTION_SCHEMA_NAMES.has(request.schemaName);
      const schema = modelJsonSchema(request.schema);
      const messages = withSchemaLine(request.messages(), schema, native, request.schemaName);
      const build = (): Body => ({
        model: config.model,
        messages,
        ...definedOnly({ temperature: options.temperature, seed: options.seed, max_tokens: options.num_predict }),
        ...(options.think !== undefined ? { chat_template_kwargs: { enable_thinking: options.think } } : {}),
        ...(native
          ? {
              tools: tools.map((tool) => ({
                type: 'function' as const,
                function: { name: tool.name, description: tool.description, parameters: tool.parameters },
              })),
            }
          : structured !== 'prompt'
            ? { response_format: { type: 'json_schema' as const, json_schema: { name: request.schemaName, strict: true, schema } } }
            : {}),
      });
      let body = build();
      const totals = { tokens_in: 0, tokens_out: 0, duration_ms: 0, attempts: 0 };
      let toolCallRetried = false;
      let budgetRetry: string | undefined;
      for (;;) {
        let sent: { completion: OpenAI.Chat.Completions.ChatCompletion; wall_ms: number };
        try {
          sent = await send(body, options.timeout_ms, request.signal);
        } catch (error) {
          const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
          const overflow = openAIContextOverflow(cause);
          if (overflow) throw new ContextExceededError(overflow, sentOf(body));
          if (structured === 'auto' && 'response_format' in body && rejectsResponseFormat(cause)) {
            structured = 'prompt'; // for good: this server does not take json_schema
            body = build();
            continue;
          }
          const classification = classifyOpenAIError(error);
          if (classification.action !== 'model_output') throw error;
          totals.attempts += 1;
          if (!toolCallRetried) {
            toolCallRetried = true;
            continue;
          }
          const fault: OutputFault = { kind: 'tool_call_malformed', detail: classification.reason };
          return { text: classification.reason, ...totals, load_ms: 0, model: `openai:${config.model}`, output_fault: fault, sent: sentOf(body) };
        }
        totals.attempts += 1;
        const { completion, wall_ms } = sent;
        totals.tokens_in += completion.usage?.prompt_tokens ?? 0;
        totals.tokens_out += completion.usage?.completion_tokens ?? 0;
        totals.duration_ms += wall_ms;
        const choice = completion.choices[0];
        if (choice?.finish_reason === 'length' && budgetRetry === undefined) {
          const wider = widerBudget(body, choice.message.content ?? '');
          if (wider !== undefined) {
            budgetRetry = wider.change;
            body = wider.body;
            continue;
          }
        }
        return buildResponse(choice, request.schemaName, native, tools, body, totals, budgetRetry, config.model);
      }
    },
    async forwardChat(given: Record<string, unknown>, signal?: AbortSignal) {
      const { stream: _stream, stream_options: _streamOptions, ...rest } = given;
      const body = { ...rest, model: config.model } as unknown as Body;
      try {
        return await send(body, defaults.timeout_ms, signal);
      } catch (error) {
        const overflow = openAIContextOverflow(error instanceof Error && error.cause !== undefined ? error.cause : error);
        if (overflow) throw new ContextExceededError(overflow, sentOf(body));
        throw error;
      }
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function withSchemaLine(messages: readonly ChatMessage[], schema: JsonSchema, native: boolean, schemaName: string): OpenAI.Chat.ChatCompletionMessageParam[] {
  const line = schemaLine(schema, native, schemaName);
  // Tool observations are sent as user turns: a `tool` message needs a tool_call_id these prompts do not carry.
  const out = messages.map((message) => ({ role: message.role === 'tool' ? 'user' : message.role, content: message.content })) as Array<{
    role: 'system' | 'user' | 'assistant';
    content: string;
  }>;
  const first = out[0];
  if (first?.role === 'system') out[0] = { ...first, content: `${first.content}\n\n${line}` };
  else out.unshift({ role: 'system', content: line });
  return out;
}

/** The one retry after `finish_reason: "length"`: thinking off when it was on and left no content, else twice max_tokens, else thinking off. */
function widerBudget(body: Body, content: string): { body: Body; change: string } | undefined {
  const thinking = (body['chat_template_kwargs'] as { enable_thinking?: boolean } | undefined)?.enable_thinking === true;
  const off = (): Body => ({ ...body, chat_template_kwargs: { enable_thinking: false } });
  if (thinking && content.trim() === '') return { body: off(), change: 'retried with think: false' };
  const cap = body.max_tokens;
  if (typeof cap === 'number' && cap > 0)
    return { body: { ...body, max_tokens: cap * 2 }, change: `retried with max_tokens ${cap * 2} after max_tokens ${cap}` };
  if (thinking) return { body: off(), change: 'retried with think: false' };
  return undefined;
}

function buildResponse(
  choice: OpenAI.Chat.Completions.ChatCompletion.Choice | undefined,
  schemaName: string,
  native: boolean,
  tools: readonly ToolSpec[],
  body: Body,
  totals: { tokens_in: number; tokens_out: number; duration_ms: number; attempts: number },
  budgetRetry: string | undefined,
  model: string,
): ChatResponse {
  const message = (choice?.message ?? { content: '' }) as OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: unknown; reasoning?: unknown };
  const content = message.content ?? '';
  const first = native ? message.tool_calls?.find((call) => call.type === 'function') : undefined;
  const converted = first
    ? toolCallToReplyText(schemaName, { function: { name: first.function.name, arguments: first.function.arguments } }, tools)
    : { text: content, warnings: [], ...(looksLikeToolCallText(content) ? { fault: contentFault(content) } : {}) };
  let fault: OutputFault | undefined = converted.fault;
  if (choice?.finish_reason === 'length' && fault === undefined) {
    fault = {
      kind: 'output_budget_exhausted',
      detail: `finish_reason "length" at max_tokens ${body.max_tokens ?? 'unset'}: ${totals.tokens_out} tokens out, ${content.length} characters of content${budgetRetry ? `; ${budgetRetry}` : ''}`,
    };
  }
  const thinking = typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '';
  const reasoningParts = [thinking, first ? content : ''].map((part) => part.trim()).filter((part) => part !== '');
  return {
    text: converted.text,
    ...('structured' in converted && converted.structured !== undefined ? { structured: converted.structured } : {}),
    tokens_in: totals.tokens_in,
    tokens_out: totals.tokens_out,
    duration_ms: Math.round(totals.duration_ms * 1e3) / 1e3,
    load_ms: 0,
    ...(choice?.finish_reason ? { done_reason: choice.finish_reason } : {}),
    format_warnings: converted.warnings,
    model: `openai:${model}`,
    ...(reasoningParts.length > 0 ? { reasoning: reasoningParts.join('\n\n') } : {}),
    attempts: totals.attempts,
    ...(fault ? { output_fault: fault } : {}),
    sent: sentOf(body),
  };
}

function sentOf(body: Body): SentMessages {
  const options: Record<string, unknown> = definedOnly({ temperature: body.temperature, seed: body.seed, max_tokens: body.max_tokens });
  const thinking = (body['chat_template_kwargs'] as { enable_thinking?: boolean } | undefined)?.enable_thinking;
  if (thinking !== undefined) options['think'] = thinking;
  options['structured_output'] = body.tools !== undefined ? 'tools' : body.response_format !== undefined ? 'json_schema' : 'prompt';
  return {
    messages: body.messages.map((message) => ({ role: message.role as ChatMessage['role'], content: String(message.content ?? '') })),
    options,
  };
}

function contentFault(content: string): OutputFault {
  return { kind: 'tool_call_in_content', detail: `a tool call written as text instead of a structured call: ${content.slice(0, 500)}` };
}

/** What preflight learnt about one OpenAI-compatible model (recorded in run.json). */
export interface OpenAIPreflightModel {
  /** The id as the server lists it. */
  id: string;
  owned_by?: string;
  /** vLLM reports the served checkpoint (`root`) and the context length (`max_model_len`). */
  root?: string;
  max_model_len?: number;
  /**
   * llama.cpp server's `meta` (tools/server: `n_params`, `size` in bytes, `n_vocab`, `vocab_type`, `n_ctx_train`,
   * `n_embd`, and in newer builds `n_ctx` (the slot's context window) and `ftype`): numbers that tell one GGUF from another
   * where vLLM's `root` names the checkpoint. Only those keys, and only numbers or strings, are kept.
   */
  meta?: Record<string, number | string>;
}

/** The keys of llama.cpp's `meta` that identify the weights and the window. */
const LLAMA_CPP_META_KEYS = ['n_params', 'size', 'n_vocab', 'vocab_type', 'n_ctx_train', 'n_embd', 'n_ctx', 'ftype'] as const;

function metaOf(value: unknown): Record<string, number | string> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entries = LLAMA_CPP_META_KEYS.flatMap((key) => {
    const item = (value as Record<string, unknown>)[key];
    return typeof item === 'number' || typeof item === 'string' ? [[key, item] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/**
 * Checks the OpenAI-compatible server at `baseURL` before a run: GET /models must answer and list each of
 * `models` (exact id). Returns what it lists about them. The reply is read over `options.fetch` (default `modelFetch`:
 * at most MAX_REPLY_BYTES, 16 MiB, decoded). Throws `ConfigurationError` (the CLI exits 2):
 * "cannot reach the OpenAI-compatible server at URL: <reason>" (also for 401/403: a wrong OPENAI_API_KEY), "cannot use
 * the OpenAI-compatible server at URL: the server's reply to GET URL/models is too large: … (16 MiB, the cap on one
 * reply) …", or naming every missing model and the ids the server does serve.
 */
export async function preflightOpenAI(
  baseURL: string,
  models: readonly string[],
  options: { fetch?: typeof fetch; apiKey?: string; timeoutMs?: number } = {},
): Promise<{ baseURL: string; models: Record<string, OpenAIPreflightModel> }> {
  const OpenAI = (await loadSdk()).default;
  const client = new OpenAI({
    baseURL,
    apiKey: options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'sk-stratbench-local',
    maxRetries: 0,
    timeout: options.timeoutMs ?? 10_000,
    fetch: options.fetch ?? modelFetch,
  });
  const served = new Map<string, OpenAIPreflightModel>();
  try {
    for await (const model of client.models.list()) {
      const extra = model as unknown as { root?: unknown; max_model_len?: unknown; meta?: unknown };
      const meta = metaOf(extra.meta);
      served.set(model.id, {
        id: model.id,
        ...(model.owned_by ? { owned_by: model.owned_by } : {}),
        ...(typeof extra.root === 'string' ? { root: extra.root } : {}),
        ...(typeof extra.max_model_len === 'number' ? { max_model_len: extra.max_model_len } : {}),
        ...(meta ? { meta } : {}),
      });
    }
  } catch (error) {
    const tooLarge = replyTooLarge(error);
    if (tooLarge) throw new ConfigurationError(`cannot use the OpenAI-compatible server at ${baseURL}: ${tooLarge.message}`, { cause: error });
    const status = error instanceof OpenAI.APIError && error.status !== undefined ? ` (HTTP ${error.status})` : '';
    const reason = classifyOpenAIError(error);
    throw new ConfigurationError(
      `cannot reach the OpenAI-compatible server at ${baseURL}${status}: ${reason.action === 'rethrow' ? errorMessage(error) : 'reason' in reason ? reason.reason : errorMessage(error)}` +
        (status === ' (HTTP 401)' || status === ' (HTTP 403)' ? '; check OPENAI_API_KEY' : '; start it, or pass --openai-base-url / OPENAI_BASE_URL'),
    );
  }
  const missing = models.filter((model) => !served.has(model));
  if (missing.length > 0) {
    const listed = [...served.keys()].sort();
    throw new ConfigurationError(
      `the OpenAI-compatible server at ${baseURL} does not serve ${missing.map((model) => `"${model}"`).join(', ')}; ` +
        `it serves: ${listed.length > 0 ? listed.join(', ') : '(no models)'}`,
    );
  }
  return { baseURL, models: Object.fromEntries(models.map((model) => [model, served.get(model)!])) };
}
