// Whether a replanner's stop names the blocker its failure made observable (shared by vague_stop and wrong_check).
import type { CheckResult } from '../records/index.js';
import { failingChecks } from './finding.js';
import { blockerTokens } from './targets.js';
import type { ModelCallEvent, TraceIndex } from './trace-index.js';

export interface StopReading {
  /** The replanner call that decided to stop. */
  call: ModelCallEvent;
  /** The failure the stop should have named (see readReplannerStop). */
  failureEvent: number | undefined;
  /** Blocker words in every failure it was shown (see blockerTokens), plus the command, path or text of failing checks. */
  tokens: string[];
  /** A task message_mentions check the stop message fails, if any. */
  missedCheck: CheckResult | undefined;
  /** Fails a message check, or repeats none of the blocker words. */
  vague: boolean;
}

/**
 * Reads the replanner stop that ended the episode; undefined when the replanner did not end it with a stop.
 * Every failure the replanner had been shown by then counts — each failed tool call and failing done_when check
 * before its call — since a blocker seen at the first failure (a missing key in a test's output) is still the
 * blocker when a later step fails differently. The failure cited is the one the stop should have named: the first
 * holding what a failing `message_mentions` check asks for, else the first with a blocker word, else the last.
 */
export function readReplannerStop(index: TraceIndex, checks: readonly CheckResult[]): StopReading | undefined {
  const end = index.end;
  if (!end || end.status !== 'stopped' || end.reason !== 'replanner_stopped') return undefined;
  const call = [...index.modelCalls].reverse().find((c) => c.role === 'replanner' && c.id < end.id);
  if (!call) return undefined;
  const failures = [
    ...index.toolCalls.filter((t) => t.id < call.id && t.status !== 'success').map((t) => ({ id: t.id, text: t.output, named: [] as string[] })),
    ...index.doneWhenChecks
      .filter((c) => c.id < call.id && !c.pass)
      .map((c) => ({ id: c.id, text: c.detail, named: ['cmd', 'path', 'text'].map((key) => c.check[key]).filter((v): v is string => typeof v === 'string') })),
  ]
    .sort((a, b) => a.id - b.id)
    .map((failure) => ({ ...failure, tokens: [...new Set([...blockerTokens(failure.text), ...failure.named])] }));
  const tokens = [...new Set(failures.flatMap((failure) => failure.tokens))];
  const message = (end.message ?? '').toLowerCase();
  const missedCheck = failingChecks(checks).words.find(
    (c) => c.check['check'] === 'message_mentions' || (c.check['check'] === 'answer_value' && c.check['on'] === 'message'),
  );
  const namesNone = tokens.length > 0 && !tokens.some((token) => message.includes(token.toLowerCase()));
  const wanted = missedCheck ? wantedWords(missedCheck.check) : [];
  const cited =
    failures.find((failure) => wanted.some((word) => failure.text.toLowerCase().includes(word))) ??
    failures.find((failure) => failure.tokens.length > 0) ??
    failures[failures.length - 1];
  return { call, failureEvent: cited?.id, tokens, missedCheck, vague: missedCheck !== undefined || namesNone };
}

/** The words a message check asks for, lower case (its text and alternatives; a pattern's literal words). */
function wantedWords(check: Record<string, unknown>): string[] {
  const words = [
    check['text'],
    check['expect'],
    ...(Array.isArray(check['any_of']) ? check['any_of'] : []),
    ...(Array.isArray(check['forms']) ? check['forms'] : []),
  ].filter((w): w is string => typeof w === 'string' && w.trim() !== '');
  if (typeof check['pattern'] === 'string') words.push(...(check['pattern'].match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []));
  return words.map((word) => word.toLowerCase());
}
