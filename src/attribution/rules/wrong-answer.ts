// Rule: the state is right but the answer (or stop message) misses what the checks ask for.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief, callTarget } from '../targets.js';
import type { CheckResult } from '../../records/index.js';
import { endingChoiceOf, lastCallOf } from '../trace-index.js';
import { showsWords } from '../word-checks.js';
import { endingMatches as endingMatchesTask } from '../../scoring/ending.js';

/**
 * For a report_faithful check that found a claim *contradicted* (not merely unsupported): the tool call whose result
 * contradicts it — the call the detail names after "but" ("says checkout tests passes, but pnpm test:checkout → exit
 * 1"), else the last call. The trace showed the truth and the report misstated it. Undefined for an unsupported claim
 * (nothing was run that could show it: the plan never looked).
 */
function contradictingCall<T extends { tool: string; args: Record<string, unknown> }>(calls: readonly T[], words: readonly CheckResult[]): T | undefined {
  const contradiction = words
    .filter((c) => c.check['check'] === 'report_faithful')
    .map((c) => /\bcontradicted: .*?, but (.+?)(?: →|;|$)/.exec(c.detail)?.[1])
    .find((named) => named !== undefined);
  if (contradiction === undefined || calls.length === 0) return undefined;
  return calls.find((call) => contradiction.startsWith(callTarget(call.tool, call.args))) ?? calls[calls.length - 1];
}

/**
 * Every state check passes, the ending matches the task, and an answer_contains or message_mentions check fails.
 * Direct/ReAct: the agent's ending call wrote it (endingChoiceOf: the end event when an external agent's process sent an
 * answer its model did not propose). Plan strategies: the reporter wrote it from the executor's results,
 * so it is `executor.wrong_answer` only when a tool output showed what the check asks for and the report left it
 * out, or when report_faithful found a claim the trace contradicts (see contradictingCall); when nothing ever showed
 * it, the plan never looked, and missing_step (the last resort) takes it.
 * Evidence: that call, the failing check, the end.
 */
export const wrongAnswer: Rule = (input) => {
  const { task, index, checks } = input;
  const end = index.end;
  if (!end) return undefined;
  const { state, words } = failingChecks(checks);
  const endingMatches = endingMatchesTask(task, end);
  if (state.length > 0 || words.length === 0 || !endingMatches) return undefined;
  const event = finalCheckEvent(input, words[0]);
  const said = end.answer ?? end.message ?? '';
  const quote = said.length > 80 ? `${said.slice(0, 79)}…` : said;
  if (index.family === 'agent') {
    const choice = endingChoiceOf(index, ['agent', 'direct']);
    return finding(
      'agent',
      'wrong_answer',
      [choice.id, event, end.id],
      `The agent's ${end.status === 'stopped' ? 'stop message' : 'answer'} at event ${choice.id ?? end.id} ("${quote}") fails the check: ${brief(words[0]!.detail)} (event ${event})${choice.note}.`,
    );
  }
  const reporter = lastCallOf(index, ['reporter']);
  // A report that claims what no step ran ("nothing fails" with no lint run) and contradicts nothing the steps showed:
  // the plan never looked, and the plan's rules (a coarse step, a missing step) take it, not a value a tool printed
  // in passing (adversary review: "discount" in a commit message was read as the answer shown).
  const faithfulness = words.filter((c) => c.check['check'] === 'report_faithful').map((c) => c.detail);
  if (faithfulness.some((detail) => /\bunsupported: /.test(detail)) && !faithfulness.some((detail) => /\bcontradicted: /.test(detail))) return undefined;
  const shown = index.toolCalls.find((t) => words.some((c) => showsWords(t.output, c.check))) ?? contradictingCall(index.toolCalls, words);
  if (!reporter || !shown) return undefined;
  return finding(
    'executor',
    'wrong_answer',
    [reporter.id, shown.id, event, end.id],
    `The report written at event ${reporter.id} ("${quote}") fails the check: ${brief(words[0]!.detail)} (event ${event}), although the ${shown.tool} call at event ${shown.id} showed it.`,
  );
};
