// Rule: the state is right but the answer (or stop message) misses what the checks ask for.
import { failingChecks, finalCheckEvent, finding, type Rule } from '../finding.js';
import { brief } from '../targets.js';
import { lastCallOf } from '../trace-index.js';
import { showsWords } from '../word-checks.js';
import { endingMatches as endingMatchesTask } from '../../scoring/ending.js';

/**
 * Every state check passes, the ending matches the task, and an answer_contains or message_mentions check fails.
 * Direct/ReAct: the agent's last call wrote it. Plan strategies: the reporter wrote it from the executor's results,
 * so it is `executor.wrong_answer` only when a tool output showed what the check asks for and the report left it
 * out; when nothing ever showed it, the plan never looked, and missing_step (the last resort) takes it.
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
    const call = lastCallOf(index, ['agent', 'direct']);
    return finding(
      'agent',
      'wrong_answer',
      [call?.id, event, end.id],
      `The agent's ${end.status === 'stopped' ? 'stop message' : 'answer'} at event ${call?.id} ("${quote}") fails the check: ${brief(words[0]!.detail)} (event ${event}).`,
    );
  }
  const reporter = lastCallOf(index, ['reporter']);
  const shown = index.toolCalls.find((t) => words.some((c) => showsWords(t.output, c.check)));
  if (!reporter || !shown) return undefined;
  return finding(
    'executor',
    'wrong_answer',
    [reporter.id, shown.id, event, end.id],
    `The report written at event ${reporter.id} ("${quote}") fails the check: ${brief(words[0]!.detail)} (event ${event}), although the ${shown.tool} call at event ${shown.id} showed it.`,
  );
};
