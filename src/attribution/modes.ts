// The closed list of components and failure modes an attribution may name, each with its one-line definition.

/**
 * Failure modes per component. The list (issue 4 §1) plus a few the rules need to cover every failed
 * episode: `executor.wrong_answer` (the reporter, which only writes up the executor's results, states what the
 * results do not say), `replanner.missing_step`, `invalid_output` for every model role, `budget.exhausted`, and
 * `context_exceeded` for every model role (its prompt outgrew the model's context window, issue 25 §5),
 * `unattributed.no_rule` for a failure resting on a declared role no rule covers (issue 28 §1), and an external agent's
 * process endings, `agent.process_exit` and `agent.process_hang` (issue 28).
 */
export const MODES = {
  planner: ['invalid_plan', 'guessed_target', 'wrong_check', 'coarse_step', 'missing_step', 'context_exceeded', 'tampered_grader'],
  executor: ['invalid_output', 'bad_edit', 'drift', 'overreach', 'wrong_answer', 'context_exceeded', 'tampered_grader'],
  replanner: [
    'invalid_output',
    'guessed_target',
    'repeated_call',
    'repeated_assumption',
    'no_progress',
    'weakened_check',
    'vague_stop',
    'missing_step',
    'context_exceeded',
    'tampered_grader',
  ],
  gate: ['invalid_output', 'misroute', 'context_exceeded'],
  agent: [
    'invalid_output',
    'guessed_target',
    'tampered_test',
    'overreach',
    'no_stop',
    'premature_finish',
    'wrong_answer',
    'context_exceeded',
    'tampered_grader',
    'process_exit',
    'process_hang',
  ],
  budget: ['exhausted'],
  unattributed: ['no_rule'],
} as const;

export type Component = keyof typeof MODES;
export type Mode = (typeof MODES)[Component][number];
export type ModeOf<C extends Component> = (typeof MODES)[C][number];

/** What a tampered_grader verdict says the code did (issue 25 §1). */
const TAMPER =
  'tried to change what grades it (assigned a locked intrinsic, replaced a built-in matcher, registered tests or hooks from a source module) or left a test result the grader could not read';

/** What each `component.mode` means (rendered into docs/decisions/0004-attribution.md and `explain`). */
export const MODE_DEFINITIONS: { [C in Component]: Record<ModeOf<C>, string> } = {
  planner: {
    invalid_plan: 'the plan failed validation (or did not parse) twice, so nothing ran',
    guessed_target: 'a plan step edits a file, or text in a file, that no earlier event had read, listed or searched and the repository does not have',
    wrong_check:
      'a done_when check that cannot pass in this repository (no such command or file, or it fails although the task is done), e.g. copied from the request',
    coarse_step: 'one step names several targets (files or commands) but is one call, so the others are never touched',
    missing_step: 'the plan ran as written and still cannot meet the task: a needed step is not in it',
    context_exceeded: "the planner's prompt did not fit the model's context window (the server refused it, or Ollama truncated it at num_ctx)",
    tampered_grader: `a plan step's code, run as the plan wrote it, ${TAMPER}`,
  },
  executor: {
    invalid_output: 'an executor (or reporter) reply failed to parse or validate twice',
    bad_edit: 'the executor sent edit text the file does not contain (although it was read)',
    drift: 'the executor call does not do what the step says: another tool, other args than the plan gave, or an edit that changes nothing',
    overreach: 'the executor filled a step the plan declared side-effect free with a call that has a side effect the request did not ask for',
    wrong_answer: "every step and check went through but the final report (the reporter writing up the executor's results) misstates them",
    context_exceeded: "an executor's (or reporter's) prompt, with the results so far, did not fit the model's context window",
    tampered_grader: `code the executor wrote ${TAMPER}`,
  },
  replanner: {
    invalid_output: 'a replanner reply failed to parse or validate twice',
    guessed_target: 'a revised step edits a file, or text in a file, that no earlier event had shown and the repository does not have',
    repeated_call: 'a revision schedules again, unchanged, a call that had already failed (or missed), with no change planned before it',
    repeated_assumption: 'a replan blames an assumption an earlier replan already named (or names none), after a revision that retried the disproved approach',
    no_progress:
      'a revision brings back a plan already tried (the same steps and checks again, or an A-B-A oscillation), so replans are spent without progress',
    weakened_check: 'a revision drops done_when checks without replacing them, so the loop declares done while the task is not',
    vague_stop: 'the replanner stopped with a message that names none of the blockers the failure made observable',
    missing_step: 'the revised plan ran as written and still cannot meet the task',
    context_exceeded: "the replanner's prompt, with the history so far, did not fit the model's context window",
    tampered_grader: `a revised step's code, run as the revision wrote it, ${TAMPER}`,
  },
  gate: {
    invalid_output: 'a gate reply failed to parse or validate twice',
    misroute:
      'the gate sent a task that needs more than one action (its reference has several calls, or its first approach fails) to direct, or a task one action settles (its reference is one call) to the planner',
    context_exceeded: "the gate's prompt did not fit the model's context window",
  },
  agent: {
    invalid_output: 'an agent reply failed to parse or validate twice',
    guessed_target: 'the agent edited a file, or text in a file, that no earlier event had shown and the repository does not have',
    tampered_test: 'the agent changed a test file (one the task protects, or one a test run named) instead of the code',
    overreach: 'the agent made a change the request did not ask for (an edit, write or push on a task whose reference only reads and runs)',
    no_stop:
      'the task needed a stop, or the agent kept repeating a failed call, and the agent neither stopped nor finished: it finished anyway or the harness ended the run',
    premature_finish:
      "the agent ended before the task was done: state checks fail, its last observation was an unresolved failure, or it answered after fewer calls than the task's reference takes",
    wrong_answer: 'the state is right and the work was done, but the answer (or stop message) misses what the checks ask for',
    context_exceeded: "the agent's prompt, with its history of calls and results, outgrew the model's context window",
    tampered_grader: `code the agent wrote ${TAMPER}`,
    process_exit:
      "an external agent's process exited (or a signal ended it) without calling finish or stop; the explanation names its exit code or signal and stderr's telling line",
    process_hang:
      "an external agent's process made no tool call and no model call before its deadline: it hung, or never reached the MCP server or the model proxy",
  },
  budget: {
    exhausted:
      "a tool-call or replan budget (or an external agent's model-call budget or deadline) ended a run that was still making progress, with nothing else wrong",
  },
  unattributed: {
    no_rule:
      "the failure rests on the output of a role a strategy module declared with component none (or no rule explains it where that role acted): no component is blamed; the evidence is that role's model calls",
  },
};

/** Every `component.mode` pair, in the order above. */
export function allModes(): Array<{ component: Component; mode: Mode }> {
  return (Object.keys(MODES) as Component[]).flatMap((component) => MODES[component].map((mode) => ({ component, mode: mode as Mode })));
}
