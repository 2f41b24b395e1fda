// Rule: an edit names a file, or text in a file, that nothing had shown and the repository does not have.
import { capitalise, earliest, finding, type Finding, type Rule, type RuleInput } from '../finding.js';
import { canonical, normalizePath, promptNamesPath } from '../targets.js';
import { agentCallWords, observedBefore, stepOf, type ToolCallEvent } from '../trace-index.js';

/** A failed edit/write whose target was a guess: the file was absent and unseen, or the old text never showed. */
function guess(input: RuleInput, call: ToolCallEvent, since: number): string | undefined {
  if ((call.tool !== 'edit' && call.tool !== 'write') || call.status === 'success') return undefined;
  const path = typeof call.args['path'] === 'string' ? normalizePath(call.args['path']) : undefined;
  if (path === undefined || promptNamesPath(input.task.prompt, path)) return undefined;
  if (call.error_code === 'not_found' && input.final.repo.initialFile(path) === undefined && !observedBefore(input.index, since, path)) {
    return `${path}, which no earlier event had read, listed or searched and which the repository does not have`;
  }
  const old = call.args['old'];
  if (call.error_code === 'old_not_found' && typeof old === 'string' && !observedBefore(input.index, since, old)) {
    return `${path} replacing ${JSON.stringify(old.length > 40 ? `${old.slice(0, 39)}…` : old)}, text no earlier event had shown and the file does not contain`;
  }
  return undefined;
}

/**
 * A planned edit that never ran because a call on the same path found nothing (seed 001: the replanner read, then
 * would have edited, src/checkout.js, which does not exist): the guess still decided the run.
 */
function unranGuesses(input: RuleInput): Finding[] {
  const { index, final, task } = input;
  const findings: Finding[] = [];
  for (const plan of index.plans) {
    for (const step of plan.steps.filter((s) => s.revision === plan.revision && (s.tool === 'edit' || s.tool === 'write') && s.args !== null)) {
      const path = typeof step.args!['path'] === 'string' ? normalizePath(step.args!['path']) : undefined;
      if (path === undefined || promptNamesPath(task.prompt, path) || final.repo.initialFile(path) !== undefined) continue;
      if (observedBefore(index, plan.authorCallId, path) || index.toolCalls.some((t) => t.step_id === step.id && t.id > plan.eventId)) continue;
      const miss = index.toolCalls.find((t) => t.id > plan.eventId && t.error_code === 'not_found' && normalizePath(String(t.args['path'] ?? '')) === path);
      if (!miss) continue;
      const writer = plan.author === 'planner' ? 'the first plan' : `revision ${plan.revision}`;
      findings.push(
        finding(
          plan.author,
          'guessed_target',
          [plan.authorCallId, plan.eventId, miss.id],
          `Step ${step.id} of ${writer} (written at event ${plan.authorCallId}) ${step.tool}s ${path}, which no earlier event had read, listed or searched and which the repository does not have; the ${miss.tool} of it at event ${miss.id} found nothing and the ${step.tool} never ran.`,
        ),
      );
    }
  }
  return findings;
}

/**
 * Plan strategies: the step's args were written by the planner (first plan) or the replanner (a revision) and the
 * executor sent them unchanged; the guess is judged against what had been observed before that author's call.
 * Direct/ReAct: the agent's own call. Lookups (read, list, search) are never guesses: a miss is an answer.
 * Evidence: the author's model call, its plan event, the failed tool call.
 */
export const guessedTarget: Rule = (input) => {
  const findings: Finding[] = input.index.family === 'plan' ? unranGuesses(input) : [];
  for (const call of input.index.toolCalls) {
    if (input.index.family === 'agent') {
      const caller = input.index.callerOf.get(call.id);
      // A call no model call asked for (an external agent's process on its own) is judged on what was seen before it.
      const what = guess(input, call, caller ?? call.id);
      if (what)
        findings.push(
          finding(
            'agent',
            'guessed_target',
            [caller, call.id],
            `${capitalise(agentCallWords(input.index, call))} ${call.tool}s ${what}; it failed${caller === undefined ? '' : ` at event ${call.id}`} (${call.error_code ?? call.status}).`,
          ),
        );
      continue;
    }
    const located = stepOf(input.index, call);
    if (!located || located.step.args === null || canonical(located.step.args) !== canonical(call.args)) continue;
    const { step, author } = located;
    const what = guess(input, call, author.authorCallId);
    if (!what) continue;
    const writer = author.author === 'planner' ? 'the first plan' : `revision ${author.revision}`;
    findings.push(
      finding(
        author.author,
        'guessed_target',
        [author.authorCallId, author.eventId, call.id],
        `Step ${step.id} of ${writer} (written at event ${author.authorCallId}) ${call.tool}s ${what}; it failed at event ${call.id} (${call.error_code ?? call.status}).`,
      ),
    );
  }
  return earliest(findings);
};
