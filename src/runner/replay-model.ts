// Replaying a recorded episode's model calls (counterfactual replay): each role answered from the trace, request by request.
import type { ChatModel, ChatRequest, ChatResponse } from '../models/types.js';
import { canonicalJson, storedTextHash, type TraceEvent } from '../records/index.js';

export type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;

/**
 * Answers a role from the model calls a trace recorded: the call whose messages after the system prompt (by content
 * hash) equal the request's,
 * or — for a trace whose backend kept no messages — the role's next recorded call in order. A request the trace never
 * had (the swap changed what this role sees) cannot be replayed without a new model call: the oracle answers it and
 * `unreplayed` counts it, so a verdict can say how much of it rests on the oracle.
 */
export class ReplayModel implements ChatModel {
  readonly name = 'replay';
  readonly deterministic = true;
  unreplayed = 0;
  /** Calls answered from the trace. */
  replayed = 0;
  private readonly byMessages = new Map<string, { text: string; index: number }>();
  /** Each role's recorded calls in trace order. */
  private readonly inOrder = new Map<string, ModelCall[]>();
  /** Each role's next recorded call, past the last one answered (in order, or matched by messages). */
  private readonly next = new Map<string, number>();
  private readonly keyed: boolean;
  private readonly stepOf = new Map<number, RecordedStep>();
  private readonly madeBefore = new Map<number, string[]>();

  constructor(
    trace: readonly TraceEvent[],
    private readonly fallback: ChatModel,
  ) {
    for (const event of trace) {
      if (event.type !== 'model_call') continue;
      const calls = this.inOrder.get(event.role) ?? [];
      // The first message sent is the system prompt, which a backend may extend (Ollama adds the schema line): the rest identify the request.
      if (event.sent) this.byMessages.set(`${event.role}|${event.sent.messages.slice(1).join(',')}`, { text: event.text, index: calls.length });
      calls.push(event);
      this.inOrder.set(event.role, calls);
    }
    this.keyed = this.byMessages.size > 0;
    // The plan step each executor call answered: its tool_call names the call, the plan event and the step id.
    // And the tool calls each model call came after: what its history held.
    const plans = new Map<number, ReadonlyArray<RecordedStep & { id: string }>>();
    const made: string[] = [];
    for (const event of trace) {
      if (event.type === 'model_call') this.madeBefore.set(event.id, [...made]);
      if (event.type === 'tool_call') made.push(observed(event));
      if (event.type === 'plan' || event.type === 'plan_revision') plans.set(event.id, event.plan.steps as ReadonlyArray<RecordedStep & { id: string }>);
      if (event.type === 'tool_call' && event.call !== undefined && event.plan !== undefined) {
        const step = plans.get(event.plan)?.find((candidate) => candidate.id === event.step_id);
        if (step) this.stepOf.set(event.call, step);
      }
    }
  }

  /** The plan step a recorded executor call answered, where its tool call says so. */
  stepAnswered(call: ModelCall): RecordedStep | undefined {
    return this.stepOf.get(call.id);
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const text = this.recorded(request);
    if (text !== undefined) {
      this.replayed += 1;
      return replayedText(text);
    }
    this.unreplayed += 1;
    return this.fallback.chat(request);
  }

  /** The recorded calls of a role, in trace order. */
  calls(role: string): readonly ModelCall[] {
    return this.inOrder.get(role) ?? [];
  }

  /**
   * The recorded reply to this very request: by its messages (after the system prompt) where the trace kept them,
   * else the role's next recorded call in order. Undefined when the trace never had it.
   */
  recorded(request: ChatRequest): string | undefined {
    if (this.keyed) {
      const hashes = request
        .messages()
        .filter((message) => message.role !== 'system')
        .map((message) => storedTextHash(message.role, message.content));
      const hit = this.byMessages.get(`${calledRole(request)}|${hashes.join(',')}`);
      if (hit) this.next.set(calledRole(request), hit.index + 1);
      return hit?.text;
    }
    // Without messages, the role's next reply in order, where the request is the one it answered as far as the trace
    // tells: the same tool calls made before it (what messages would have shown) and, for an executor, the same step.
    return this.nextFitting(calledRole(request), (call) => this.sawTheSame(call, request.view) && fitsStep(call, request.view, this.stepAnswered(call)))?.text;
  }

  /** Whether the request's history (tool, args, status of each call) ends as the tool calls made before `call` did. */
  private sawTheSame(call: ModelCall, view: ChatRequest['view']): boolean {
    const history = 'history' in view ? (view.history as ReadonlyArray<{ tool: string; args: unknown; status: string }>) : undefined;
    if (history === undefined) return true;
    const before = this.madeBefore.get(call.id) ?? [];
    if (history.length > before.length) return false;
    const tail = before.slice(before.length - history.length);
    return history.every((o, k) => observed(o) === tail[k]);
  }

  /**
   * The role's next recorded reply in order, for a request the swap changed: what the role went on to do in the
   * episode (the minimal assumption about a role that was not swapped). Undefined once its record is spent.
   */
  positional(role: string): string | undefined {
    return this.positionalCall(role)?.text;
  }

  /** `positional`, as the recorded model_call event (its parsed `value` included). */
  positionalCall(role: string): ModelCall | undefined {
    const call = this.peek(role);
    if (call !== undefined) this.next.set(role, (this.next.get(role) ?? 0) + 1);
    return call;
  }

  /** The role's next recorded call in order, without moving past it. */
  peek(role: string): ModelCall | undefined {
    return (this.inOrder.get(role) ?? [])[this.next.get(role) ?? 0];
  }

  /**
   * The role's next recorded call in order where `fits` accepts it for this request, and only then moves past it: a
   * reply that does not answer this request stays for the one it may answer.
   */
  nextFitting(role: string, fits: (call: ModelCall) => boolean): ModelCall | undefined {
    const call = this.peek(role);
    return call !== undefined && fits(call) ? this.positionalCall(role) : undefined;
  }

  /** Moves a role's place in its record (past a swapped decision and the repairs it made unnecessary). */
  skipTo(role: string, index: number): void {
    this.next.set(role, index);
  }
}

/** The role a request calls: a declared role by its name, else the built-in role. */
export const calledRole = (request: ChatRequest): string => request.declaredRole ?? request.role;

/**
 * The role's next recorded reply, for a request the swap changed, where it still answers this request: an executor's
 * recorded call is what it did for *its* step, so it stands only for a step of the same tool (and, where the plan gave
 * them, the same arguments); anything else its contract decides (the stand-in). Undefined then, or once spent.
 */
export function ownNext(replay: ReplayModel, role: string, request: ChatRequest): string | undefined {
  return replay.nextFitting(role, (recorded) => fitsStep(recorded, request.view, replay.stepAnswered(recorded)))?.text;
}

/** One tool call as a history compares it: tool, canonical args, status. */
const observed = (o: { tool: string; args: unknown; status: string }): string => `${o.tool}|${canonicalJson(o.args)}|${o.status}`;

/** A plan step as a trace's plan events keep it. */
type RecordedStep = { tool: string; args: Record<string, unknown> | null; does: string };

/**
 * Whether a recorded reply, replayed in order, answers this request: always, except an executor's call, which is what
 * it did for *its* step — the same step here (same tool, and the same args where the plan gave them, else the same
 * description), whatever the call itself did (a drift is replayed as the drift it was). Where the trace does not say
 * which step a call answered, the call must match the step: same tool, and the step's args where it gave them.
 */
function fitsStep(recorded: ModelCall, view: ChatRequest['view'], answered: RecordedStep | undefined): boolean {
  if (view.role !== 'executor') return true;
  if (answered !== undefined) {
    if (answered.tool !== view.step.tool) return false;
    return answered.args !== null && view.step.args !== null
      ? canonicalJson(answered.args) === canonicalJson(view.step.args)
      : answered.args === view.step.args && answered.does === view.step.does;
  }
  const call = recorded.value as { tool?: unknown; args?: unknown } | undefined;
  if (call?.tool !== view.step.tool) return false;
  return view.step.args === null || canonicalJson(call.args) === canonicalJson(view.step.args);
}

export const replayedText = (text: string): ChatResponse => ({
  text,
  tokens_in: 0,
  tokens_out: 0,
  duration_ms: 0,
  load_ms: 0,
  model: 'replay',
  done_reason: 'stop',
});
