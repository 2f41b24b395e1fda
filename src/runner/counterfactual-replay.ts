// Counterfactual replay (issue 11 §2): swap one role of a failed episode for the reference oracle, replay every other role from the trace.
import { ROLES, type ChatModel, type Role } from '../models/types.js';
import type { ScriptedTask } from '../models/scripted.js';
import type { CounterfactualDecision, CounterfactualSwap, EpisodeCounterfactual, EpisodeRecord } from '../records/index.js';
import { strategyByName, type DeclaredRole, type StrategyName } from '../strategies/index.js';
import { OracleModel } from './counterfactual-oracle.js';
import { calledRole, ownNext, ReplayModel, replayedText, type ModelCall } from './replay-model.js';
import { runEpisode, type EpisodeTask, type RunEnvironment } from './episode.js';

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
  const replay: Replay = { record, oracle, replayWith: replayer(record, task, env, oracle) };
  const swaps = await swapRoles(replay, roles, declaredRoles);
  const fixedBy = roles.filter((role) => swaps[role]!.success);
  const decisions: CounterfactualDecision[] = [];
  for (const role of fixedBy) decisions.push(...(await swapDecisions(replay, role)));
  return verdict(record, { swaps, fixedBy, decisions, firstCall, declaredRoles });
}

/** Replays the episode with `role`'s calls answered by `model(replay)` and every other role's by the replay (`tag`: its key). */
type ReplayWith = (role: string, model: (replay: ReplayModel) => ChatModel, tag: string) => Promise<{ success: boolean; replay: ReplayModel }>;

/** One episode's replay: the record, the oracle standing in, and how to replay it with one role swapped. */
interface Replay {
  record: EpisodeRecord;
  oracle: OracleModel;
  replayWith: ReplayWith;
}

/**
 * The episode replayed with one role swapped, its messages not stored (no `texts` sink). Requests are routed by the
 * role they call, so a declared role is swapped without its model role, and the other way round.
 */
function replayer(record: EpisodeRecord, task: EpisodeTask & ScriptedTask, env: RunEnvironment, oracle: OracleModel): ReplayWith {
  const strategy = record.strategy as StrategyName;
  const { texts: _unstored, ...quiet } = env;
  return async (role, model, tag) => {
    const replay = new ReplayModel(record.trace, oracle);
    const swapped = model(replay);
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
}

/**
 * Pass 1: each role played by the oracle, every other role replayed. Where the oracle has no output of its own, the
 * role's own reply stands (the stand-in does not intervene); a declared role the oracle cannot play is `abstained`.
 */
async function swapRoles(
  { record, oracle, replayWith }: Replay,
  roles: readonly string[],
  declaredRoles: readonly DeclaredRole[],
): Promise<Record<string, CounterfactualSwap>> {
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
  return swaps;
}

/** Pass 2: each decision of a role whose swap fixed the episode (at most MAX_DECISIONS_PER_ROLE), swapped alone. */
async function swapDecisions(replay: Replay, role: string): Promise<CounterfactualDecision[]> {
  const calls = new ReplayModel(replay.record.trace, replay.oracle).calls(role);
  const starts = calls.flatMap((call, index) => (call.attempt === 1 ? [index] : [])).slice(0, MAX_DECISIONS_PER_ROLE);
  const decisions: CounterfactualDecision[] = [];
  for (const [k, index] of starts.entries()) {
    const decision = await swapDecision(replay, role, calls, index, starts[k + 1] ?? calls.length);
    if (decision !== undefined) decisions.push(decision);
  }
  return decisions;
}

/**
 * The role's output at its call `index` replaced by the oracle's, everything before replayed; after it the role goes
 * on as it did (its later replies replayed by request, else in order, from `resume`: the repairs this decision needed
 * are not asked for once the stand-in answered). Undefined where the oracle abstained at that call (no intervention).
 */
async function swapDecision(
  { oracle, replayWith }: Replay,
  role: string,
  calls: readonly ModelCall[],
  index: number,
  resume: number,
): Promise<CounterfactualDecision | undefined> {
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
  if (!intervened) return undefined;
  return { role, event: calls[index]!.id, success, oracle_calls: oracleCalls, replayed: replay.replayed + own, unreplayed: replay.unreplayed };
}

/**
 * The verdict: the role swap resting least on the oracle among those that fix it (then the earliest role), its
 * decisive decision (the earliest fixing one), the component it counts against and whether the rules agree.
 */
function verdict(
  record: EpisodeRecord,
  found: {
    swaps: Record<string, CounterfactualSwap>;
    fixedBy: string[];
    decisions: CounterfactualDecision[];
    firstCall: ReadonlyMap<string, number>;
    declaredRoles: readonly DeclaredRole[];
  },
): EpisodeCounterfactual {
  const { swaps, fixedBy, decisions, firstCall, declaredRoles } = found;
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
