// An episode as an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, atif-schema.ts): the task prompt as
// the user step, each model call as an agent step with the tool calls its reply chose and their outputs, plan events,
// checks and the ending as system steps; stratbench's own data (roles, plans, diffs, attribution) under `extra.stratbench`.
import type { EpisodeRecord, RunFile, StoredText, TraceEvent } from '../../records/index.js';
import type { CounterfactualVerdict } from '../html/report-data.js';
import { ATIF_SCHEMA_VERSION, type AtifStep, type AtifTrajectory } from './atif-schema.js';

type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;
type ToolCall = Extract<TraceEvent, { type: 'tool_call' }>;
type OtherEvent = Exclude<TraceEvent, ModelCall | ToolCall>;

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
}

/** The id a tool call carries in `tool_calls` and its observation's `source_call_id`: its trace event id. */
export const toolCallId = (event: ToolCall): string => `call_${event.id}`;

/** ATIF counts tokens in whole numbers; a backend's estimate is rounded. */
const tokens = (value: number): number => Math.max(0, Math.round(value));

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

/** The messages a model call was sent, resolved from messages.jsonl; a hash the folder lacks stays a hash. */
function sentMessages(event: ModelCall, texts: ReadonlyMap<string, StoredText>): { role: string; content: string }[] | { hash: string }[] | null {
  const hashes = event.sent?.messages;
  if (!hashes) return null;
  const resolved = hashes.map((hash) => texts.get(hash));
  if (resolved.every((text) => text !== undefined)) return resolved.map((text) => ({ role: text.role, content: text.content }));
  return hashes.map((hash) => ({ hash }));
}

function toolDetail(event: ToolCall): Record<string, unknown> {
  const { type: _type, tool: _tool, args: _args, output: _output, ...rest } = event;
  return rest;
}

function toolSteps(calls: readonly ToolCall[]): Pick<AtifStep, 'tool_calls' | 'observation'> {
  if (calls.length === 0) return {};
  return {
    tool_calls: calls.map((call) => ({ tool_call_id: toolCallId(call), function_name: call.tool, arguments: call.args })),
    observation: { results: calls.map((call) => ({ source_call_id: toolCallId(call), content: call.output })) },
  };
}

/** The user's request: the suite's prompt, else the first user message the first model call was sent. */
function userStep(record: EpisodeRecord, context: AtifContext): Omit<AtifStep, 'step_id'> {
  if (context.prompt !== null) return { source: 'user', message: context.prompt, extra: { stratbench: { prompt_from: 'suite' } } };
  for (const event of record.trace) {
    if (event.type !== 'model_call') continue;
    const first = (event.sent?.messages ?? []).map((hash) => context.texts.get(hash)).find((text) => text?.role === 'user');
    if (first) return { source: 'user', message: first.content, extra: { stratbench: { prompt_from: 'first_model_call', event_id: event.id } } };
  }
  return { source: 'user', message: '', extra: { stratbench: { prompt_from: 'unavailable', task: record.task } } };
}

/**
 * One episode as an ATIF-v1.4 trajectory. Steps, in trace order: the user's request; an agent step per model call
 * (message: the raw reply; reasoning_content: its thinking; metrics: tokens; tool_calls and observation: the tool
 * calls its reply chose, with their outputs; extra.stratbench: role, schema, parsed value, the messages it was sent);
 * an agent step per tool call that ran a plan step's own args (no model call chose it); a system step per other event
 * (plan, revision, diff, step end, check, budget, ending). `extra.stratbench.event_ids` on each step lists the trace
 * events it holds; the root's extra has the scoring, attribution (with the steps of its evidence) and costs. Times
 * are the simulated clock (t_ms), not wall-clock timestamps, so `timestamp` is left out. Pure.
 */
export function episodeTrajectory(record: EpisodeRecord, context: AtifContext): AtifTrajectory {
  const byCall = new Map<number, ToolCall[]>();
  const modelCallIds = new Set(record.trace.filter((event) => event.type === 'model_call').map((event) => event.id));
  for (const event of record.trace) {
    if (event.type === 'tool_call' && event.call !== undefined && modelCallIds.has(event.call)) {
      byCall.set(event.call, [...(byCall.get(event.call) ?? []), event]);
    }
  }
  const steps: Omit<AtifStep, 'step_id'>[] = [userStep(record, context)];
  const stepOfEvent = new Map<number, number>();
  const push = (step: Omit<AtifStep, 'step_id'>, eventIds: number[]) => {
    steps.push(step);
    for (const id of eventIds) stepOfEvent.set(id, steps.length);
  };
  for (const event of record.trace) {
    if (event.type === 'model_call') {
      const calls = byCall.get(event.id) ?? [];
      const thinking = event.thinking ? context.texts.get(event.thinking)?.content : undefined;
      const { type: _type, text: _text, thinking: _thinking, tokens_in, tokens_out, duration_ms, load_ms, cold_load, cached, attempts, sent, ...call } = event;
      const ids = [event.id, ...calls.map((c) => c.id)];
      push(
        {
          source: 'agent',
          model_name: event.model,
          message: event.text,
          ...(thinking === undefined ? {} : { reasoning_content: thinking }),
          ...toolSteps(calls),
          metrics: {
            prompt_tokens: tokens(tokens_in),
            completion_tokens: tokens(tokens_out),
            extra: {
              duration_ms,
              load_ms,
              ...(cold_load === undefined ? {} : { cold_load }),
              ...(cached === undefined ? {} : { cached }),
              ...(attempts === undefined ? {} : { attempts }),
            },
          },
          extra: {
            stratbench: {
              event_ids: ids,
              ...call,
              ...(sent ? { options: sent.options, sent_messages: sentMessages(event, context.texts) } : {}),
              ...(calls.length > 0 ? { tool_results: calls.map((c) => ({ tool_call_id: toolCallId(c), ...toolDetail(c) })) } : {}),
            },
          },
        },
        ids,
      );
    } else if (event.type === 'tool_call') {
      if (event.call !== undefined && modelCallIds.has(event.call)) continue;
      push(
        {
          source: 'agent',
          message: event.step_id ? `run plan step ${event.step_id} with the plan's arguments` : '',
          ...toolSteps([event]),
          extra: { stratbench: { event_ids: [event.id], from_plan: true, tool_results: [{ tool_call_id: toolCallId(event), ...toolDetail(event) }] } },
        },
        [event.id],
      );
    } else {
      push({ source: 'system', message: describe(event), extra: { stratbench: { event_ids: [event.id], event } } }, [event.id]);
    }
  }
  const models = [...new Set(Object.values(record.models))];
  const { attribution } = record;
  const run = context.run;
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: record.key,
    agent: {
      name: 'stratbench',
      version: run?.tool.version ?? context.version,
      ...(models.length === 1 ? { model_name: models[0] as string } : {}),
      extra: { strategy: record.strategy, models: record.models },
    },
    steps: steps.map((step, index) => ({ step_id: index + 1, ...step })),
    notes:
      `stratbench episode ${record.task} × ${record.strategy}, epoch ${record.epoch}: ${record.success ? 'success' : record.outcome.status === 'error' ? 'infrastructure error (not scored)' : 'failure'}. ` +
      'Each model call is an agent step (roles in extra.stratbench.role); plans, checks and the ending are system steps. Tool times are simulated (t_ms).',
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
}
