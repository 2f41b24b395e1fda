// One model call for a role: render, call, parse, one repair attempt, and a model_call trace event each time.
import type { z } from 'zod';
import type { ChatModel, ChatRequest, Role, RoleView } from '../models/types.js';
import { parseReply, refusedToolCall } from '../models/parse-reply.js';
import { ContextExceededError } from '../models/context-limit.js';
import { renderMessages, type PromptTemplate } from './prompts.js';
import type { DeclaredRoleView } from './declared-roles.js';
import type { TraceEventInput } from '../records/index.js';
import type { StrategyContext } from './context.js';

/**
 * parseReply is a pure function of (schema, text, done_reason), and deterministic backends (the scripted
 * stand-in, cached and replayed replies) send the same text many times: the last 2,048 results per schema
 * and done_reason are kept. Values are deep-frozen so a shared one can never be changed by one episode under another.
 */
function parseCached<T>(text: string, schema: z.ZodType<T>, doneReason: string | undefined): ReturnType<typeof parseReply<T>> {
  let bySchema = parseCache.get(schema);
  if (!bySchema) parseCache.set(schema, (bySchema = new Map()));
  // Keyed by done_reason, then by the text itself: no key string built (and hashed) per call.
  let cache = bySchema.get(doneReason);
  if (!cache) bySchema.set(doneReason, (cache = new Map()));
  const hit = cache.get(text);
  if (hit) return hit as ReturnType<typeof parseReply<T>>;
  const parsed = parseReply(text, schema, doneReason);
  if (parsed.ok) deepFreeze(parsed.value);
  if (cache.size >= PARSE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(text, parsed);
  return parsed;
}

const PARSE_CACHE_SIZE = 2_048;
const parseCache = new WeakMap<z.ZodType, Map<string | undefined, Map<string, unknown>>>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/**
 * A role's prompt did not fit the model's context window (the backend threw `ContextExceededError`): the episode
 * ends at once as `budget_exhausted` with reason `context_exceeded` (the runner turns this into the outcome), a
 * failure of `role`. `events` are the role's model_call events of this ask, not yet in the trace; the last one is
 * the call that overflowed (outcome `invalid`, output_fault `context_exceeded`).
 */
export class ContextExceededEnding extends Error {
  override readonly name = 'ContextExceededEnding';
  constructor(
    /** The role whose prompt overflowed: a built-in one or a declared one's name. */
    readonly role: string,
    readonly events: Array<Extract<TraceEventInput, { type: 'model_call' }>>,
    override readonly cause: ContextExceededError,
  ) {
    super(`the ${role}'s prompt does not fit the model's context window: ${cause.overflow.detail}`);
  }
}

/** The model_call event of a call whose prompt did not fit: no reply, the server's words as the output fault. */
function overflowEvent(
  ctx: StrategyContext,
  role: string,
  schemaName: string,
  attempt: number,
  model: string,
  promptSha256: string,
  error: ContextExceededError,
): Extract<TraceEventInput, { type: 'model_call' }> {
  const event: Extract<TraceEventInput, { type: 'model_call' }> = {
    type: 'model_call',
    role,
    model,
    schema: schemaName,
    attempt,
    outcome: 'invalid',
    text: '',
    error: error.message,
    format_warnings: [],
    tokens_in: error.overflow.prompt_tokens ?? 0,
    tokens_out: 0,
    duration_ms: 0,
    load_ms: 0,
    prompt_sha256: promptSha256,
    output_fault: { kind: 'context_exceeded', detail: error.overflow.detail },
  };
  if (error.sent) {
    const messages = error.sent.messages.map((message) => ctx.trace.storeText(message.role, message.content));
    event.sent = { messages, options: error.sent.options };
  }
  return event;
}

/** A role a strategy may call: a built-in one, or the name of a role it declared (see RoleDeclaration). */
export type CalledRole = Role | (string & {});

/** What serves a role: its model, the built-in role that model serves (chat options), its prompt, and for a declared role its name. */
interface RoleBinding {
  model: ChatModel;
  modelRole: Role;
  template: PromptTemplate;
  declared?: string;
}

/** Throws an Error (a strategy bug: the episode ends as a harness error) for a role neither built in nor declared. */
function bindRole(ctx: StrategyContext, role: CalledRole): RoleBinding {
  if (Object.hasOwn(ctx.models, role)) return { model: ctx.models[role as Role], modelRole: role as Role, template: ctx.prompts[role as Role] };
  const declared = ctx.declaredRoles?.find((candidate) => candidate.name === role);
  if (declared === undefined) {
    const known = (ctx.declaredRoles ?? []).map((candidate) => candidate.name);
    throw new Error(`callRole: role ${role} is neither built in nor declared by the strategy${known.length > 0 ? ` (declared: ${known.join(', ')})` : ''}`);
  }
  return { model: ctx.models[declared.model], modelRole: declared.model, template: declared.prompt, declared: declared.name };
}

export type RoleReply<T> = { ok: true; value: T; eventId: number } | { ok: false; error: string; eventId: number };

/** A role's reply whose model_call events are not in the trace yet (see askRole); `emitAsked` puts them there. */
export interface AskedRole<T> {
  events: Array<Extract<TraceEventInput, { type: 'model_call' }>>;
  result: { ok: true; value: T } | { ok: false; error: string };
}

/**
 * Asks `role`'s model for a reply matching `schema`. A reply that does not parse or match gets one repair
 * attempt carrying the validation error; if that fails too the result is `ok: false` (the caller records
 * the role's `invalid_output`). `validate` adds checks the schema cannot express (e.g. plan validation);
 * it returns error strings. Infrastructure errors from the backend propagate (the runner records `error`).
 * `role`: a built-in role, or one the strategy declared — served by its model role's model with its own prompt, its
 * model calls traced under its own name (the request names both: `role` the model role, `declaredRole` its name).
 * Throws an Error for a role neither built in nor declared (a strategy bug: the episode ends as a harness error).
 */
export async function callRole<T>(
  ctx: StrategyContext,
  role: CalledRole,
  schemaName: string,
  schema: z.ZodType<T>,
  view: RoleView | DeclaredRoleView,
  validate?: (value: T) => string[],
): Promise<RoleReply<T>> {
  return emitAsked(ctx, await askRole(ctx, role, schemaName, schema, view, validate));
}

/**
 * Puts an asked role's model_call events into the trace, in the order they were made, and returns the reply
 * with the id of the last one. Several roles asked at once (a plan wave's executor calls) are emitted one after
 * the other in step order, so the trace is the one a sequential run writes.
 */
export function emitAsked<T>(ctx: StrategyContext, asked: AskedRole<T>): RoleReply<T> {
  let eventId = -1;
  for (const event of asked.events) eventId = ctx.trace.emit(event);
  return asked.result.ok ? { ok: true, value: asked.result.value, eventId } : { ok: false, error: asked.result.error, eventId };
}

/** callRole without touching the trace: the model calls and their events, to emit later with `emitAsked`. */
export async function askRole<T>(
  ctx: StrategyContext,
  role: CalledRole,
  schemaName: string,
  schema: z.ZodType<T>,
  view: RoleView | DeclaredRoleView,
  validate?: (value: T) => string[],
): Promise<AskedRole<T>> {
  const { model, modelRole, template, declared } = bindRole(ctx, role);
  const events: AskedRole<T>['events'] = [];
  let repair: { text: string; error: string } | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const currentRepair = repair;
    // Built by assignment, not conditional spreads: this runs for every model call of every episode. (Not with a getter
    // for the options either: an object literal with an accessor is slower to build than the options are to look up.)
    const request: ChatRequest = {
      role: modelRole,
      schemaName,
      schema,
      // A declared role's view is the strategy's own (its `role` is the declared name): a backend that reads views answers it as `modelRole`'s.
      view: view as RoleView,
      messages: () => renderMessages(template, view as RoleView, schema, ctx.toolDescriptions, currentRepair),
      options: ctx.chatOptions(modelRole),
      epoch: ctx.epoch,
    };
    if (currentRepair) request.repair = currentRepair;
    if (declared !== undefined) request.declaredRole = declared;
    let response: Awaited<ReturnType<typeof model.chat>>;
    try {
      response = await model.chat(request);
    } catch (error) {
      if (!(error instanceof ContextExceededError)) throw error;
      events.push(overflowEvent(ctx, role, schemaName, attempt, model.name, template.sha256, error));
      throw new ContextExceededEnding(role, events, error);
    }
    // A server's refusal of the model's tool call is not a reply to parse: its message is kept as what happened.
    const parsed = refusedToolCall(response.output_fault) ?? parseCached(response.text, schema, response.done_reason);
    let error: string | undefined;
    if (!parsed.ok) error = `${parsed.failure}: ${parsed.error}`;
    else if (validate) {
      const problems = validate(parsed.value);
      if (problems.length > 0) error = `invalid ${schemaName}: ${problems.join('; ')}`;
    }
    const warnings = response.format_warnings?.length ? [...new Set([...response.format_warnings, ...parsed.warnings])] : parsed.warnings;
    // Built by assignment, not conditional spreads: this runs for every model call of every episode.
    const event: Extract<TraceEventInput, { type: 'model_call' }> = {
      type: 'model_call',
      role,
      model: response.model,
      schema: schemaName,
      attempt,
      outcome: error === undefined ? 'ok' : 'invalid',
      text: response.text,
      format_warnings: warnings,
      tokens_in: response.tokens_in,
      tokens_out: response.tokens_out,
      duration_ms: response.duration_ms,
      load_ms: response.load_ms,
      prompt_sha256: template.sha256,
    };
    if (error !== undefined) event.error = error;
    if (parsed.ok) event.value = parsed.value;
    if (response.output_fault) event.output_fault = response.output_fault;
    if (response.attempts !== undefined) event.attempts = response.attempts;
    if (response.cold_load) event.cold_load = true;
    if (response.cached) event.cached = true;
    if (response.sent) {
      const messages = response.sent.messages.map((message) => ctx.trace.storeText(message.role, message.content));
      event.sent = { messages, options: response.sent.options };
    }
    if (response.reasoning) event.thinking = ctx.trace.storeText('thinking', response.reasoning);
    events.push(event);
    if (error === undefined && parsed.ok) return { events, result: { ok: true, value: parsed.value } };
    if (attempt === 2) return { events, result: { ok: false, error: error ?? 'invalid reply' } };
    repair = { text: response.text, error: error ?? 'invalid reply' };
  }
  throw new Error('unreachable');
}
