// The recording model proxy: an external agent's chat requests (OpenAI-compatible or Ollama) go to the run's model
// for the agent role, and every request and reply is a model_call in the episode's trace (issue 28 §3).
import { ActionReply } from '../strategies/replies.js';
import { agentView } from '../strategies/react.js';
import { parseReply } from '../models/parse-reply.js';
import { CallInterrupted, InfrastructureError, type ChatMessage, type ChatModel } from '../models/types.js';
import { ContextExceededError } from '../models/context-limit.js';
import { createOpenAIModel } from '../models/openai.js';
import type { TraceEventInput } from '../records/index.js';
import type { AgentSession } from './session.js';

/** One tool call of an assistant message, OpenAI's shape (arguments as a JSON string). */
export interface ToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The assistant message a proxied call returns, OpenAI's shape. */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCallOut[];
}

/** What a proxied call came to: the reply for the agent, or an HTTP error for it (status, message). */
export type ProxyResult =
  | { ok: true; message: AssistantMessage; finish_reason: 'stop' | 'tool_calls' | 'length'; tokens_in: number; tokens_out: number; model: string }
  | { ok: false; status: number; message: string };

/**
 * Why the proxy cannot serve a request body, or undefined: it must be an object whose `messages` is a non-empty array
 * of objects, each with a string `role`, and `tool_calls` (where present) an array of objects. A refused request is
 * answered 400 and is no model call (not traced, not charged to the budget).
 */
export function requestProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the request body is not a JSON object';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'the request has no messages';
  for (const [index, message] of messages.entries()) {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return `messages[${index}] is not an object`;
    if (typeof (message as { role?: unknown }).role !== 'string') return `messages[${index}] has no role`;
    const calls = (message as { tool_calls?: unknown }).tool_calls;
    if (calls !== undefined && calls !== null && (!Array.isArray(calls) || calls.some((call) => call === null || typeof call !== 'object'))) {
      return `messages[${index}].tool_calls is not an array of objects`;
    }
  }
  return undefined;
}

/** The agent's messages as the trace keeps them: role and text (an assistant's tool calls as JSON after its text). */
export function chatMessagesOf(body: Record<string, unknown>): ChatMessage[] {
  const messages = (body['messages'] as Array<Record<string, unknown>>) ?? [];
  return messages.map((message) => {
    const role = ['system', 'user', 'assistant', 'tool'].includes(String(message['role'])) ? (String(message['role']) as ChatMessage['role']) : 'user';
    const content = contentText(message['content']);
    const calls = message['tool_calls'];
    return { role, content: Array.isArray(calls) && calls.length > 0 ? `${content}${content ? '\n' : ''}${JSON.stringify(calls)}` : content };
  });
}

/** A message's content as text: a string, or the text parts of a content array (OpenAI's multi-part form). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === null || content === undefined ? '' : JSON.stringify(content);
  return content.map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : '')).join('');
}

/** The built-in agent's reading of a reply: the first tool call as an action (finish and stop as endings), or none. */
function actionOf(message: AssistantMessage): ActionReply | undefined {
  const first = message.tool_calls?.[0];
  if (first === undefined) return undefined;
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(first.function.arguments || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (first.function.name === 'finish') return { action: 'finish', answer: typeof args['answer'] === 'string' ? args['answer'] : '' };
  if (first.function.name === 'stop') return { action: 'stop', message: typeof args['message'] === 'string' ? args['message'] : '' };
  return { action: 'tool', tool: first.function.name, args };
}

/** A scripted action as the assistant message an agent framework reads: a tool call (finish and stop are tools too). */
function messageOfAction(action: ActionReply, callNumber: number): AssistantMessage {
  const id = `call_${callNumber}`;
  const call = (name: string, args: unknown): AssistantMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
  if (action.action === 'finish') return call('finish', { answer: action.answer ?? '' });
  if (action.action === 'stop') return call('stop', { message: action.message ?? '' });
  return call(action.tool ?? '', action.args ?? {});
}

const forwarders = new WeakMap<ChatModel, NonNullable<ChatModel['forwardChat']>>();

/**
 * How a backend takes an agent's own request: its `forwardChat` (openai:), or for an ollama: model its server's
 * OpenAI-compatible `/v1` (Ollama serves one); undefined for a backend that only answers views (the scripted
 * stand-in answers through `chat`).
 */
export function forwarderOf(model: ChatModel): ChatModel['forwardChat'] {
  if (typeof model.forwardChat === 'function') return model.forwardChat.bind(model);
  const host = (model as { host?: unknown }).host;
  if (!model.name.startsWith('ollama:') || typeof host !== 'string') return undefined;
  let forward = forwarders.get(model);
  if (forward === undefined) {
    const openai = createOpenAIModel({ model: model.name.slice('ollama:'.length), baseURL: `${host.replace(/\/+$/, '')}/v1` });
    forward = openai.forwardChat!.bind(openai);
    forwarders.set(model, forward);
  }
  return forward;
}

/**
 * Serves one chat request of the episode's agent: refused once the episode has ended or when the model-call budget
 * is spent (the budget ends the episode); else answered by the agent role's model — the scripted stand-in from the
 * episode's view (the repository calls so far), a server backend with the agent's own request — and traced as a
 * model_call of role `agent` (the request's messages in messages.jsonl). A backend's InfrastructureError ends the
 * episode as infrastructure (502 to the agent); a context overflow ends it as the agent's `context_exceeded`.
 */
export async function proxyChat(session: AgentSession, body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ProxyResult> {
  session.contacted = true;
  if (session.closed) return { ok: false, status: 409, message: 'the episode has ended' };
  const { ctx, budgets } = session;
  if (session.modelCalls >= budgets.maxModelCalls) {
    session.exhaust('model_calls', `the agent asked for model call ${session.modelCalls + 1}; the budget is ${budgets.maxModelCalls}`);
    return { ok: false, status: 429, message: `model-call budget exhausted (${budgets.maxModelCalls}): the episode has ended` };
  }
  let messages: ChatMessage[];
  try {
    messages = chatMessagesOf(body);
  } catch (error) {
    // Content the trace cannot hold (nested past the stack): a request refused, not a model call.
    return { ok: false, status: 400, message: `the request's messages cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  session.modelCalls += 1;
  const model = ctx.models.agent;
  const started = performance.now();
  let result: Extract<ProxyResult, { ok: true }>;
  let event: Extract<TraceEventInput, { type: 'model_call' }>;
  try {
    const forward = model.deterministic ? undefined : forwarderOf(model);
    if (forward !== undefined) {
      const { completion, wall_ms } = await forward(body, signal);
      ({ result, event } = fromCompletion(completion, wall_ms, model.name));
    } else {
      ({ result, event } = await fromView(session, model, messages, signal));
    }
  } catch (error) {
    if (error instanceof CallInterrupted || signal?.aborted) {
      session.settle({ kind: 'error', error: error instanceof CallInterrupted ? error : new CallInterrupted('interrupted'), by: 'interrupted' });
      return { ok: false, status: 503, message: 'the run was interrupted' };
    }
    if (session.closed) return { ok: false, status: 409, message: 'the episode has ended' };
    const refused = requestRefusal(error);
    if (refused !== undefined) {
      // The model server refused what the agent sent (a malformed message, an unknown role, a bad tool schema): the
      // agent's request, not the infrastructure. It is a model call that got no reply; the agent hears why.
      const words = `the model server refused the request (HTTP ${refused.status}): ${refused.message}`;
      ctx.trace.emit(unansweredEvent(model.name, messages, session, performance.now() - started, words));
      return { ok: false, status: refused.status, message: `the model server refused the request (HTTP ${refused.status}): ${refused.message}` };
    }
    if (error instanceof ContextExceededError) {
      const fault = { kind: 'context_exceeded', detail: error.overflow.detail };
      ctx.trace.emit(unansweredEvent(model.name, messages, session, performance.now() - started, 'context_exceeded', fault));
      session.exhaust('context_exceeded', `the agent's prompt does not fit the model's context window: ${error.overflow.detail}`);
      return { ok: false, status: 400, message: `the prompt does not fit the model's context window: ${error.overflow.detail}` };
    }
    session.settle({ kind: 'error', error, by: error instanceof InfrastructureError ? 'infrastructure' : 'harness' });
    return { ok: false, status: 502, message: `the model backend failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  // A reply that comes back after the episode ended (its deadline passed meanwhile) is not the episode's: the trace
  // and the outcome are already closed, and the agent is gone.
  if (session.closed) return { ok: false, status: 409, message: 'the episode has ended' };
  event.sent = { messages: messages.map((message) => ctx.trace.storeText(message.role, message.content)), options: sentOptions(body) };
  const eventId = ctx.trace.emit(event);
  const calls = result.message.tool_calls ?? [];
  session.noteAsked(
    eventId,
    calls.map((call) => ({ name: call.function.name, args: safeJson(call.function.arguments) })),
  );
  session.lastMessage = calls.length === 0 ? (result.message.content ?? '') : undefined;
  return result;
}

/** The sampling fields of the agent's request as the trace keeps them (tools by name only). */
function sentOptions(body: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key of ['model', 'temperature', 'top_p', 'seed', 'max_tokens', 'max_completion_tokens', 'tool_choice']) {
    if (body[key] !== undefined) options[key] = body[key];
  }
  if (Array.isArray(body['tools'])) options['tools'] = body['tools'].map((tool) => (tool as { function?: { name?: unknown } })?.function?.name ?? null);
  return options;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return text;
  }
}

/** The scripted stand-in's answer: it reads the agent's view (task, memory, the repository calls so far). */
async function fromView(
  session: AgentSession,
  model: ChatModel,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
): Promise<{ result: Extract<ProxyResult, { ok: true }>; event: Extract<TraceEventInput, { type: 'model_call' }> }> {
  const { ctx, ledger, budgets } = session;
  const view = agentView(ctx, ledger, budgets.maxToolCalls);
  const response = await model.chat({
    role: 'agent',
    schemaName: 'action',
    schema: ActionReply,
    view,
    messages: () => messages,
    options: ctx.chatOptions('agent'),
    epoch: ctx.epoch,
    ...(signal ? { signal } : {}),
  });
  const parsed = parseReply(response.text, ActionReply, response.done_reason);
  const message: AssistantMessage = parsed.ok ? messageOfAction(parsed.value, session.modelCalls) : { role: 'assistant', content: response.text };
  const event: Extract<TraceEventInput, { type: 'model_call' }> = {
    type: 'model_call',
    role: 'agent',
    model: response.model,
    schema: 'action',
    attempt: 1,
    outcome: parsed.ok ? 'ok' : 'invalid',
    text: response.text,
    format_warnings: parsed.ok ? parsed.warnings : [],
    tokens_in: response.tokens_in,
    tokens_out: response.tokens_out,
    duration_ms: response.duration_ms,
    load_ms: response.load_ms,
  };
  if (parsed.ok) event.value = parsed.value;
  else event.error = `${parsed.failure}: ${parsed.error}`;
  return {
    result: {
      ok: true,
      message,
      finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
      tokens_in: response.tokens_in,
      tokens_out: response.tokens_out,
      model: response.model,
    },
    event,
  };
}

/** A server's completion as the agent's reply and the trace's model_call (its first tool call read as the action). */
function fromCompletion(
  completion: unknown,
  wallMs: number,
  modelName: string,
): { result: Extract<ProxyResult, { ok: true }>; event: Extract<TraceEventInput, { type: 'model_call' }> } {
  const body = completion as {
    choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: string }>;
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  const choice = body.choices?.[0];
  const rawCalls = Array.isArray(choice?.message?.tool_calls) ? (choice.message.tool_calls as Array<Record<string, unknown>>) : [];
  const calls: ToolCallOut[] = rawCalls.map((call, index) => {
    const fn = (call['function'] ?? {}) as { name?: unknown; arguments?: unknown };
    return {
      id: typeof call['id'] === 'string' ? call['id'] : `call_${index}`,
      type: 'function',
      function: { name: String(fn.name ?? ''), arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}) },
    };
  });
  const content = typeof choice?.message?.content === 'string' ? choice.message.content : null;
  const message: AssistantMessage = { role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const tokensIn = body.usage?.prompt_tokens ?? 0;
  const tokensOut = body.usage?.completion_tokens ?? 0;
  const action = actionOf(message);
  const empty = calls.length === 0 && (content ?? '').trim() === '';
  const event: Extract<TraceEventInput, { type: 'model_call' }> = {
    type: 'model_call',
    role: 'agent',
    model: modelName,
    schema: 'chat',
    attempt: 1,
    outcome: empty ? 'invalid' : 'ok',
    text: calls.length > 0 ? `${content ?? ''}${content ? '\n' : ''}${JSON.stringify(calls.map((call) => call.function))}` : (content ?? ''),
    format_warnings: [],
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    duration_ms: Math.round(wallMs * 1000) / 1000,
    load_ms: 0,
  };
  if (action !== undefined) event.value = action;
  if (empty) event.error = 'empty reply: no content and no tool call';
  const finish = choice?.finish_reason === 'length' ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
  return { result: { ok: true, message, finish_reason: finish, tokens_in: tokensIn, tokens_out: tokensOut, model: modelName }, event };
}

/** HTTP statuses a server answers when the request itself is wrong (not the server, the model or the credentials). */
const REQUEST_FAULTS = new Set([400, 413, 422]);

/**
 * The server's refusal of the request itself (HTTP 400, 413 or 422 on the error or its cause: the openai client's
 * APIError, or the InfrastructureError the retry layer wrapped it in), or undefined for any other failure (404 model
 * missing, 401/403 credentials, 5xx, transport: infrastructure).
 */
function requestRefusal(error: unknown): { status: number; message: string } | undefined {
  for (let at: unknown = error, depth = 0; at !== null && typeof at === 'object' && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    const status = (at as { status?: unknown }).status;
    if (typeof status === 'number' && REQUEST_FAULTS.has(status)) {
      const body = (at as { error?: { message?: unknown } }).error;
      const message = typeof body?.message === 'string' ? body.message : at instanceof Error ? at.message : String(status);
      return { status, message };
    }
  }
  return undefined;
}

/**
 * The model_call of a request that got no reply: the server refused it (`error`) or its prompt did not fit (`fault`,
 * the server's words), with the messages it carried.
 */
function unansweredEvent(
  model: string,
  messages: ChatMessage[],
  session: AgentSession,
  wallMs: number,
  error: string,
  fault?: { kind: string; detail: string },
): Extract<TraceEventInput, { type: 'model_call' }> {
  return {
    type: 'model_call',
    role: 'agent',
    model,
    schema: 'chat',
    attempt: 1,
    outcome: 'invalid',
    error,
    text: '',
    format_warnings: [],
    tokens_in: 0,
    tokens_out: 0,
    duration_ms: Math.round(wallMs * 1000) / 1000,
    load_ms: 0,
    ...(fault ? { output_fault: fault } : {}),
    sent: { messages: messages.map((message) => session.ctx.trace.storeText(message.role, message.content)), options: {} },
  };
}
