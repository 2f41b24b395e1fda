// Counterfactual replay (issue 11 §2): swap one role of a failed episode for the reference oracle, replay every other role from the trace.
import { ROLES, type ChatModel, type ChatRequest, type ChatResponse, type Role } from '../models/types.js';
import type { ScriptedTask } from '../models/scripted.js';
import { storedTextHash, type CounterfactualSwap, type EpisodeCounterfactual, type EpisodeRecord, type TraceEvent } from '../records/index.js';
import { STRATEGIES, type StrategyName } from '../strategies/index.js';
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
  private readonly byMessages = new Map<string, string>();
  private readonly inOrder = new Map<string, ModelCall[]>();
  private readonly next = new Map<string, number>();

  constructor(
    trace: readonly TraceEvent[],
    private readonly fallback: ChatModel,
  ) {
    for (const event of trace) {
      if (event.type !== 'model_call') continue;
      // The first message sent is the system prompt, which a backend may extend (Ollama adds the schema line): the rest identify the request.
      if (event.sent) this.byMessages.set(`${event.role}|${event.sent.messages.slice(1).join(',')}`, event.text);
      else this.inOrder.set(event.role, [...(this.inOrder.get(event.role) ?? []), event]);
    }
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const text = this.recorded(request);
    if (text !== undefined) {
      this.replayed += 1;
      return { text, tokens_in: 0, tokens_out: 0, duration_ms: 0, load_ms: 0, model: this.name, done_reason: 'stop' };
    }
    this.unreplayed += 1;
    return this.fallback.chat(request);
  }

  private recorded(request: ChatRequest): string | undefined {
    if (this.byMessages.size > 0) {
      const hashes = request
        .messages()
        .filter((message) => message.role !== 'system')
        .map((message) => storedTextHash(message.role, message.content));
      return this.byMessages.get(`${request.role}|${hashes.join(',')}`);
    }
    const calls = this.inOrder.get(request.role) ?? [];
    const n = this.next.get(request.role) ?? 0;
    this.next.set(request.role, n + 1);
    return calls[n]?.text;
  }
}

/** The component a role's mistakes are counted against (decision 0004): direct and ReAct are the agent; the reporter is the executor's. */
export const componentOf = (role: string): string => (role === 'direct' ? 'agent' : role === 'reporter' ? 'executor' : role);

/**
 * Replays a failed episode once per role it used (the reporter too: a report that misstates right results is fixed by
 * the oracle's report alone, issue 27 kind 5), with that role played by the oracle and every other role replayed from
 * the trace. No model is called: replayed roles answer from
 * the trace, the oracle from the task's reference, and the replays' messages are not stored (no `texts` sink).
 * Returns the record's `counterfactual` field. Throws only for a harness bug (a record whose strategy is unknown).
 */
export async function replayCounterfactuals(record: EpisodeRecord, task: EpisodeTask & ScriptedTask, env: RunEnvironment): Promise<EpisodeCounterfactual> {
  const strategy = record.strategy as StrategyName;
  if (!(strategy in STRATEGIES)) throw new Error(`unknown strategy ${record.strategy}`);
  const oracle = new OracleModel([task], { replans: strategy !== 'plan-up-front' });
  const firstCall = new Map<string, number>();
  for (const event of record.trace) if (event.type === 'model_call' && !firstCall.has(event.role)) firstCall.set(event.role, event.id);
  const roles = ROLES.filter((role) => firstCall.has(role));
  const { texts: _unstored, ...quiet } = env;
  const swaps: Partial<Record<Role, CounterfactualSwap>> = {};
  for (const role of roles) {
    let oracleCalls = 0;
    const counting: ChatModel = {
      name: 'oracle',
      deterministic: true,
      chat: (request) => {
        oracleCalls += 1;
        return oracle.chat(request);
      },
    };
    const replay = new ReplayModel(record.trace, oracle);
    const models = Object.fromEntries(ROLES.map((r) => [r, r === role ? counting : replay])) as Record<Role, ChatModel>;
    const replayed = await runEpisode(
      { task, strategy, epoch: record.epoch, seed: record.seed },
      { ...quiet, models, configHash: `${env.configHash}|counterfactual:${role}` },
    );
    swaps[role] = { success: replayed.success, oracle_calls: oracleCalls, replayed: replay.replayed, unreplayed: replay.unreplayed };
  }
  const fixedBy = roles.filter((role) => swaps[role]!.success);
  const best = [...fixedBy].sort((a, b) => swaps[a]!.unreplayed - swaps[b]!.unreplayed || firstCall.get(a)! - firstCall.get(b)!)[0];
  const component = best === undefined ? null : componentOf(best);
  const rules = record.attribution ? `${record.attribution.component}.${record.attribution.mode}` : undefined;
  return {
    swaps,
    fixed_by: fixedBy,
    component,
    ...(rules ? { rules } : {}),
    agrees_with_rules: component === null || record.attribution === null ? null : component === record.attribution.component,
    extra_calls: Object.values(swaps).reduce((sum, swap) => sum + swap.oracle_calls + swap.unreplayed, 0),
  };
}

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
    .map(([role, s]) => `${role}:${s.success ? 'fixes' : 'fails'}${s.unreplayed ? ` (+${s.unreplayed} unreplayed)` : ''}`)
    .join(' ');
  return `counterfactual ${v.component ?? 'none'}  rules ${v.rules ?? '-'}${v.agrees_with_rules === null ? '' : v.agrees_with_rules ? '  agree' : '  DISAGREE'}  [${swaps}]`;
}
