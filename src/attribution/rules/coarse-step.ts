// Rule: one step of the first plan names several targets but runs as one call, so the others are never touched.
import { failingChecks, finalCheckEvent, finding, type Rule, type RuleInput } from '../finding.js';
import { brief, callTarget, namedTargets, sameTarget } from '../targets.js';

type Call = { tool: string; args: Record<string, unknown> };

const isCall = (value: unknown): value is Call =>
  typeof value === 'object' && value !== null && typeof (value as Call).tool === 'string' && typeof (value as Call).args === 'object';

/** The items a step description lists: "Run the test suite, the checkout tests and the linter" → three items. */
export function listedItems(does: string): string[] {
  // A subordinate clause is no second item: "Run the tests so that we can see which one fails", "… to check whether …";
  // it runs to the next comma ("Run the test suite that CI runs, the checkout tests and the linter" keeps its list).
  // Nor is a source named after a comma: "Rerun the tests, as the memory note says", "…, per the runbook" (", as well
  // as" is a conjunction, not a source).
  const main = does
    .replace(/[.!]+$/, '')
    .replace(/\s*,\s*(?:as(?!\s+well\s+as\b)|per|according to|like)\s+[^,;]*/gi, '')
    .replace(
      /\s+(?:so that|so|in order to|to (?:see|check|find|confirm|verify|make sure)|which|that|whether|because|since|until|if|when|while|before|after)\s+[^,;]*/gi,
      '',
    );
  const items = main
    .split(/\s*,\s*(?:and\s+|then\s+|as well as\s+)?|\s*;\s*|\s+(?:and|then|plus|as well as)\s+/i)
    .map((item) => item.trim())
    .filter((item) => /[a-z]/i.test(item))
    // "and see which fail", "then check whether …", "and report the result": a verb of looking at the result is what the
    // call does, not another target; "and check the linter" names one.
    .filter(
      (item, k) =>
        k === 0 ||
        !/^(?:see|check|look|confirm|verify|make sure|report|note|find out|read)\b(?:\s*$|\s+(?:which|what|whether|if|how|that|the (?:result|output|outcome)s?|it|them|for)\b)/i.test(
          item,
        ),
    );
  return items.length >= 2 ? items : [];
}

/** Content words of at least four letters, lower case (`the checkout tests` → checkout, tests). */
const contentWords = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? []).filter((w) => !['with', 'from', 'that', 'this', 'then'].includes(w));

/** Whether two words share a stem: one starts with the other (lint/linter, test/tests). */
const sameStem = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);

/**
 * The listed items of a prose step that name a call of the task's reference which no call of the episode made:
 * "the linter" names `pnpm lint` when the episode never linted. Returns the item with the call it names.
 */
function untouchedListedItems(input: RuleInput, does: string): { item: string; call: Call }[] {
  const items = listedItems(does);
  if (items.length === 0) return [];
  const reference = (input.task.reference?.steps ?? []).filter(isCall);
  const made = (call: Call) => input.index.toolCalls.some((done) => sameTarget(done, call));
  return items.flatMap((item) => {
    const words = contentWords(item);
    // The reference call the item names best: most target words it shares, fewest it lacks ("Run the test suite" is
    // `pnpm test`, not `pnpm test:checkout`). It counts only if the episode never made that call.
    const scored = reference
      .map((candidate) => {
        const target = contentWords(callTarget(candidate.tool, candidate.args));
        const shared = target.filter((t) => words.some((word) => sameStem(word, t))).length;
        return { candidate, shared, score: shared - (target.length - shared) };
      })
      .filter((entry) => entry.shared > 0)
      .sort((a, b) => b.score - a.score);
    const best = scored[0]?.candidate;
    return best !== undefined && !made(best) ? [{ item, call: best }] : [];
  });
}

/**
 * A first-plan step executed as one call whose `does` names several targets, where a named target was never
 * touched by any call of the episode and a check of the task or of done_when fails (seed 001: "a step that hid
 * several edits"). Targets are files or backticked commands, or — for a step written in prose ("Run the test
 * suite, the checkout tests and the linter") — listed items that name a reference call the episode never made.
 * Evidence: the planner's call, the plan event, the step's tool call, the first failing check.
 */
export const coarseStep: Rule = (input) => coarse(input, false);

/**
 * The prose half of coarse_step ("Run the test suite, the checkout tests and the linter", no file or backticked command
 * named): a tie-breaker only, tried after every act rule and before the ending rules, so wording never outranks a
 * structural finding such as an executor's invalid output or a replanner repeating its assumption (issue 27, kind 1).
 */
export const coarseStepProse: Rule = (input) => coarse(input, true);

function coarse(input: RuleInput, prose: boolean): ReturnType<Rule> {
  const { index, checks } = input;
  const first = index.plans[0];
  if (!first || first.author !== 'planner') return undefined;
  const touched = new Set(index.toolCalls.map((t) => callTarget(t.tool, t.args)));
  const { state, words } = failingChecks(checks);
  const failingState = state[0] ?? words[0];
  const failingDoneWhen = index.doneWhenChecks.find((c) => !c.pass);
  if (!failingState && !failingDoneWhen) return undefined;
  const failing = failingState ? finalCheckEvent(input, failingState) : failingDoneWhen?.id;
  const detail = failingState?.detail ?? failingDoneWhen?.detail ?? '';
  for (const step of first.steps) {
    const call = index.toolCalls.find((t) => t.step_id === step.id);
    if (!call) continue;
    const targets = namedTargets(step.does);
    if (targets.length >= 2) {
      if (prose) continue;
      const untouched = targets.filter((target) => !touched.has(target));
      if (untouched.length === 0) continue;
      return finding(
        'planner',
        'coarse_step',
        [first.authorCallId, first.eventId, call.id, failing],
        `Step ${step.id} of the first plan (written at event ${first.authorCallId}), "${step.does}", names ${targets.join(', ')} but is one ${call.tool} call on ${callTarget(call.tool, call.args)} (event ${call.id}); ${untouched.join(', ')} was never touched, and ${brief(detail)} (event ${failing}).`,
      );
    }
    if (!prose || targets.length >= 2) continue;
    const untouchedItems = untouchedListedItems(input, step.does);
    if (untouchedItems.length === 0) continue;
    const named = untouchedItems.map(({ item, call: missed }) => `"${item}" (${callTarget(missed.tool, missed.args)})`).join(', ');
    return finding(
      'planner',
      'coarse_step',
      [first.authorCallId, first.eventId, call.id, failing],
      `Step ${step.id} of the first plan (written at event ${first.authorCallId}), "${step.does}", lists ${listedItems(step.does).length} things but is one ${call.tool} call on ${callTarget(call.tool, call.args)} (event ${call.id}); ${named} never ran, and ${brief(detail)} (event ${failing}).`,
    );
  }
  return undefined;
}
