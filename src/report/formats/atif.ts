// An episode as a Harbor trial's ATIF trajectories (atif-schema.ts, decision 0035): the single agent's model calls
// (ReAct's agent, direct's) as the agent steps of agent/trajectory.json, every other role's call (planner, executor,
// replanner, reporter, gate, a module's declared roles) as a subagent trajectory of its own, referenced from a system
// step; tool outputs as observations; plans, checks and the ending as system steps; stratbench's data under extra.
import type { EpisodeRecord, RunFile, StoredText, TraceEvent } from '../../records/index.js';
import type { CounterfactualVerdict } from '../html/report-data.js';
import { ATIF_SCHEMA_VERSION, type AtifTrajectory } from './atif-schema.js';
import {
  type ModelCall,
  replyStep,
  resolvedMessages,
  sentMessagesExtra,
  sentSteps,
  tokens,
  type ToolCall,
  toolCallsAnswered,
  toolResultDetail,
  type UnnumberedStep,
} from './atif-steps.js';

export { toolCallId } from './atif-steps.js';

type OtherEvent = Exclude<TraceEvent, ModelCall | ToolCall>;

/** A tool as ATIF's `agent.tool_definitions` lists it: OpenAI's function-calling form. */
export type AtifToolDefinition = {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

/** What a trajectory is built from besides the record. */
export interface AtifContext {
  /** run.json of the folder (null when absent). */
  run: RunFile | null;
  /** messages.jsonl: the texts model calls reference by hash (empty map when the folder has none). */
  texts: ReadonlyMap<string, StoredText>;
  /** The task's prompt from the run's suite, when it could be read unchanged; else the first user message a model was sent is used. */
  prompt: string | null;
  /** The episode's counterfactual verdict (counterfactual.json), when there is one. */
  counterfactual?: CounterfactualVerdict | null;
  /** stratbench's version, when run.json does not name it. */
  version: string;
  /** The repository tools the episode's agent had (tools/: names, descriptions, JSON Schema of the arguments). */
  tools: readonly AtifToolDefinition[];
}

/** An episode as Harbor lays out a trial's agent folder: `trajectory.json` and one file per delegated role call. */
export interface AtifTrial {
  /** agent/trajectory.json: the episode. */
  trajectory: AtifTrajectory;
  /**
   * agent/<file>: each delegated role call's trajectory, in trace order, named `trajectory.sub-<role>-<n>.json`
   * (subagentFile): every such name sorts after `trajectory.json`, which Harbor picks as the main trajectory by sorting.
   */
  subagents: Array<{ file: string; trajectory: AtifTrajectory }>;
}

/**
 * The file of role `role`'s n-th call (n from 1): `trajectory.sub-<role>-<n>.json`. Harbor's traces_utils
 * (`_extract_instruction`) takes the first of the sorted `agent/trajectory*.json` names, skipping only those holding
 * `.summarization`, as the main trajectory; `trajectory.sub-` sorts after `trajectory.json` ('s' > 'j') whatever the
 * role, where `trajectory.<role>-<n>.json` put executor, gate and critic before it (decision 0035).
 */
export const subagentFile = (role: string, n: number): string => `trajectory.sub-${role}-${n}.json`;

/** The roles whose calls are the single agent's own turns, first found first: ReAct's (and an external agent's) `agent`, else `direct`. */
const SINGLE_AGENT_ROLES = ['agent', 'direct'] as const;

/** One line saying what a non-model, non-tool event was (the event itself goes under extra.stratbench.event). */
function describe(event: OtherEvent): string {
  switch (event.type) {
    case 'gate':
      return `gate routed the task to ${event.route}`;
    case 'plan':
      return `plan (revision 0): ${event.plan.goal} — ${event.plan.steps.length} step(s)`;
    case 'plan_invalid':
      return `plan rejected: ${event.errors.join('; ')}`;
    case 'plan_revision':
      return `plan revision ${event.revision} (${event.invalidated}): ${event.plan.steps.length} step(s)`;
    case 'plan_diff':
      return `plan diff of revision ${event.revision}: removed [${event.diff.removed.join(', ')}], added [${event.diff.added.join(', ')}], revised [${event.diff.revised.join(', ')}]`;
    case 'step_end':
      return `step ${event.step_id} ${event.status}${event.reason ? `: ${event.reason}` : ''}`;
    case 'check':
      return `${event.scope} check ${String(event.check.check)} ${event.pass ? 'passed' : 'failed'}: ${event.detail}`;
    case 'budget':
      return `budget ${event.limit} reached: ${event.detail}`;
    case 'agent_process':
      return `agent process ${event.exit_code === null ? `ended by ${event.signal ?? 'a signal'}` : `exited with code ${event.exit_code}`}${event.killed ? ` (killed by the harness: ${event.killed})` : ''} after ${event.wall_ms} ms${event.stderr ? ` — stderr: ${event.stderr.slice(-500)}` : ''}`;
    case 'end':
      return `episode ended: ${event.status} (${event.reason})${event.answer ? ` — answer: ${event.answer}` : ''}${event.message ? ` — message: ${event.message}` : ''}`;
    default:
      return event satisfies never;
  }
}

/** The user's request: the suite's prompt, else the first user message the first model call was sent. */
function userStep(record: EpisodeRecord, context: AtifContext): UnnumberedStep {
  if (context.prompt !== null) return { source: 'user', message: context.prompt, extra: { stratbench: { prompt_from: 'suite' } } };
  for (const event of record.trace) {
    if (event.type !== 'model_call') continue;
    const first = (event.sent?.messages ?? []).map((hash) => context.texts.get(hash)).find((text) => text?.role === 'user');
    if (first) return { source: 'user', message: first.content, extra: { stratbench: { prompt_from: 'first_model_call', event_id: event.id } } };
  }
  return { source: 'user', message: '', extra: { stratbench: { prompt_from: 'unavailable', task: record.task } } };
}

const numbered = (steps: UnnumberedStep[]) => steps.map((step, index) => ({ step_id: index + 1, ...step }));

/** The trajectory of one delegated role call: the messages it was sent (when stored), then its reply as the agent step. */
function subagentTrajectory(
  record: EpisodeRecord,
  event: ModelCall,
  calls: readonly ToolCall[],
  sessionId: string,
  context: AtifContext,
  version: string,
): AtifTrajectory {
  const messages = resolvedMessages(event, context.texts);
  const unresolved = event.sent && !messages ? { sent_messages: sentMessagesExtra(event, context.texts) } : {};
  const steps = [...sentSteps(messages ?? []), replyStep(event, calls, context.texts, unresolved)];
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: sessionId,
    agent: {
      name: `stratbench-${event.role}`,
      version,
      model_name: event.model,
      ...(calls.length > 0 ? { tool_definitions: [...context.tools] } : {}),
      extra: { strategy: record.strategy, role: event.role, parent_session_id: record.key, event_id: event.id },
    },
    steps: numbered(steps),
    notes:
      `The ${event.role} call (trace event ${event.id}) of stratbench episode ${record.task} × ${record.strategy}, epoch ${record.epoch}: ` +
      (messages
        ? 'the messages it was sent, then its reply.'
        : event.sent
          ? 'its reply; the messages it was sent are missing from messages.jsonl (their hashes are in extra.stratbench.sent_messages).'
          : 'its reply; no messages were rendered for it (the scripted model reads the role’s view).'),
    final_metrics: { total_prompt_tokens: tokens(event.tokens_in), total_completion_tokens: tokens(event.tokens_out), total_steps: steps.length },
  };
}

/**
 * One episode as a Harbor trial (decision 0035). agent/trajectory.json, in trace order: the user's request; the single
 * agent's model calls (role `agent`, else `direct`) as agent steps (message the raw reply, reasoning_content its
 * thinking, metrics its tokens, tool_calls and observation the tool calls its reply chose with their outputs,
 * extra.stratbench its role, schema, parsed value and the messages it was sent); every other role's call as a system
 * step whose observation references its subagent trajectory (`subagent_trajectory_ref`, file
 * `trajectory.sub-<role>-<n>.json` (subagentFile), n counting that role's calls from 1) and carries the reply and the
 * outputs of the tool calls it chose; a tool call run
 * with a plan step's own arguments as a system step with its output as observation; every other event (plan, revision,
 * diff, step end, check, budget, ending) as a system step. `extra.stratbench.event_ids` lists the trace events a step
 * holds; the root's extra has the scoring, attribution (with the steps of its evidence) and costs. `tool_definitions`:
 * the repository tools, on the root and on each subagent that chose a tool call. Times are the simulated clock (t_ms),
 * so `timestamp` is left out. Pure.
 */
export function episodeTrial(record: EpisodeRecord, context: AtifContext): AtifTrial {
  const version = context.run?.tool.version ?? context.version;
  const modelCalls = record.trace.filter((event): event is ModelCall => event.type === 'model_call');
  const roles = new Set(modelCalls.map((event) => event.role));
  const single = SINGLE_AGENT_ROLES.find((role) => roles.has(role)) ?? null;
  const byCall = new Map<number, ToolCall[]>();
  const modelCallIds = new Set(modelCalls.map((event) => event.id));
  for (const event of record.trace) {
    if (event.type === 'tool_call' && event.call !== undefined && modelCallIds.has(event.call)) {
      byCall.set(event.call, [...(byCall.get(event.call) ?? []), event]);
    }
  }
  const steps: UnnumberedStep[] = [userStep(record, context)];
  const subagents: AtifTrial['subagents'] = [];
  const callsOfRole = new Map<string, number>();
  const stepOfEvent = new Map<number, number>();
  /** Appends a step holding the trace events `eventIds` (also listed in its extra.stratbench.event_ids). */
  const push = (step: UnnumberedStep, eventIds: number[]) => {
    steps.push(step);
    for (const id of eventIds) stepOfEvent.set(id, steps.length);
  };
  for (const event of record.trace) {
    if (event.type === 'model_call') {
      const calls = byCall.get(event.id) ?? [];
      const ids = [event.id, ...calls.map((c) => c.id)];
      if (event.role === single) {
        push(replyStep(event, calls, context.texts, event.sent ? { sent_messages: sentMessagesExtra(event, context.texts) } : {}), ids);
        continue;
      }
      const n = (callsOfRole.get(event.role) ?? 0) + 1;
      callsOfRole.set(event.role, n);
      const file = subagentFile(event.role, n);
      const sessionId = `${record.key}/${event.role}-${n}`;
      subagents.push({ file, trajectory: subagentTrajectory(record, event, calls, sessionId, context, version) });
      push(
        {
          source: 'system',
          message: `${event.role} call ${n}: ${event.schema} reply (${event.outcome})${calls.length > 0 ? `, ran ${calls.map((c) => c.tool).join(', ')}` : ''} — ${file}`,
          observation: {
            results: [
              {
                content: event.text,
                subagent_trajectory_ref: [
                  { session_id: sessionId, trajectory_path: file, extra: { role: event.role, event_id: event.id, model: event.model } },
                ],
              },
              ...calls.map((call) => ({ content: call.output })),
            ],
          },
          extra: { stratbench: { event_ids: ids, role: event.role, ...(calls.length > 0 ? { tool_results: calls.map(toolResultDetail) } : {}) } },
        },
        ids,
      );
    } else if (event.type === 'tool_call') {
      if (event.call !== undefined && modelCallIds.has(event.call)) continue;
      if (event.step_id !== undefined || event.plan !== undefined) {
        // The harness ran a plan step's own arguments: no model chose this call, so it is a system-initiated operation.
        push(
          {
            source: 'system',
            message: `run plan step ${event.step_id ?? '?'} with the plan's arguments: ${event.tool} ${JSON.stringify(event.args)}`,
            observation: { results: [{ content: event.output }] },
            extra: { stratbench: { event_ids: [event.id], from_plan: true, tool_results: [toolResultDetail(event)] } },
          },
          [event.id],
        );
      } else {
        // An external agent's call its model proxy could not link to a reply: the agent's own action, without a model turn.
        push(
          {
            source: 'agent',
            message: '',
            ...toolCallsAnswered([event]),
            extra: { stratbench: { event_ids: [event.id], tool_results: [toolResultDetail(event)] } },
          },
          [event.id],
        );
      }
    } else {
      push({ source: 'system', message: describe(event), extra: { stratbench: { event_ids: [event.id], event } } }, [event.id]);
    }
  }
  const models = [...new Set(Object.values(record.models))];
  const { attribution } = record;
  const run = context.run;
  const trajectory: AtifTrajectory = {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: record.key,
    agent: {
      name: 'stratbench',
      version,
      ...(models.length === 1 ? { model_name: models[0] as string } : {}),
      tool_definitions: [...context.tools],
      extra: { strategy: record.strategy, models: record.models, single_agent_role: single },
    },
    steps: numbered(steps),
    notes:
      `stratbench episode ${record.task} × ${record.strategy}, epoch ${record.epoch}: ${record.success ? 'success' : record.outcome.status === 'error' ? 'infrastructure error (not scored)' : 'failure'}. ` +
      `${single ? `The ${single} role's model calls are the agent steps; ` : ''}${subagents.length > 0 ? 'each other role call is a subagent trajectory (trajectory.sub-<role>-<n>.json beside this file) referenced from a system step; ' : ''}` +
      'plans, tool runs of plan steps, checks and the ending are system steps. final_metrics count every model call of the episode, subagents included. Tool times are simulated (t_ms).',
    final_metrics: {
      total_prompt_tokens: tokens(record.metrics.tokens_in),
      total_completion_tokens: tokens(record.metrics.tokens_out),
      total_steps: steps.length,
      extra: { ...record.metrics, wall_ms: record.wall_ms },
    },
    extra: {
      stratbench: {
        task: record.task,
        group: record.group,
        ...(record.family === undefined ? {} : { family: record.family }),
        ...(record.fixture === undefined ? {} : { fixture: record.fixture }),
        strategy: record.strategy,
        epoch: record.epoch,
        seed: record.seed,
        expect: record.expect,
        outcome: record.outcome,
        success: record.success,
        checks: record.checks,
        attribution: attribution ? { ...attribution, evidence_steps: attribution.evidence.map((id) => stepOfEvent.get(id) ?? null) } : null,
        ...(record.findings ? { findings: record.findings } : {}),
        counterfactual: context.counterfactual ?? null,
        ...(run ? { config_hash: run.config_hash, suite: run.suite } : {}),
      },
    },
  };
  return { trajectory, subagents };
}
