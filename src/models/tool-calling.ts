// Native tool calling: tool definitions for Ollama's `tools` field, and a returned tool call turned back into action-schema text.
import type { FormatWarning, OutputFault } from './types.js';
import type { JsonSchema } from './model-json-schema.js';

/** A tool as a model sees it; `parameters` is the JSON Schema of its arguments (flat, no `$ref`). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** The reply schemas whose value is a tool call (`ActionReply`, `ExecutorReply` in strategies/replies.ts). */
export const ACTION_SCHEMA_NAMES: ReadonlySet<string> = new Set(['action', 'executor_call']);

/** Ollama's `tools` entry (ollama-js `Tool`). */
export interface OllamaToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export function ollamaTools(tools: readonly ToolSpec[]): OllamaToolDefinition[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** A tool call as the server returns it; `arguments` may arrive as an object or as a JSON string. */
export interface RawToolCall {
  function: { name?: unknown; arguments?: unknown };
}

export interface ConvertedReply {
  text: string;
  structured?: unknown;
  warnings: FormatWarning[];
  fault?: OutputFault;
}

/**
 * Turns the model's first tool call into the JSON text of the action schema: for schema "action"
 * `{"action":"tool","tool":…,"args":…}`, for "executor_call" `{"tool":…,"args":…}`. Safe repairs only,
 * each recorded: arguments sent as a JSON string are parsed (`stringified_arguments`); a name that matches
 * exactly one declared tool except for case takes that tool's spelling (`tool_name_case`); argument values
 * are coerced where the tool's schema makes it safe (`type_coerced`, see `coerceArguments`). String
 * arguments that are not JSON give a text that cannot parse (the raw arguments after `"args":`) and the
 * fault `tool_arguments_unparseable`: nothing is guessed, the strategy's repair path classifies it.
 * An unknown tool name is passed through unchanged: the tool layer answers it with an error observation.
 */
export function toolCallToReplyText(schemaName: string, call: RawToolCall, tools: readonly ToolSpec[] = []): ConvertedReply {
  const warnings: FormatWarning[] = [];
  const rawName = typeof call.function.name === 'string' ? call.function.name : String(call.function.name ?? '');
  const name = resolveToolName(rawName, tools);
  if (name !== rawName) warnings.push('tool_name_case');
  const head = (schemaName === 'action' ? `{"action":"tool","tool":` : `{"tool":`) + JSON.stringify(name) + `,"args":`;
  const wrap = (args: unknown): Record<string, unknown> => (schemaName === 'action' ? { action: 'tool', tool: name, args } : { tool: name, args });

  let args: unknown = call.function.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
      warnings.push('stringified_arguments');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        text: head + (call.function.arguments as string),
        warnings,
        fault: { kind: 'tool_arguments_unparseable', detail: `arguments of ${name} are not JSON (${reason}): ${call.function.arguments as string}` },
      };
    }
  }
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
    const spec = tools.find((tool) => tool.name === name);
    if (spec !== undefined) {
      const coerced = coerceArguments(args as Record<string, unknown>, spec.parameters);
      if (coerced.coerced) warnings.push('type_coerced');
      args = coerced.value;
    }
  }
  const value = wrap(args);
  return { text: JSON.stringify(value), structured: value, warnings };
}

/** `name` itself when declared (or when nothing matches); else the one declared tool equal to it ignoring case. */
export function resolveToolName(name: string, tools: readonly ToolSpec[]): string {
  if (tools.some((tool) => tool.name === name)) return name;
  const matches = tools.filter((tool) => tool.name.toLowerCase() === name.toLowerCase());
  return matches.length === 1 && matches[0] !== undefined ? matches[0].name : name;
}

function allowedTypes(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function coerceValue(value: unknown, schema: unknown): { value: unknown; coerced: boolean } {
  const types = allowedTypes(schema);
  const actual = jsonType(value);
  const fits = types.length === 0 || types.includes(actual) || (actual === 'integer' && types.includes('number'));
  if (!fits) {
    if (typeof value === 'string') {
      const text = value.trim();
      if (types.includes('integer') && INTEGER_TEXT.test(text) && Number.isSafeInteger(Number(text))) return { value: Number(text), coerced: true };
      if (types.includes('number') && NUMBER_TEXT.test(text) && Number.isFinite(Number(text))) return { value: Number(text), coerced: true };
      if (types.includes('boolean') && (text === 'true' || text === 'false')) return { value: text === 'true', coerced: true };
    }
    if (actual === 'integer' && types.includes('string')) return { value: String(value), coerced: true };
    return { value, coerced: false };
  }
  if (actual === 'object') {
    const result = coerceArguments(value as Record<string, unknown>, schema as JsonSchema);
    return { value: result.value, coerced: result.coerced };
  }
  if (actual === 'array' && schema !== null && typeof schema === 'object' && 'items' in schema) {
    let coerced = false;
    const items = (value as unknown[]).map((item) => {
      const result = coerceValue(item, (schema as { items: unknown }).items);
      coerced ||= result.coerced;
      return result.value;
    });
    return { value: items, coerced };
  }
  return { value, coerced: false };
}

/**
 * Coerces argument values to the tool's JSON Schema where it is safe (fixture numbers-as-strings):
 * numeric strings to integer/number, "true"/"false" to boolean, integers to string where the schema says
 * string; recursively through `properties` and `items`. A value that cannot be coerced ("ten") is left as
 * is for the tool's own validation to reject (`tool_argument_error` observation). Pure.
 */
export function coerceArguments(args: Record<string, unknown>, parameters: JsonSchema): { value: Record<string, unknown>; coerced: boolean } {
  const properties = parameters.properties;
  if (properties === null || typeof properties !== 'object') return { value: args, coerced: false };
  let coerced = false;
  const value: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(args)) {
    const propertySchema = (properties as Record<string, unknown>)[key];
    if (propertySchema === undefined) {
      value[key] = item;
      continue;
    }
    const result = coerceValue(item, propertySchema);
    coerced ||= result.coerced;
    value[key] = result.value;
  }
  return { value, coerced };
}

const TOOL_CALL_MARKUP = /<tool_call>|<function=|\[TOOL_CALLS\]|<\|python_tag\|>/;

/**
 * True when `content` holds a tool call written as text (Hermes/Qwen `<tool_call>` XML, Mistral
 * `[TOOL_CALLS]`, Llama `<|python_tag|>`, or a bare `{"name":…,"arguments":…}` object) instead of a
 * structured call. Policy: classify, never salvage (DESIGN.md: nothing is guessed).
 */
export function looksLikeToolCallText(content: string): boolean {
  if (TOOL_CALL_MARKUP.test(content)) return true;
  const trimmed = content.trim();
  if (!trimmed.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && 'name' in value && ('arguments' in value || 'parameters' in value);
  } catch {
    return false;
  }
}
