// The ATIF steps one model call or tool call becomes, shared by the episode's trajectory (atif.ts) and the subagent
// trajectory of each delegated role call: the agent step of a reply, the messages a call was sent, tool results.
import type { StoredText, TraceEvent } from '../../records/index.js';
import type { AtifObservationResult, AtifStep } from './atif-schema.js';

export type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;
export type ToolCall = Extract<TraceEvent, { type: 'tool_call' }>;
/** A step before it is numbered. */
export type UnnumberedStep = Omit<AtifStep, 'step_id'>;

/** The id a tool call carries in `tool_calls` and its observation's `source_call_id`: its trace event id. */
export const toolCallId = (event: ToolCall): string => `call_${event.id}`;

/** ATIF counts tokens in whole numbers; a backend's estimate is rounded (never below 0). */
export const tokens = (value: number): number => Math.max(0, Math.round(value));

/** A tool call's record besides its output (which is the observation's content): id, tool, args, status, exit code, … */
export function toolResultDetail(event: ToolCall): Record<string, unknown> {
  const { type: _type, output: _output, ...rest } = event;
  return { tool_call_id: toolCallId(event), ...rest };
}

/** `tool_calls` and the `observation` answering each (source_call_id = its tool_call_id), for an agent step. */
export function toolCallsAnswered(calls: readonly ToolCall[]): Pick<AtifStep, 'tool_calls' | 'observation'> {
  if (calls.length === 0) return {};
  return {
    tool_calls: calls.map((call) => ({ tool_call_id: toolCallId(call), function_name: call.tool, arguments: call.args })),
    observation: { results: calls.map((call) => ({ source_call_id: toolCallId(call), content: call.output })) },
  };
}

/** The messages a model call was sent, from messages.jsonl; null when none were rendered or one is missing from the folder. */
export function resolvedMessages(event: ModelCall, texts: ReadonlyMap<string, StoredText>): StoredText[] | null {
  const hashes = event.sent?.messages;
  if (!hashes) return null;
  const resolved = hashes.map((hash) => texts.get(hash));
  return resolved.every((text) => text !== undefined) ? resolved : null;
}

/** The messages a call was sent for `extra`: resolved (role, content), or their hashes when the folder lacks one. */
export function sentMessagesExtra(event: ModelCall, texts: ReadonlyMap<string, StoredText>): { role: string; content: string }[] | { hash: string }[] | null {
  if (!event.sent) return null;
  const resolved = resolvedMessages(event, texts);
  return resolved ? resolved.map((text) => ({ role: text.role, content: text.content })) : event.sent.messages.map((hash) => ({ hash }));
}

/**
 * The messages a call was sent as the steps before its reply: system and user messages as such; an assistant message
 * (an earlier reply shown again) as an agent step; a tool message as an observation result of the agent step before it
 * (else of a system step), never as a user turn.
 */
export function sentSteps(messages: readonly StoredText[]): UnnumberedStep[] {
  const steps: UnnumberedStep[] = [];
  for (const text of messages) {
    switch (text.role) {
      case 'system':
      case 'user':
        steps.push({ source: text.role, message: text.content });
        break;
      case 'assistant':
        steps.push({ source: 'agent', message: text.content });
        break;
      case 'tool': {
        const result: AtifObservationResult = { content: text.content };
        const last = steps.at(-1);
        if (last?.source === 'agent') last.observation = { results: [...(last.observation?.results ?? []), result] };
        else steps.push({ source: 'system', message: 'tool result', observation: { results: [result] } });
        break;
      }
      case 'thinking': // never sent (thinking is stored as a reply's), kept as what it was
        steps.push({ source: 'system', message: text.content });
        break;
      default:
        text.role satisfies never;
    }
  }
  return steps;
}

/**
 * A model call as an agent step: message the raw reply, reasoning_content its thinking, metrics its tokens (duration,
 * load time and cache flags under metrics.extra), tool_calls and observation the tool calls its reply chose with their
 * outputs, extra.stratbench the call's record (role, schema, attempt, outcome, parsed value, …) and `more`.
 */
export function replyStep(
  event: ModelCall,
  calls: readonly ToolCall[],
  texts: ReadonlyMap<string, StoredText>,
  more: Record<string, unknown> = {},
): UnnumberedStep {
  const thinking = event.thinking ? texts.get(event.thinking)?.content : undefined;
  const { type: _type, text: _text, thinking: _thinking, tokens_in, tokens_out, duration_ms, load_ms, cold_load, cached, attempts, sent, ...call } = event;
  return {
    source: 'agent',
    model_name: event.model,
    message: event.text,
    ...(thinking === undefined ? {} : { reasoning_content: thinking }),
    ...toolCallsAnswered(calls),
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
        event_ids: [event.id, ...calls.map((c) => c.id)],
        ...call,
        ...(sent ? { options: sent.options } : {}),
        ...more,
        ...(calls.length > 0 ? { tool_results: calls.map(toolResultDetail) } : {}),
      },
    },
  };
}
