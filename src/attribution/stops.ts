// Whether a replanner's stop names the blocker its failure made observable (shared by vague_stop and wrong_check).
import type { CheckResult } from '../records/index.js';
import { failingChecks } from './finding.js';
import { blockerTokens } from './targets.js';
import type { ModelCallEvent, TraceIndex } from './trace-index.js';

export interface StopReading {
  /** The replanner call that decided to stop. */
  call: ModelCallEvent;
  /** The failure it was shown: the failing done_when check or the failed tool call before it. */
  failureEvent: number | undefined;
  /** Blocker words in that failure (see blockerTokens), plus the command, path or text of a failing check. */
  tokens: string[];
  /** A task message_mentions check the stop message fails, if any. */
  missedCheck: CheckResult | undefined;
  /** Fails a message check, or repeats none of the blocker words. */
  vague: boolean;
}

/** Reads the replanner stop that ended the episode; undefined when the replanner did not end it with a stop. */
export function readReplannerStop(index: TraceIndex, checks: readonly CheckResult[]): StopReading | undefined {
  const end = index.end;
  if (!end || end.status !== 'stopped' || end.reason !== 'replanner_stopped') return undefined;
  const call = [...index.modelCalls].reverse().find((c) => c.role === 'replanner' && c.id < end.id);
  if (!call) return undefined;
  const failedCall = [...index.toolCalls].reverse().find((t) => t.id < call.id && t.status !== 'success');
  const lastChecks = index.doneWhenChecks.filter((c) => c.id < call.id && !c.pass && (failedCall === undefined || c.id > failedCall.id));
  const shown = lastChecks.length > 0 ? lastChecks.map((c) => c.detail).join('\n') : (failedCall?.output ?? '');
  const named = lastChecks.flatMap((c) => ['cmd', 'path', 'text'].map((key) => c.check[key]).filter((v): v is string => typeof v === 'string'));
  const tokens = [...new Set([...blockerTokens(shown), ...named])];
  const message = (end.message ?? '').toLowerCase();
  const missedCheck = failingChecks(checks).words.find((c) => c.check['check'] === 'message_mentions');
  const namesNone = tokens.length > 0 && !tokens.some((token) => message.includes(token.toLowerCase()));
  return {
    call,
    failureEvent: lastChecks[lastChecks.length - 1]?.id ?? failedCall?.id,
    tokens,
    missedCheck,
    vague: missedCheck !== undefined || namesNone,
  };
}
