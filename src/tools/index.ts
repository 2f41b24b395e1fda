// The tool set an agent may call: the registry, validated execution of a call, and descriptions for prompts.
import { z } from 'zod';
import type { SimRepo } from '../sim-repo/index.js';
import { edit, list, read, search, write } from './file-tools.js';
import { gitDiff, gitLog, gitShow, push } from './git-tools.js';
import { run } from './run-tool.js';
import { capOutput } from './cap-output.js';
import { ToolName, type ToolDefinition, type ToolResult } from './types.js';

export * from './types.js';
export { capOutput, moreLinesMarker, OUTPUT_LIMITS, type OutputLimits } from './cap-output.js';
export { TRANSIENT_PATTERN } from './tool-result.js';

/** Every tool by name. */
export const TOOLS = {
  read,
  list,
  search,
  edit,
  write,
  run,
  git_log: gitLog,
  git_show: gitShow,
  git_diff: gitDiff,
  push,
} satisfies Record<ToolName, ToolDefinition>;

/** Tool names in registry order. */
export const TOOL_NAMES: readonly ToolName[] = ToolName.options;

/** The tool called `name`, or undefined for an unknown name. */
export function getTool(name: string): ToolDefinition | undefined {
  const known = ToolName.safeParse(name);
  return known.success ? TOOLS[known.data] : undefined;
}

/**
 * Argument validation, memoised for frozen argument objects (replies a deterministic backend repeats are parsed
 * once and frozen, see strategies/call-role.ts): a frozen object cannot change, so its validation cannot either.
 */
function parseArgs(tool: ToolDefinition, args: Record<string, unknown>): ReturnType<ToolDefinition['args']['safeParse']> {
  if (!Object.isFrozen(args)) return tool.args.safeParse(args);
  let byTool = parsedArgs.get(args);
  if (!byTool) parsedArgs.set(args, (byTool = new Map()));
  let parsed = byTool.get(tool.name);
  if (!parsed) {
    parsed = tool.args.safeParse(args);
    if (parsed.success) Object.freeze(parsed.data);
    byTool.set(tool.name, parsed);
  }
  return parsed;
}

const parsedArgs = new WeakMap<object, Map<string, ReturnType<ToolDefinition['args']['safeParse']>>>();

/**
 * Runs one tool call against `repo`. An unknown tool → failure `unknown_tool` (listing the available tools);
 * arguments failing the tool's schema → failure `invalid_args` (listing the issues and the expected arguments),
 * with no effect and 0 ms.
 * @throws ToolInternalError for a bug inside a tool or the harness under it (a code worker that failed): that is
 * not something the agent did, so the episode ends as a harness error instead of showing the model a failure.
 * The output is what a model sees: capped by `capOutput` (300 characters a line, 2,000 in total, then
 * "… N more lines (narrow the search)").
 */
export function executeToolCall(repo: SimRepo, call: { tool: string; args: Record<string, unknown> }): ToolResult {
  const tool = getTool(call.tool);
  if (tool === undefined) {
    return refusal('unknown_tool', `unknown tool '${call.tool}'; available: ${TOOL_NAMES.join(', ')}`);
  }
  const parsed = parseArgs(tool, call.args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `  - ${issue.path.length > 0 ? issue.path.join('.') : '(args)'}: ${issue.message}`);
    return refusal('invalid_args', [`invalid arguments for ${tool.name}:`, ...issues, `expected args: ${expectedArgs(tool)}`].join('\n'));
  }
  let result: ToolResult;
  try {
    result = tool.execute(repo, parsed.data);
  } catch (error) {
    throw new ToolInternalError(`internal error in tool ${tool.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const output = capOutput(result.output);
  if (output === result.output) return result;
  const capped = Object.assign({}, result);
  capped.output = output;
  return capped;
}

/** A bug inside a tool or the harness under it (see executeToolCall); never the agent's doing. */
export class ToolInternalError extends Error {
  override name = 'ToolInternalError';
}

/**
 * One block per tool for a prompt: name, description, and its arguments as JSON Schema
 * (`z.toJSONSchema`, draft 2020-12, without `$schema`), in registry order.
 */
export function toolDescriptionsForPrompt(): string {
  return TOOL_NAMES.map((name) => {
    const tool = TOOLS[name];
    return `${name}: ${tool.description}\n  args: ${JSON.stringify(argsSchema(tool))}`;
  }).join('\n\n');
}

/** The JSON Schema of a tool's arguments, without `$schema`. */
export function argsSchema(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.args) as Record<string, unknown>;
  return schema;
}

/** `{path: string, old: string, new: string, replace_all?: boolean}` from the tool's schema. */
function expectedArgs(tool: ToolDefinition): string {
  const schema = argsSchema(tool) as { properties?: Record<string, { type?: string }>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => `${key}${required.has(key) ? '' : '?'}: ${property.type ?? 'unknown'}`);
  return `{${fields.join(', ')}}`;
}

function refusal(error_code: string, output: string): ToolResult {
  return { status: 'failure', output, duration_ms: 0, side_effect: 'none', error_code };
}
