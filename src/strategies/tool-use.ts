// Executes tool calls for a strategy: trace events, the tool-call count, and repeated-failure and repeated-read bookkeeping.
import { executeToolCall, getTool } from '../tools/index.js';
import type { ToolResult } from '../tools/types.js';
import type { Observation } from '../models/types.js';
import type { StrategyContext } from './context.js';
import { canonicalJson, type TraceEventInput } from '../records/index.js';
import { codeAhead, codeAheadOverlaps } from '../sim-repo/index.js';

/** Per-episode tool bookkeeping shared by every strategy. */
export interface ToolLedger {
  toolCalls: number;
  /** Failure count per call key (tool + canonical args). */
  failures: Map<string, number>;
  /** Per read-only call key: how many times it ran in a row of unchanged repository states, and that state. */
  reads: Map<string, { count: number; changes: number }>;
  history: Observation[];
}

export function newLedger(): ToolLedger {
  return { toolCalls: 0, failures: new Map(), reads: new Map(), history: [] };
}

export function callKey(tool: string, args: Record<string, unknown>): string {
  return `${tool}:${argsKey(args)}`;
}

/** Canonical args, memoised for frozen args objects (a deterministic backend's repeated replies): read calls pay once. */
function argsKey(args: Record<string, unknown>): string {
  if (!Object.isFrozen(args)) return canonicalJson(args);
  let key = argsKeys.get(args);
  if (key === undefined) argsKeys.set(args, (key = canonicalJson(args)));
  return key;
}

const argsKeys = new WeakMap<object, string>();

export interface ToolOutcome {
  result: ToolResult;
  eventId: number;
  observation: Observation;
  /** How many times this exact call has now failed in the episode (0 after a success). */
  failuresOfThisCall: number;
  /**
   * For a read-only tool: how many times this exact call has now run with the repository unchanged since the first
   * of them (its change log no longer), 1 for a first or changed-state call; 0 for tools that are not read-only.
   */
  readsOfThisCall: number;
}

/** What caused a tool call, as trace event ids: the model call whose reply chose it, the plan whose step it runs. */
export interface ToolCallLinks {
  call?: number;
  plan?: number;
}

const NO_LINKS: ToolCallLinks = {};

/** Runs one tool call against the episode's repo, records it (with its `links`), and updates the ledger. Never throws. */
export function useTool(
  ctx: StrategyContext,
  ledger: ToolLedger,
  tool: string,
  args: Record<string, unknown>,
  stepId?: string,
  attempt = 1,
  links: ToolCallLinks = NO_LINKS,
): ToolOutcome {
  const result = executeToolCall(ctx.repo, { tool, args });
  ledger.toolCalls += 1;
  // Built by assignment, not conditional spreads: this runs for every tool call of every episode.
  const event: Extract<TraceEventInput, { type: 'tool_call' }> = {
    type: 'tool_call',
    attempt,
    tool,
    args,
    status: result.status,
    output: result.output,
    duration_ms: result.duration_ms,
    side_effect: result.side_effect,
  };
  // The output is already capped for a model (tools/cap-output.ts), marker included.
  const observation: Observation = { tool, args, status: result.status, output: result.output };
  if (stepId !== undefined) event.step_id = observation.step_id = stepId;
  if (result.exit_code !== undefined) event.exit_code = observation.exit_code = result.exit_code;
  if (result.error_code !== undefined) event.error_code = result.error_code;
  if (links.call !== undefined) event.call = links.call;
  if (links.plan !== undefined) event.plan = links.plan;
  const eventId = ctx.trace.emit(event);
  ledger.history.push(observation);
  let failures = 0;
  if (result.status !== 'success') {
    const key = callKey(tool, args);
    failures = (ledger.failures.get(key) ?? 0) + 1;
    ledger.failures.set(key, failures);
  }
  let reads = 0;
  if (getTool(tool)?.readOnly === true) {
    // The change log grows with every edit, write, side-effecting command and push: its length names the state.
    const key = callKey(tool, args);
    const changes = ctx.repo.changes.length;
    const seen = ledger.reads.get(key);
    reads = seen !== undefined && seen.changes === changes ? seen.count + 1 : 1;
    ledger.reads.set(key, { count: reads, changes });
  }
  return { result, eventId, observation, failuresOfThisCall: failures, readsOfThisCall: reads };
}

/**
 * True when a model of the episode is served over the network (not a deterministic stand-in), or when episodes run
 * side by side with more than one code worker (`codeAheadOverlaps`): the sandbox runs of a tool call are then made
 * ahead of it without blocking the main thread (`codeAhead`), so that other episodes' model replies are read, and their
 * own runs go to other workers, meanwhile. With in-process models one at a time there is nothing to overlap, and the
 * probe would only cost. The outcome is the same either way.
 */
export function codeGoesAhead(ctx: StrategyContext): boolean {
  for (const model of Object.values(ctx.models)) if (!model.deterministic) return true;
  return codeAheadOverlaps();
}

/**
 * `useTool`, with the sandbox runs a `run` call needs (tests, lint, node) made ahead when `codeGoesAhead`: a probe
 * runs the call on a copy of the repository to learn them. The outcome is the same either way (the call itself runs
 * as in `useTool`).
 */
export async function useToolAhead(
  ctx: StrategyContext,
  ledger: ToolLedger,
  tool: string,
  args: Record<string, unknown>,
  stepId?: string,
  attempt = 1,
  links: ToolCallLinks = NO_LINKS,
): Promise<ToolOutcome> {
  const use = () => useTool(ctx, ledger, tool, args, stepId, attempt, links);
  if (tool !== 'run' || !codeGoesAhead(ctx)) return use();
  return codeAhead(() => executeToolCall(ctx.repo.clone(), { tool, args }), use);
}

/** One call of a plan wave: its tool, args, step id and trace links. */
export interface WaveCall {
  tool: string;
  args: Record<string, unknown>;
  stepId: string;
  links: ToolCallLinks;
}

/**
 * Runs the calls of a plan wave as if started together (`SimRepo.concurrently`: each sees the earlier ones' effects;
 * the clock advances by the longest), with their sandbox runs made ahead as in `useToolAhead`. Outcomes in order.
 */
export async function useToolsConcurrently(ctx: StrategyContext, ledger: ToolLedger, calls: readonly WaveCall[]): Promise<ToolOutcome[]> {
  const use = () => ctx.repo.concurrently(calls.map((call) => () => useTool(ctx, ledger, call.tool, call.args, call.stepId, 1, call.links)));
  if (!calls.some((call) => call.tool === 'run') || !codeGoesAhead(ctx)) return use();
  const probe = () => {
    const copy = ctx.repo.clone();
    copy.concurrently(calls.map((call) => () => executeToolCall(copy, call)));
  };
  return codeAhead(probe, use);
}
