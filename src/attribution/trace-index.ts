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
        else if (family === 'agent') {
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
