// Turns a model's raw reply text into a schema-checked value, with only the lenient extraction that is safe.
import { z } from 'zod';
import type { FormatWarning, OutputFault } from './types.js';

/** Why a reply could not be used; recorded on the model-call event. */
export type ReplyFailure =
  | 'empty_output' // nothing at all (e.g. the whole budget went to thinking)
  | 'reasoning_only' // only a <think> block, no answer after it
  | 'truncated_output' // done_reason "length" and the JSON does not parse
  | 'unparseable' // no JSON value could be read (format ignored, prose)
  | 'schema_mismatch'; // valid JSON of the wrong shape

export type ParsedReply<T> =
  | { ok: true; value: T; warnings: FormatWarning[]; reasoning?: string }
  | { ok: false; failure: ReplyFailure; error: string; warnings: FormatWarning[]; json?: unknown; reasoning?: string };

const THINK_BLOCK = /^\s*<think>([\s\S]*?)<\/think>/;
const LONE_THINK_CLOSE = /^([\s\S]*?)<\/think>/;
const FENCE = /^\s*```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?```\s*$/;

/**
 * The failure of a reply whose text is a server's error, not the model's words: a `tool_call_malformed` fault (the
 * server's tool-call parser failed on the model's output — HTTP 500 "error parsing tool call", from Ollama, vLLM flat or
 * not, TGI — on the call and on the backend's one retry). `unparseable`, as the model's unreadable output counts, with
 * the server's message kept whole: "the server could not parse the model's tool call, twice: <message>". Parsing that
 * message as a reply said only "the reply is not JSON: Unexpected non-whitespace character after JSON at position 4".
 * Undefined for any other reply (parse its text).
 */
export function refusedToolCall(fault: OutputFault | undefined): Extract<ParsedReply<never>, { ok: false }> | undefined {
  if (fault?.kind !== 'tool_call_malformed') return undefined;
  return { ok: false, failure: 'unparseable', error: `the server could not parse the model's tool call, twice: ${fault.detail}`, warnings: [] };
}

/**
 * Parse `text` as JSON matching `schema`. Safe leniency only, each recorded as a warning:
 * leading `<think>…</think>` blocks (or text up to a lone `</think>`) are removed
 * (`reasoning_in_content`); exactly one surrounding ``` fence is stripped (`fenced_json`);
 * surrounding whitespace is ignored. Nothing is guessed: no brackets are closed, no prose is mined.
 * `doneReason === 'length'` with unparseable text is `truncated_output`.
 * Never throws.
 */
export function parseReply<T>(text: string, schema: z.ZodType<T>, doneReason?: string): ParsedReply<T> {
  // Fast path: a reply that is plain JSON needs no extraction.
  const first = text.charCodeAt(0);
  if (first === 0x7b || first === 0x5b) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      const parsed = schema.safeParse(json);
      return parsed.success
        ? { ok: true, value: parsed.data, warnings: [] }
        : { ok: false, failure: 'schema_mismatch', error: z.prettifyError(parsed.error), warnings: [], json };
    }
  }
  const warnings: FormatWarning[] = [];
  let body = text;
  let reasoning: string | undefined;

  const thinkParts: string[] = [];
  for (;;) {
    const block = THINK_BLOCK.exec(body);
    if (!block) break;
    thinkParts.push(block[1] ?? '');
    body = body.slice(block[0].length);
  }
  if (thinkParts.length === 0 && !body.includes('<think>')) {
    const lone = LONE_THINK_CLOSE.exec(body);
    if (lone) {
      thinkParts.push(lone[1] ?? '');
      body = body.slice(lone[0].length);
    }
  }
  if (thinkParts.length > 0) {
    warnings.push('reasoning_in_content');
    reasoning = thinkParts.join('\n').trim();
  }

  if (body.trim() === '') {
    if (thinkParts.length > 0) {
      return { ok: false, failure: 'reasoning_only', error: 'the reply holds only reasoning, no answer after it', warnings, reasoning };
    }
    const why = doneReason === 'length' ? ' (done_reason "length": the output budget ran out)' : '';
    return { ok: false, failure: 'empty_output', error: `the reply is empty${why}`, warnings };
  }

  const fenced = FENCE.exec(body);
  if (fenced) {
    warnings.push('fenced_json');
    body = fenced[1] ?? '';
  }

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (doneReason === 'length') {
      return { ok: false, failure: 'truncated_output', error: `the reply was cut off at the output limit: ${message}`, warnings, reasoning };
    }
    return { ok: false, failure: 'unparseable', error: `the reply is not JSON: ${message}`, warnings, reasoning };
  }

  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, failure: 'schema_mismatch', error: z.prettifyError(parsed.error), warnings, json, reasoning };
  }
  return reasoning === undefined ? { ok: true, value: parsed.data, warnings } : { ok: true, value: parsed.data, warnings, reasoning };
}
