// Rule: the replanner stopped with a message that names none of the blockers the failure made observable.
import { finalCheckEvent, finding, type Rule } from '../finding.js';
import { readReplannerStop } from '../stops.js';
import { describeWords } from '../word-checks.js';

/**
 * Plan-and-replan runs the replanner ended with a stop that failed: vague when a task `message_mentions` check
 * fails, or when the message repeats none of the blocker words (UPPER_SNAKE names, error codes, HTTP statuses,
 * paths and file names, `pnpm …` commands) of the failure it was shown (seed 001: "a stop is only useful if the
 * message says … what's needed and who can provide it"). Evidence: the replanner's call, the failure it saw,
 * the end, the failing message check.
 */
export const vagueStop: Rule = (input) => {
  const stop = readReplannerStop(input.index, input.checks);
  const end = input.index.end;
  if (!stop || !stop.vague || !end) return undefined;
  const why = stop.missedCheck ? `does not mention ${describeWords(stop.missedCheck.check)}` : `names none of ${stop.tokens.slice(0, 4).join(', ')}`;
  return finding(
    'replanner',
    'vague_stop',
    [stop.call.id, stop.failureEvent, end.id, finalCheckEvent(input, stop.missedCheck)],
    `The replanner stopped at event ${stop.call.id} with "${end.message ?? ''}", which ${why}, although the failure it was shown (event ${stop.failureEvent}) made the blocker observable.`,
  );
};
