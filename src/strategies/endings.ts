// Shared helpers that turn replies and limits into outcomes and trace events.
import type { Outcome } from '../records/index.js';
import type { StrategyContext } from './context.js';
import type { Role } from '../models/types.js';

/** Records the episode's `end` event and returns the outcome. */
export function end(ctx: StrategyContext, outcome: Outcome): Outcome {
  // Built by assignment in the event's key order, not with conditional spreads (every episode ends here).
  const event: { type: 'end'; status: Outcome['status']; reason: Outcome['reason']; answer?: string; message?: string } = {
    type: 'end',
    status: outcome.status,
    reason: outcome.reason,
  };
  if (outcome.answer !== undefined) event.answer = outcome.answer;
  if (outcome.message !== undefined) event.message = outcome.message;
  ctx.trace.emit(event);
  return outcome;
}

export function finished(ctx: StrategyContext, answer: string, reason = 'finished'): Outcome {
  return end(ctx, { status: 'finished', reason, answer });
}

export function stopped(ctx: StrategyContext, message: string, reason = 'stopped'): Outcome {
  return end(ctx, { status: 'stopped', reason, message });
}

/** Asks the reporter once for what the run found; resolves to its answer, or undefined when the reply stayed invalid. */
export type WriteReport = (budget: { limit: string; detail: string }) => Promise<string | undefined>;

/**
 * A budget ended the run (tool calls, replans, repeated call, repeated assumption). The reporter is called once
 * (issue 11 §1: "every run ends with a report"; seed 001: a stop must leave something useful), and its answer is
 * the outcome's `answer`; the status stays `budget_exhausted` (scoring: docs/decisions/0006-budget-endings-report.md).
 */
export async function budgetExhausted(ctx: StrategyContext, limit: string, detail: string, report: WriteReport): Promise<Outcome> {
  ctx.trace.emit({ type: 'budget', limit, detail });
  const answer = await report({ limit, detail });
  return end(ctx, { status: 'budget_exhausted', reason: limit, ...(answer === undefined ? {} : { answer }) });
}

/** The same read-only call ran `times` times on an unchanged repository: a `repeated_call` budget ending. */
export function repeatedRead(ctx: StrategyContext, tool: string, times: number, report: WriteReport): Promise<Outcome> {
  return budgetExhausted(ctx, 'repeated_call', `${tool} with the same args ran ${times} times on an unchanged repository`, report);
}

/** A role's reply still failed after the repair attempt (`role`: a built-in role, or a declared one's name). */
export function invalidOutput(ctx: StrategyContext, role: Role | (string & {}), error: string): Outcome {
  return end(ctx, { status: 'invalid_output', reason: `${role}_invalid_output`, message: error });
}
