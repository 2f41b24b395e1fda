// Indexes one episode's trace for the rules: the plans and who wrote them, the model call behind each tool call, what was seen when.
// The links the strategies record (tool_call.call/plan, plan.call, plan_revision.call) are read as they are; traces
// written before the links existed (schemaVersion 1) fall back to matching by role, order and arguments.
import type { PlanSnapshot, TraceEvent } from '../records/index.js';
import { canonical, normalizePath } from './targets.js';

export type ModelCallEvent = Extract<TraceEvent, { type: 'model_call' }>;
export type ToolCallEvent = Extract<TraceEvent, { type: 'tool_call' }>;
export type CheckEvent = Extract<TraceEvent, { type: 'check' }>;
export type StepEndEvent = Extract<TraceEvent, { type: 'step_end' }>;
export type EndEvent = Extract<TraceEvent, { type: 'end' }>;
export type BudgetEvent = Extract<TraceEvent, { type: 'budget' }>;
export type AgentProcessEvent = Extract<TraceEvent, { type: 'agent_process' }>;

/** A step as a plan snapshot records it; `revision` is the plan revision that introduced it (0 = first plan). */
export interface PlannedStep {
  id: string;
  does: string;
  tool: string;
  args: Record<string, unknown> | null;
  depends_on: string[];
  /** none | reversible | irreversible, as the plan declared it. */
  side_effect: string;
  revision: number;
}

/** One plan version: the first plan (`planner`) or a revision (`replanner`), with the model call that wrote it. */
export interface PlanVersion {
  revision: number;
  /** The plan or plan_revision event. */
  eventId: number;
  author: 'planner' | 'replanner';
  /** The model call whose reply became this plan (the plan event itself if none is found). */
  authorCallId: number;
  doneWhen: Array<Record<string, unknown>>;
  steps: PlannedStep[];
  invalidated?: string;
}

/** Everything the rules read. Model calls are kept without raw text or error text: rules judge parsed values only. */
export interface TraceIndex {
  events: readonly TraceEvent[];
  /** `plan` for plan-up-front, plan-and-replan and gated-to-plan; `agent` for direct, ReAct and gated-to-direct. */
  family: 'plan' | 'agent';
  modelCalls: ModelCallEvent[];
  toolCalls: ToolCallEvent[];
  plans: PlanVersion[];
  gate?: { eventId: number; callId: number; route: 'direct' | 'plan-replan' };
  end?: EndEvent;
  budget?: BudgetEvent;
  /**
   * An external agent's process (`stratbench run --agent-cmd`): how it exited. Its tool calls carry their own `call`
   * link, absent when no proxied model reply asked for the call, so none is guessed for them.
   */
  agentProcess?: AgentProcessEvent;
  doneWhenChecks: CheckEvent[];
  finalChecks: CheckEvent[];
  stepEnds: StepEndEvent[];
  /** tool_call id (or the step_end id of a step whose call the harness refused) → the model call that chose it. */
  callerOf: ReadonlyMap<number, number>;
}

function stepsOf(plan: PlanSnapshot): PlannedStep[] {
  return plan.steps.map(({ id, does, tool, args, depends_on, side_effect, revision }) => ({ id, does, tool, args, depends_on, side_effect, revision }));
}

const lastBefore = <T extends { id: number }>(items: readonly T[], id: number, keep: (item: T) => boolean = () => true): T | undefined =>
  [...items].reverse().find((item) => item.id < id && keep(item));

/**
 * Builds the index. Pure. Model-call text, error strings and output-fault evidence (and the parse error an
 * invalid_output ending quotes) are blanked, so no rule can read anything but the parsed reply (this is also
 * what keeps the scripted model's fault markers out of reach).
 */
export function indexTrace(trace: readonly TraceEvent[]): TraceIndex {
  const events = trace.map((e): TraceEvent => {
    if (e.type === 'model_call') {
      const outputFault = (e as { output_fault?: { kind: string } }).output_fault;
      return {
        ...e,
        text: '',
        ...(e.error === undefined ? {} : { error: 'invalid reply' }),
        ...(outputFault ? { output_fault: { kind: outputFault.kind, detail: '' } } : {}),
      } as TraceEvent;
    }
    // An invalid_output ending carries the parse error, which may quote the raw reply.
    return e.type === 'end' && e.status === 'invalid_output' ? { ...e, message: 'invalid reply' } : e;
  });
  const modelCalls = events.filter((e): e is ModelCallEvent => e.type === 'model_call');
  const toolCalls = events.filter((e): e is ToolCallEvent => e.type === 'tool_call');
  // Not the reporter: a ReAct run that a budget ends asks the reporter too.
  const planRoles = new Set(['planner', 'executor', 'replanner']);
  const family = events.some((e) => e.type === 'plan' || (e.type === 'model_call' && planRoles.has(e.role))) ? 'plan' : 'agent';
  const plans: PlanVersion[] = [];
  // An external agent's trace links every tool call a model reply asked for; an unlinked one the process made on its own.
  const external = events.some((e) => e.type === 'agent_process');
  const callerOf = new Map<number, number>();
  const claimed = new Set<number>();
  const index: TraceIndex = {
    events,
    family,
    modelCalls,
    toolCalls,
    plans,
    doneWhenChecks: [],
    finalChecks: [],
    stepEnds: [],
    callerOf,
  };
  for (const event of events) {
    switch (event.type) {
      case 'plan':
      case 'plan_revision': {
        const author = event.type === 'plan' ? 'planner' : 'replanner';
        const callId = event.call ?? lastBefore(modelCalls, event.id, (c) => c.role === author && c.outcome === 'ok')?.id;
        plans.push({
          revision: event.revision,
          eventId: event.id,
          author,
          authorCallId: callId ?? event.id,
          doneWhen: event.plan.done_when,
          steps: stepsOf(event.plan),
          ...(event.type === 'plan_revision' ? { invalidated: event.invalidated } : {}),
        });
        break;
      }
      case 'gate': {
        const callId = event.call ?? lastBefore(modelCalls, event.id, (c) => c.role === 'gate')?.id;
        index.gate = { eventId: event.id, callId: callId ?? event.id, route: event.route };
        break;
      }
      case 'tool_call': {
        if (event.call !== undefined) callerOf.set(event.id, event.call);
        else if (external) {
          // No proxied model reply asked for it: the agent's process called the tool on its own.
        } else if (family === 'agent') {
          const call = lastBefore(modelCalls, event.id, (c) => c.role === 'agent' || c.role === 'direct');
          if (call) callerOf.set(event.id, call.id);
        } else if (event.step_id !== undefined && event.attempt > 1) {
          const previous = lastBefore(toolCalls, event.id, (t) => t.step_id === event.step_id);
          const caller = previous && callerOf.get(previous.id);
          if (caller !== undefined) callerOf.set(event.id, caller);
        } else {
          const key = canonical({ tool: event.tool, args: event.args });
          const call = modelCalls.find(
            (c) => c.id < event.id && c.role === 'executor' && c.outcome === 'ok' && !claimed.has(c.id) && canonical(c.value) === key,
          );
          if (call) {
            claimed.add(call.id);
            callerOf.set(event.id, call.id);
          }
        }
        break;
      }
      case 'step_end':
        index.stepEnds.push(event);
        if (event.status === 'failed' && event.reason?.startsWith('the executor returned')) {
          const call = lastBefore(modelCalls, event.id, (c) => c.role === 'executor');
          if (call) callerOf.set(event.id, call.id);
        }
        break;
      case 'check':
        (event.scope === 'done_when' ? index.doneWhenChecks : index.finalChecks).push(event);
        break;
      case 'budget':
        index.budget = event;
        break;
      case 'agent_process':
        index.agentProcess = event;
        break;
      case 'end':
        index.end = event;
        break;
      default:
        break;
    }
  }
  return index;
}

/**
 * The plan step a tool call ran and the plan version that introduced it (whose author wrote its args). The plan
 * in force is the call's `plan` link, else (older traces, step_end events) the last plan before it.
 */
export function stepOf(
  index: TraceIndex,
  call: { id: number; step_id?: string | undefined; plan?: number | undefined },
): { step: PlannedStep; author: PlanVersion } | undefined {
  if (call.step_id === undefined) return undefined;
  const plan =
    (call.plan === undefined ? undefined : index.plans.find((p) => p.eventId === call.plan)) ?? [...index.plans].reverse().find((p) => p.eventId < call.id);
  const step = plan?.steps.find((s) => s.id === call.step_id);
  if (!plan || !step) return undefined;
  const author = index.plans.find((p) => p.revision === step.revision && p.eventId <= plan.eventId) ?? plan;
  return { step, author };
}

/** Whether `needle` (a path or text) showed up before `eventId`: a successful call on that path, or in any tool output. */
export function observedBefore(index: TraceIndex, eventId: number, needle: string): boolean {
  const path = normalizePath(needle);
  return index.toolCalls.some(
    (t) =>
      t.id < eventId &&
      ((t.status === 'success' && typeof t.args['path'] === 'string' && normalizePath(t.args['path']) === path) ||
        t.output.includes(needle) ||
        t.output.includes(path)),
  );
}

/** The last contiguous block of done_when check events (the final evaluation), or [] when none ran. */
export function lastDoneWhenBlock(index: TraceIndex): CheckEvent[] {
  const checks = index.doneWhenChecks;
  if (checks.length === 0) return [];
  const block = [checks[checks.length - 1]!];
  for (let i = checks.length - 2; i >= 0 && checks[i]!.id === block[0]!.id - 1; i--) block.unshift(checks[i]!);
  return block;
}

/** The last model call made by one of `roles`. */
export function lastCallOf(index: TraceIndex, roles: readonly string[]): ModelCallEvent | undefined {
  return [...index.modelCalls].reverse().find((c) => roles.includes(c.role));
}

/**
 * The single agent's first reply that ended its work the way the episode ended (`finish`, or `stop`): where a strategy
 * lets the agent try again after it finished (a Reflexion-style retry) and it finishes the same way, the first such
 * reply is the first erroneous event. The last agent call when no reply says so (ReAct and direct have one).
 */
export function endingCallOf(index: TraceIndex, roles: readonly string[]): ModelCallEvent | undefined {
  const action = index.end?.status === 'stopped' ? 'stop' : 'finish';
  const first = index.modelCalls.find((c) => roles.includes(c.role) && (c.value as { action?: unknown } | undefined)?.action === action);
  return first ?? lastCallOf(index, roles);
}

/**
 * The agent's tool call as an explanation names it: "the agent's call at event 3" (the model call that chose it), or
 * "the agent's tool call at event 7, which no model call asked for," where none did (an external agent's process
 * calling a tool on its own; issue 28).
 */
export function agentCallWords(index: TraceIndex, toolCall: { id: number }): string {
  const caller = index.callerOf.get(toolCall.id);
  return caller === undefined ? `the agent's tool call at event ${toolCall.id}, which no model call asked for,` : `the agent's call at event ${caller}`;
}

/** The event that chose a tool call, in words: "event 3" (its model call), or "event 7 (no model call asked for it)" (the tool call itself). */
export function chosenAt(index: TraceIndex, toolCall: { id: number }): string {
  const caller = index.callerOf.get(toolCall.id);
  return caller === undefined ? `event ${toolCall.id} (no model call asked for it)` : `event ${caller}`;
}

/** Where the agent decided how the episode ended, and what the explanation adds about it. */
export interface EndingChoice {
  /** The first erroneous event: the model call that proposed the ending, or the end event (see endingChoiceOf); undefined without either. */
  id: number | undefined;
  /** The model call that proposed the ending, when one did and the ending is what it proposed. */
  call?: ModelCallEvent | undefined;
  /** Words to add when the agent's process, not its model, decided the ending ("" when the model did). */
  note: string;
}

const CUT = /… \[cut by stratbench: \d+ more characters\]$/;

/** Whether `sent` (as the bridge kept it, possibly cut) is `proposed`. */
const sameText = (sent: string, proposed: string): boolean => {
  const kept = sent.replace(CUT, '');
  return kept === sent ? sent.trim() === proposed.trim() : proposed.startsWith(kept);
};

/**
 * The ending's choice. An external agent's process sends its own `finish`/`stop` through the MCP server and may rewrite
 * what its model proposed (issue 28): the first model call proposing that ending with the very answer (or message) sent,
 * else the end event, with a note saying the process sent a different one than its model proposed (or that no model
 * call proposed one). Every other trace: endingCallOf (an ending the harness took from a reply is the reply's).
 */
export function endingChoiceOf(index: TraceIndex, roles: readonly string[]): EndingChoice {
  const end = index.end;
  if (index.agentProcess === undefined || end === undefined || (end.reason !== 'finished' && end.reason !== 'stopped')) {
    const call = endingCallOf(index, roles);
    return { id: call?.id, call, note: '' };
  }
  const stopped = end.status === 'stopped';
  const field = stopped ? 'message' : 'answer';
  const sent = (stopped ? end.message : end.answer) ?? '';
  const proposals = index.modelCalls.filter(
    (c) => roles.includes(c.role) && (c.value as { action?: unknown } | undefined)?.action === (stopped ? 'stop' : 'finish'),
  );
  const same = proposals.find((c) => sameText(sent, String((c.value as Record<string, unknown>)[field] ?? '')));
  if (same) return { id: same.id, call: same, note: '' };
  const proposed = proposals[proposals.length - 1];
  const what = stopped ? 'stop message' : 'answer';
  return {
    id: end.id,
    note: proposed
      ? `; the agent process sent a different ${what} than its model proposed at event ${proposed.id}`
      : `; no model call proposed this ${what}: the agent process sent it on its own`,
  };
}
