// The `ollama:<model>` backend: a ChatRequest as an Ollama /api/chat call, the reply as raw text plus accounting.
//
// Which layer handles each real-world reply fault (fixtures/ollama-replies.json) is decided in
// docs/decisions/0003-ollama-reply-faults.md; in short: the backend retries infrastructure errors, the
// tool-call parse 500 and `done_reason: "length"` once each, converts native tool calls and never parses
// the reply; `parseReply` does the safe lenient extraction; the strategy's one repair attempt and
// `invalid_output` classify the rest; the tool layer rejects unknown tools and bad arguments.
import type { Dispatcher } from 'undici';
import type { ChatRequest as OllamaChatRequest, Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { ChatMessage, ChatModel, ChatOptions, ChatRequest, ChatResponse, OutputFault, SentMessages } from './types.js';
import { modelJsonSchema, type JsonSchema } from './model-json-schema.js';
import { classifyOllamaError, DEFAULT_CALL_DEADLINE_MS, withRetry, type RetryOptions, type RetryPolicy } from './retry.js';
import { resolveOllamaHost } from './ollama-host.js';
import { sendChat, type OllamaReply } from './ollama-transport.js';
import { ContextExceededError, ollamaContextOverflow, ollamaTruncation } from './context-limit.js';
import { ACTION_SCHEMA_NAMES, looksLikeToolCallText, ollamaTools, toolCallToReplyText, type ToolSpec } from './tool-calling.js';

export { resolveOllamaHost } from './ollama-host.js';

export interface OllamaModelConfig {
  /** Ollama model tag, e.g. "qwen3:8b". */
  model: string;
  /** Server URL; default `resolveOllamaHost()` (OLLAMA_HOST, else http://127.0.0.1:11434). */
  host?: string;
  /** Defaults for every call; a request's own options win. */
  options?: ChatOptions;
  /** How actions are asked for: JSON matching the action schema (default) or Ollama's `tools` field. */
  toolCalling?: 'json' | 'native';
  /** Tools offered in native mode (JSON Schema parameters, flat). */
  tools?: ToolSpec[];
  retry?: Partial<RetryPolicy>;
  /** The fetch the ollama client sends with; default none: undici's pool directly (`sendChat`, decision 0019). */
  fetch?: typeof fetch;
  /** The undici pool used without `fetch` (tests: short header and body timeouts); default `modelDispatcher()`. */
  dispatcher?: Dispatcher;
  /** Stream replies (NDJSON). Default false; switched on for good after a 300 s headers timeout. */
  stream?: boolean;
  /** Timeout in ms while the model may be loading (first call, after a runner crash); default 300 000. */
  loadTimeoutMs?: number;
  /** Overall deadline of a call without `timeout_ms`, ms (headers and whole body); default DEFAULT_CALL_DEADLINE_MS (600 000). */
  deadlineMs?: number;
  /** Append a line with the JSON Schema to the system prompt (the server does not add it). Default true. */
  schemaInPrompt?: boolean;
  /**
   * The context window in tokens when a request sends no num_ctx (the model's default: `num_ctx` in /api/show
   * `parameters`); a reply whose prompt_eval_count reaches the window was truncated (`ollamaTruncation`).
   */
  contextLength?: number;
  /** Injected timing for tests: backoff sleep, jitter source, clock in ms. */
  clock?: Pick<RetryOptions, 'sleep' | 'random' | 'now'>;
  /** Called before each infrastructure retry (e.g. log it, or lower concurrency on `busy`). */
  onRetry?: RetryOptions['onRetry'];
}

/** Defaults for structured roles: greedy, 8192-token context (Ollama's own default is smaller), no thinking. */
export const OLLAMA_DEFAULT_OPTIONS = { temperature: 0, num_ctx: 8192, think: false, keep_alive: '30m' } as const satisfies ChatOptions;

/** A load time at or above this (ms) marks the call as a cold load. */
export const COLD_LOAD_MS = 1000;

const DEFAULT_LOAD_TIMEOUT_MS = 300_000;

/**
 * Creates the `ollama:<model>` backend. Each `chat` sends one /api/chat request (more on retries):
 * `format` = the flat JSON Schema of `request.schema` (or, with `toolCalling: 'native'` for the action
 * schemas "action" / "executor_call", the `tools` field), options temperature/seed/num_ctx/num_predict,
 * `think` and `keep_alive` on every call, an overall deadline per call (headers and whole body) of `options.timeout_ms`
 * ms, else `config.deadlineMs`, else DEFAULT_CALL_DEADLINE_MS (600 000 ms; at least `loadTimeoutMs` while the model may
 * be loading). `request.signal` aborting ends the call and its retries (its reason is thrown).
 * Returns the raw reply text (never parsed here), tokens from prompt_eval_count / eval_count,
 * `load_ms` = load_duration and `duration_ms` = total_duration − load_duration (ns → ms; a cold load is
 * not charged), summed over the backend's own output-fault retries.
 * Throws `InfrastructureError` (unreachable | server_error | busy | timeout after bounded retries;
 * model_missing | other at once); `ContextExceededError` at once when the prompt did not fit num_ctx (an error
 * reply saying so, or a 200 whose prompt_eval_count reached num_ctx: Ollama's silent truncation); a plain Error
 * when native mode has no tools.
 */
export function createOllamaModel(config: OllamaModelConfig): ChatModel & { readonly host: string } {
  const host = config.host ?? resolveOllamaHost();
  const baseFetch = config.fetch;
  const tools = config.tools ?? [];
  const toolCalling = config.toolCalling ?? 'json';
  if (toolCalling === 'native' && tools.length === 0) throw new Error('toolCalling "native" needs the tool definitions (config.tools)');
  const defaults: ChatOptions = { ...OLLAMA_DEFAULT_OPTIONS, ...definedOnly(config.options ?? {}) };
  const retryOptions: RetryOptions = {
    ...config.clock,
    ...(config.retry ? { policy: config.retry } : {}),
    ...(config.onRetry ? { onRetry: config.onRetry } : {}),
  };
  const loadTimeoutMs = config.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  let preferStream = config.stream ?? false;
  let mayBeLoading = true; // until one call succeeds, and again after a runner crash

  /** One request with infrastructure retries; a headers timeout switches to streaming for good. */
  async function send(body: OllamaChatRequest, timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<OllamaReply> {
    const deadline = timeoutMs ?? config.deadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    return withRetry(
      `Ollama chat with ${config.model} at ${host}`,
      async (_attempt, previous) => {
        if (previous?.action === 'retry' && previous.code === 'UND_ERR_HEADERS_TIMEOUT') preferStream = true;
        if (previous?.action === 'retry' && previous.kind === 'server_error') mayBeLoading = true;
        const timeout = mayBeLoading ? Math.max(deadline, loadTimeoutMs) : deadline;
        const reply = await sendChat(body, {
          host,
          ...(baseFetch ? { fetch: baseFetch } : {}),
          ...(config.dispatcher ? { dispatcher: config.dispatcher } : {}),
          timeoutMs: timeout,
          stream: preferStream,
          ...(config.clock?.now ? { now: config.clock.now } : {}),
          ...(signal ? { signal } : {}),
        });
        mayBeLoading = false;
        return reply;
      },
      signal ? { ...retryOptions, signal } : retryOptions,
    );
  }

  return {
    name: `ollama:${config.model}`,
    deterministic: false,
    host,
    cacheIdentity: { backend: 'ollama', toolCalling, tools, defaults, schemaInPrompt: config.schemaInPrompt ?? true },
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const options: ChatOptions = { ...defaults, ...definedOnly(request.options) };
      const native = toolCalling === 'native' && ACTION_SCHEMA_NAMES.has(request.schemaName);
      const schema = modelJsonSchema(request.schema);
      const messages = request.messages();
      let body: OllamaChatRequest = {
        model: config.model,
        messages: (config.schemaInPrompt ?? true) ? withSchemaLine(messages, schema, native, request.schemaName) : toOllamaMessages(messages),
        options: ollamaOptions(options),
        ...(options.think !== undefined ? { think: options.think } : {}),
        ...(options.keep_alive !== undefined ? { keep_alive: options.keep_alive } : {}),
        ...(native ? { tools: ollamaTools(tools) as unknown as OllamaTool[] } : { format: schema }),
      };

      const totals = { tokens_in: 0, tokens_out: 0, duration_ms: 0, load_ms: 0, attempts: 0 };
      let coldLoad = false;
      let toolCallRetried = false;
      let budgetRetry: string | undefined;
      for (;;) {
        let reply: OllamaReply;
        try {
          reply = await send(body, options.timeout_ms, request.signal);
        } catch (error) {
          const overflow = ollamaContextOverflow(error instanceof Error && error.cause !== undefined ? error.cause : error);
          if (overflow) throw new ContextExceededError(overflow, sentOf(body));
          const classification = classifyOllamaError(error);
          if (classification.action !== 'model_output') throw error;
          totals.attempts += 1;
          if (!toolCallRetried) {
            toolCallRetried = true;
            continue;
          }
          // The model's malformed tool call, twice: a reply that never parses, with the raw error kept.
          const fault: OutputFault = { kind: 'tool_call_malformed', detail: classification.reason };
          return { text: classification.reason, ...totals, model: `ollama:${config.model}`, output_fault: fault, sent: sentOf(body) };
        }
        totals.attempts += 1;
        const truncated = ollamaTruncation(reply.prompt_eval_count, body.options?.num_ctx ?? config.contextLength);
        if (truncated) throw new ContextExceededError(truncated, sentOf(body));
        const usage = accounting(reply);
        totals.tokens_in += usage.tokens_in;
        totals.tokens_out += usage.tokens_out;
        totals.duration_ms += usage.duration_ms;
        totals.load_ms += usage.load_ms;
        coldLoad ||= usage.cold_load;

        if (reply.done_reason === 'length' && budgetRetry === undefined) {
          const wider = widerBudget(body, reply);
          if (wider !== undefined) {
            budgetRetry = wider.change;
            body = wider.body;
            continue;
          }
        }
        return buildResponse(reply, request.schemaName, native, tools, body, totals, coldLoad, budgetRetry, config.model);
      }
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function ollamaOptions(options: ChatOptions): NonNullable<OllamaChatRequest['options']> {
  return definedOnly({ temperature: options.temperature, seed: options.seed, num_ctx: options.num_ctx, num_predict: options.num_predict });
}

function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  return messages.map((message) => ({ role: message.role, content: message.content }));
}

/** The prompt line describing the reply schema, appended to the first system message (or added as one). */
export function schemaLine(schema: JsonSchema, native: boolean, schemaName: string): string {
  const key = `${native}\n${schemaName}`;
  let lines = schemaLines.get(schema);
  if (lines === undefined) schemaLines.set(schema, (lines = new Map()));
  let line = lines.get(key);
  if (line === undefined) lines.set(key, (line = buildSchemaLine(schema, native, schemaName)));
  return line;
}

/** schemaLine's results by schema object (modelJsonSchema hands back one object per zod schema), mode and name. */
const schemaLines = new WeakMap<JsonSchema, Map<string, string>>();

function buildSchemaLine(schema: JsonSchema, native: boolean, schemaName: string): string {
  const json = JSON.stringify(schema);
  if (native && schemaName === 'executor_call') return 'Reply with exactly one tool call: the tool and the arguments for this step.';
  const only = `reply with only a JSON value matching this JSON Schema (no prose, no code fences):\n${json}`;
  return native ? `To use a tool, call it with a tool call. To finish or stop instead, ${only}` : `Always ${only}`;
}

/**
 * The system texts withSchemaLine built, by system prompt and then schema line: every call of a role sends the same
 * one, and handing back the same string lets the trace's text hashing (storedTextHash) find it without rehashing.
 * Bounded: cleared past 256 system prompts.
 */
const systemWithLine = new Map<string, Map<string, string>>();

function withSchemaLine(messages: readonly ChatMessage[], schema: JsonSchema, native: boolean, schemaName: string): OllamaMessage[] {
  const line = schemaLine(schema, native, schemaName);
  const out = toOllamaMessages(messages);
  const first = out[0];
  if (first?.role === 'system') {
    let byLine = systemWithLine.get(first.content);
    if (byLine === undefined) {
      if (systemWithLine.size >= 256) systemWithLine.clear();
      systemWithLine.set(first.content, (byLine = new Map()));
    }
    let content = byLine.get(line);
    if (content === undefined) byLine.set(line, (content = `${first.content}\n\n${line}`));
    out[0] = { ...first, content };
  } else out.unshift({ role: 'system', content: line });
  return out;
}

const nsToMs = (ns: number | undefined): number => (typeof ns === 'number' && Number.isFinite(ns) ? Math.round(ns / 1e3) / 1e3 : 0);

/** Tokens and ms of one reply; without durations from the server, the wall-clock time is the model time. */
export function accounting(reply: OllamaReply): { tokens_in: number; tokens_out: number; duration_ms: number; load_ms: number; cold_load: boolean } {
  const load_ms = nsToMs(reply.load_duration);
  const duration_ms = reply.total_duration === undefined ? Math.round(reply.wall_ms * 1e3) / 1e3 : Math.max(0, nsToMs(reply.total_duration) - load_ms);
  return {
    tokens_in: reply.prompt_eval_count ?? 0,
    tokens_out: reply.eval_count ?? 0,
    duration_ms: Math.round(duration_ms * 1e3) / 1e3,
    load_ms,
    cold_load: load_ms >= COLD_LOAD_MS,
  };
}

/**
 * The one retry after `done_reason: "length"` (fixtures empty-content-done-reason-length,
 * truncated-json-length): thinking off when it was on and left no content, else twice the
 * num_predict cap, else thinking off; none when nothing can be widened (the same request would
 * end the same way at temperature 0).
 */
export function widerBudget(body: OllamaChatRequest, reply: OllamaReply): { body: OllamaChatRequest; change: string } | undefined {
  const cap = body.options?.num_predict;
  if (body.think === true && reply.content.trim() === '') return { body: { ...body, think: false }, change: 'retried with think: false' };
  if (typeof cap === 'number' && cap > 0) {
    return { body: { ...body, options: { ...body.options, num_predict: cap * 2 } }, change: `retried with num_predict ${cap * 2} after num_predict ${cap}` };
  }
  if (body.think === true) return { body: { ...body, think: false }, change: 'retried with think: false' };
  return undefined;
}

function buildResponse(
  reply: OllamaReply,
  schemaName: string,
  native: boolean,
  tools: readonly ToolSpec[],
  body: OllamaChatRequest,
  totals: { tokens_in: number; tokens_out: number; duration_ms: number; load_ms: number; attempts: number },
  coldLoad: boolean,
  budgetRetry: string | undefined,
  model: string,
): ChatResponse {
  const call = native ? reply.tool_calls[0] : undefined;
  const converted = call
    ? toolCallToReplyText(schemaName, call, tools)
    : { text: reply.content, warnings: [], ...(looksLikeToolCallText(reply.content) ? { fault: contentFault(reply.content) } : {}) };
  let fault: OutputFault | undefined = converted.fault;
  if (reply.done_reason === 'length' && fault === undefined) {
    const cap = body.options?.num_predict;
    const detail =
      `done_reason "length" at num_predict ${cap ?? 'unset'} (num_ctx ${body.options?.num_ctx ?? 'unset'}): ` +
      `${reply.eval_count ?? '?'} tokens out, ${reply.content.length} characters of content, ${reply.thinking.length} of thinking` +
      (budgetRetry ? `; ${budgetRetry}` : '');
    fault = { kind: 'output_budget_exhausted', detail };
  }
  const reasoningParts = [reply.thinking, call ? reply.content : ''].map((part) => part.trim()).filter((part) => part !== '');
  return {
    text: converted.text,
    ...('structured' in converted && converted.structured !== undefined ? { structured: converted.structured } : {}),
    tokens_in: totals.tokens_in,
    tokens_out: totals.tokens_out,
    duration_ms: Math.round(totals.duration_ms * 1e3) / 1e3,
    load_ms: Math.round(totals.load_ms * 1e3) / 1e3,
    ...(reply.done_reason !== undefined ? { done_reason: reply.done_reason } : {}),
    format_warnings: converted.warnings,
    model: `ollama:${model}`,
    ...(reasoningParts.length > 0 ? { reasoning: reasoningParts.join('\n\n') } : {}),
    ...(coldLoad ? { cold_load: true } : {}),
    attempts: totals.attempts,
    ...(fault ? { output_fault: fault } : {}),
    sent: sentOf(body),
  };
}

/** The messages and options of the request that produced the reply (after any widened-budget retry), for the trace. */
function sentOf(body: OllamaChatRequest): SentMessages {
  const options: Record<string, unknown> = { ...body.options };
  if (body.think !== undefined) options['think'] = body.think;
  if (body.keep_alive !== undefined) options['keep_alive'] = body.keep_alive;
  options['structured_output'] = body.tools !== undefined ? 'tools' : 'format';
  return { messages: (body.messages ?? []).map((message) => ({ role: message.role as ChatMessage['role'], content: message.content })), options };
}

function contentFault(content: string): OutputFault {
  return { kind: 'tool_call_in_content', detail: `a tool call written as text instead of a structured call: ${content.slice(0, 500)}` };
}
