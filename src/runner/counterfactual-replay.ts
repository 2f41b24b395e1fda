// Counterfactual replay (issue 11 §2): swap one role of a failed episode for the reference oracle, replay every other role from the trace.
import { ROLES, type ChatModel, type ChatRequest, type ChatResponse, type Role } from '../models/types.js';
import type { ScriptedTask } from '../models/scripted.js';
import {
  canonicalJson,
  storedTextHash,
  type CounterfactualDecision,
  type CounterfactualSwap,
  type EpisodeCounterfactual,
  type EpisodeRecord,
  type TraceEvent,
} from '../records/index.js';
import { strategyByName, type DeclaredRole, type StrategyName } from '../strategies/index.js';
import { OracleModel } from './counterfactual-oracle.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';

type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;

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
const calledRole = (request: ChatRequest): string => request.declaredRole ?? request.role;

/**
 * The component a role's mistakes are counted against (decision 0004): direct and ReAct are the agent; the reporter is
 * the executor's; a declared role's is its declared component's (`none`: `unattributed`, as attribution says).
 */
export const componentOf = (role: string, declared: readonly DeclaredRole[] = []): string => {
  const own = declared.find((candidate) => candidate.name === role);
  if (own !== undefined) return own.component === 'none' ? 'unattributed' : componentOf(own.component);
  return role === 'direct' ? 'agent' : role === 'reporter' ? 'executor' : role;
};

/** The reply schema each built-in role writes: the oracle stands in for a declared role only where it asks for its model role's. */
const ROLE_SCHEMAS: Record<Role, string> = {
  direct: 'action',
  agent: 'action',
  planner: 'plan',
  executor: 'executor_call',
  replanner: 'replan',
  reporter: 'report',
  gate: 'gate',
};

/**
 * Why the oracle cannot stand in for a declared role, or undefined where it can: it plays the built-in roles' replies
 * from their views, so it answers a declared role as its model role only where every call of the role asked for that
 * role's reply schema.
 */
export function oracleAbstains(role: DeclaredRole, calls: readonly ModelCall[]): string | undefined {
  const schemas = [...new Set(calls.map((call) => call.schema))];
  const own = ROLE_SCHEMAS[role.model];
  if (schemas.every((schema) => schema === own)) return undefined;
  return `no oracle for the declared role ${role.name}: it asks for ${schemas.filter((schema) => schema !== own).join(', ')} replies, and the oracle writes only the built-in roles' (as the ${role.model} it would write ${own})`;
}

/** How many decisions of one role the decision-level replay tries at most (a budget-bound episode has fewer). */
export const MAX_DECISIONS_PER_ROLE = 40;

/**
 * Replays a failed episode in two passes, calling no model: replayed roles answer from the trace, the oracle from the
 * task's reference, and the replays' messages are not stored (no `texts` sink).
 * 1. Each role it used (the reporter too: a report that misstates right results is fixed by the oracle's report
 *    alone, issue 27 kind 5) played by the oracle, every other role replayed from the trace.
 * 2. For each role whose swap fixed it, each of its decisions alone (issue 27 §2, minimal intervention): the role's
 *    output at that one model call replaced by the oracle's, everything before replayed, and after it the role goes on
 *    as it did in the episode (its later replies replayed, by request where the trace has it, else in order) while
 *    other roles answer from the trace where it has their request, else from the oracle (`unreplayed`). A stand-in
 *    is bound to its role's contract: where the oracle has no output of its own (an executor step left to it that no
 *    reference call stands for, `OracleModel.abstains`) it does not intervene.
 * The verdict blames the decisive decision — of the decisions that fix the episode alone, the one resting least on the
 * oracle for other roles, then the earliest event (Who&When's "decisive error") — and keeps every fixing swap; where
 * no single decision fixes it, the role swap resting least on the oracle, then the earliest role.
 * Returns the record's `counterfactual` field. Throws only for a harness bug (a record whose strategy is unknown).
 */
export async function replayCounterfactuals(record: EpisodeRecord, task: EpisodeTask & ScriptedTask, env: RunEnvironment): Promise<EpisodeCounterfactual> {
  const strategy = record.strategy as StrategyName;
  const declaredRoles = strategyByName(strategy)?.declaredRoles ?? [];
  if (strategyByName(strategy) === undefined) throw new Error(`unknown strategy ${record.strategy}`);
  const oracle = new OracleModel([task], { replans: strategy !== 'plan-up-front' });
  const firstCall = new Map<string, number>();
  for (const event of record.trace) if (event.type === 'model_call' && !firstCall.has(event.role)) firstCall.set(event.role, event.id);
  // The built-in roles it called, then the roles the strategy declared (each swapped alone, by its own name).
  const roles: string[] = [...ROLES.filter((role) => firstCall.has(role)), ...declaredRoles.map((role) => role.name).filter((role) => firstCall.has(role))];
  const { texts: _unstored, ...quiet } = env;
  const replayWith = async (role: string, model: (replay: ReplayModel) => ChatModel, tag: string): Promise<{ success: boolean; replay: ReplayModel }> => {
    const replay = new ReplayModel(record.trace, oracle);
    const swapped = model(replay);
    // Requests are routed by the role they call, so a declared role is swapped without its model role, and the other way round.
    const routed: ChatModel = {
      name: 'counterfactual',
      deterministic: true,
      chat: (request) => (calledRole(request) === role ? swapped : replay).chat(request),
    };
    const models = Object.fromEntries(ROLES.map((r) => [r, routed])) as Record<Role, ChatModel>;
    const replayedEpisode = await runEpisode(
      { task, strategy, epoch: record.epoch, seed: record.seed },
      { ...quiet, models, configHash: `${env.configHash}|counterfactual:${tag}` },
    );
    return { success: replayedEpisode.success, replay };
  };

  const swaps: Record<string, CounterfactualSwap> = {};
  for (const role of roles) {
    const declared = declaredRoles.find((candidate) => candidate.name === role);
    const abstained = declared && oracleAbstains(declared, new ReplayModel(record.trace, oracle).calls(role));
    if (abstained !== undefined) {
      swaps[role] = { success: false, oracle_calls: 0, replayed: 0, unreplayed: 0, abstained };
      continue;
    }
    let oracleCalls = 0;
    const { success, replay } = await replayWith(
      role,
      (replay) => ({
        name: 'oracle',
        deterministic: true,
        chat: async (request) => {
          // Where the oracle has no output of its own, the role's own reply stands (the stand-in does not intervene).
          const own = oracle.abstains(request) ? (replay.recorded(request) ?? ownNext(replay, role, request)) : undefined;
          if (own !== undefined) return replayedText(own);
          oracleCalls += 1;
          return oracle.chat(request);
        },
      }),
      role,
    );
    swaps[role] = { success, oracle_calls: oracleCalls, replayed: replay.replayed, unreplayed: replay.unreplayed };
  }
  const fixedBy = roles.filter((role) => swaps[role]!.success);

  const decisions: CounterfactualDecision[] = [];
  for (const role of fixedBy) {
    const calls = new ReplayModel(record.trace, oracle).calls(role);
    const starts = calls.flatMap((call, index) => (call.attempt === 1 ? [index] : [])).slice(0, MAX_DECISIONS_PER_ROLE);
    for (const [k, index] of starts.entries()) {
      const resume = starts[k + 1] ?? calls.length;
      let seen = 0;
      let oracleCalls = 0;
      let intervened = false;
      let own = 0;
      const { success, replay } = await replayWith(
        role,
        (replay) => ({
          name: 'one-decision',
          deterministic: true,
          chat: async (request) => {
            const n = seen++;
            if (n < index) return replay.chat(request);
            if (n === index) {
              if (oracle.abstains(request)) return replay.chat(request);
              intervened = true;
              // The repairs this decision needed are not asked for once the stand-in answered: the role goes on after them.
              replay.skipTo(role, resume);
              oracleCalls += 1;
              return oracle.chat(request);
            }
            const text = replay.recorded(request) ?? ownNext(replay, role, request);
            if (text !== undefined) {
              own += 1;
              return replayedText(text);
            }
            oracleCalls += 1;
            return oracle.chat(request);
          },
        }),
        `${role}@${calls[index]!.id}`,
      );
      if (!intervened) continue;
      decisions.push({ role, event: calls[index]!.id, success, oracle_calls: oracleCalls, replayed: replay.replayed + own, unreplayed: replay.unreplayed });
    }
  }
  const fixing = decisions.filter((d) => d.success);
  const best = [...fixedBy].sort((a, b) => swaps[a]!.unreplayed - swaps[b]!.unreplayed || firstCall.get(a)! - firstCall.get(b)!)[0];
  const decisive = fixing.filter((d) => d.role === best).sort((a, b) => a.event - b.event)[0];
  const component = best === undefined ? null : componentOf(best, declaredRoles);
  const rules = record.attribution ? `${record.attribution.component}.${record.attribution.mode}` : undefined;
  return {
    swaps,
    fixed_by: fixedBy,
    decisions: fixing,
    decisive: decisive ? { role: decisive.role, event: decisive.event } : null,
    component,
    ...(rules ? { rules } : {}),
    agrees_with_rules: component === null || record.attribution === null ? null : component === record.attribution.component,
    extra_calls: [...Object.values(swaps), ...decisions].reduce((sum, swap) => sum + swap.oracle_calls + swap.unreplayed, 0),
  };
}

/**
 * The role's next recorded reply, for a request the swap changed, where it still answers this request: an executor's
 * recorded call is what it did for *its* step, so it stands only for a step of the same tool (and, where the plan gave
 * them, the same arguments); anything else its contract decides (the stand-in). Undefined then, or once spent.
 */
function ownNext(replay: ReplayModel, role: string, request: ChatRequest): string | undefined {
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

const replayedText = (text: string): ChatResponse => ({ text, tokens_in: 0, tokens_out: 0, duration_ms: 0, load_ms: 0, model: 'replay', done_reason: 'stop' });

/**
 * The record with its counterfactual replay added, for a failed episode that did not end in an infrastructure error
 * (an error is no strategy's failure: nothing to find) and whose task has a reference; any other record as it is.
 */
export async function withCounterfactual(record: EpisodeRecord, task: EpisodeTask, env: RunEnvironment): Promise<EpisodeRecord> {
  if (record.success || record.outcome.status === 'error' || task.reference === undefined) return record;
  const counterfactual = await replayCounterfactuals(record, { ...task, reference: task.reference }, env);
  return { ...record, counterfactual };
}

/** One line per verdict: the swaps that fixed it (with the oracle's share), the counterfactual component, the rules' verdict. */
export function renderCounterfactualVerdict(v: EpisodeCounterfactual): string {
  const swaps = Object.entries(v.swaps)
    .map(
      ([role, s]) =>
        `${role}:${s.abstained !== undefined ? 'no-oracle' : s.success ? 'fixes' : 'fails'}${s.unreplayed ? ` (+${s.unreplayed} unreplayed)` : ''}`,
    )
    .join(' ');
  const decisive = v.decisive ? `  decisive ${v.decisive.role}@${v.decisive.event}` : '';
  return `counterfactual ${v.component ?? 'none'}${decisive}  rules ${v.rules ?? '-'}${v.agrees_with_rules === null ? '' : v.agrees_with_rules ? '  agree' : '  DISAGREE'}  [${swaps}]`;
}
