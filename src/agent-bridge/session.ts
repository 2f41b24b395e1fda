// One external agent's episode as the bridge sees it: the tool ledger, the budgets, and how the episode ended.
import { newLedger, type ToolLedger } from '../strategies/tool-use.js';
import type { StrategyContext } from '../strategies/context.js';
import type { Outcome } from '../records/index.js';

/**
 * What an external agent may spend in one episode, enforced by the bridge (issue 28 §3): model calls at the model
 * proxy, tool calls at the MCP server, and the wall-clock deadline (ms) on the process.
 */
export interface AgentBudgets {
  maxModelCalls: number;
  maxToolCalls: number;
  deadlineMs: number;
}

/**
 * Defaults: 12 tool calls, ReAct's budget in seed 001 (so an external agent and the built-in `react` are held to the
 * same work); 24 model calls (two per tool call leaves room for a framework's retries); 120,000 ms of wall time,
 * generous for a process that starts a runtime and a framework before its first call.
 */
export const AGENT_BUDGETS: AgentBudgets = { maxModelCalls: 24, maxToolCalls: 12, deadlineMs: 120_000 };

/** How the bridge settled an episode before the process exited on its own. */
export type Settled =
  | { kind: 'outcome'; outcome: Outcome; by: 'finish' | 'stop' | 'budget' }
  | { kind: 'error'; error: unknown; by: 'infrastructure' | 'harness' | 'interrupted' };

/** A tool call a proxied model reply asked for, with the model_call event it came from (the trace links them). */
interface AskedCall {
  eventId: number;
  name: string;
  args: string;
}

/**
 * The shared state of one episode: the MCP server and the model proxy write into it, the strategy waits on `ended`.
 * Once settled, both refuse further requests (the process is being killed).
 */
export class AgentSession {
  readonly ledger: ToolLedger = newLedger();
  modelCalls = 0;
  /** Any request reached the MCP server or the proxy (a command that never ran cannot have made one). */
  contacted = false;
  /** The content of the last proxied reply that asked for no tool: an agent that exits after it answered with it. */
  lastMessage: string | undefined;
  settled: Settled | undefined;
  readonly ended: Promise<Settled>;
  private resolveEnded!: (settled: Settled) => void;
  private asked: AskedCall[] = [];

  constructor(
    readonly ctx: StrategyContext,
    readonly budgets: AgentBudgets,
  ) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  get closed(): boolean {
    return this.settled !== undefined;
  }

  /** Ends the episode (first call wins). */
  settle(settled: Settled): void {
    if (this.settled !== undefined) return;
    this.settled = settled;
    this.resolveEnded(settled);
  }

  /** A budget ran out: the `budget` event now, the `budget_exhausted` ending once the process is gone. */
  exhaust(limit: string, detail: string): void {
    if (this.closed) return;
    this.ctx.trace.emit({ type: 'budget', limit, detail });
    this.settle({ kind: 'outcome', outcome: { status: 'budget_exhausted', reason: limit }, by: 'budget' });
  }

  /** Remembers the tool calls a model reply (event `eventId`) asked for. */
  noteAsked(eventId: number, calls: ReadonlyArray<{ name: string; args: unknown }>): void {
    this.asked = calls.map((call) => ({ eventId, name: call.name, args: JSON.stringify(call.args ?? {}) }));
  }

  /**
   * The model_call event whose reply asked for this tool call (same name, same args first, else same name), consumed;
   * undefined when no proxied reply asked for it (the agent called a tool on its own).
   */
  takeAsking(name: string, args: unknown): number | undefined {
    const text = JSON.stringify(args ?? {});
    const exact = this.asked.findIndex((call) => call.name === name && call.args === text);
    const at = exact >= 0 ? exact : this.asked.findIndex((call) => call.name === name);
    if (at < 0) return undefined;
    const [call] = this.asked.splice(at, 1);
    return call?.eventId;
  }
}
