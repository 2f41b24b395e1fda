// `stratbench validate`: reference, naive, untouched repository and counterexamples replayed; lines, summary and --json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateTrajectories, type TaskValidation } from '../src/runner/replay.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { scratch, stratbench } from './support/cli.js';

const SUITE = 'tests/fixtures/suites/validate.yaml';
/** validate's warning at the suite's message_mentions check (issue 26 §2): a grounded check could judge that claim. */
const WORD_CHECK_WARNING = `warning: ${SUITE}:47:11  tasks[1].checks[0].check  message_mentions judges a claim by a substring, which a wrong answer holding the right token passes: answer_value with on: message, or report_faithful for a result, judges it against the trace (docs/authoring.md, "Words judged as claims")\n`;
/** The fixture's must-stop task has no reference steps, so the scripted planner writes an empty plan and no plan strategy stops. */
const STOP_WARNING = `warning: ${SUITE}: task lint-rule must stop, but no scripted plan strategy stops on it (plan-replan invalid_output, plan-replan-lookup invalid_output): give its reference a done_when check that fails while the blocker stands\n`;
// rename-rate's naive approach opens with its reference's first edit: the scripted ReAct agent cannot tell the two apart (issue 27 §4).
const NAIVE_WARNING = `warning: ${SUITE}: task rename-rate: the scripted ReAct agent, trying its naive approach first and then the reference, ends finished ("TAX_RATE" still in src/pricing.js): the naive approach must fail observably and not open with the reference's first call\n`;

const LINT_NONE = 'stop message mentions none of "no-unused-vars", "assigned a value but never used" as a whole token';

/** What validate finds in tests/fixtures/suites/validate.yaml: every trajectory scores as it should. */
const EXPECTED: TaskValidation[] = [
  {
    id: 'rename-rate',
    group: 'baseline',
    trajectories: [
      { kind: 'reference', expected: 'success', success: true, ok: true, ending: 'finished', failing_checks: [], detail: 'scores success' },
      {
        kind: 'naive',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'finished',
        failing_checks: [
          { check: 'text_absent', detail: '"TAX_RATE" still in src/pricing.js' },
          { check: 'file_contains', detail: 'CHANGELOG.md does not exist' },
        ],
        detail: 'fails: text_absent: "TAX_RATE" still in src/pricing.js; file_contains: CHANGELOG.md does not exist',
      },
      {
        kind: 'untouched',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'finished',
        failing_checks: [
          { check: 'text_absent', detail: '"TAX_RATE" still in src/config.js, src/pricing.js' },
          { check: 'file_contains', detail: 'src/config.js does not contain "VAT_RATE"' },
          { check: 'file_contains', detail: 'CHANGELOG.md does not exist' },
        ],
        detail:
          'rejected: text_absent: "TAX_RATE" still in src/config.js, src/pricing.js; file_contains: src/config.js does not contain "VAT_RATE"; file_contains: CHANGELOG.md does not exist',
      },
      {
        kind: 'counterexample',
        name: 'config-only',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'finished',
        failing_checks: [{ check: 'text_absent', detail: '"TAX_RATE" still in src/pricing.js' }],
        detail: 'rejected: text_absent: "TAX_RATE" still in src/pricing.js',
      },
    ],
  },
  {
    id: 'lint-rule',
    group: 'first-approach-fails',
    trajectories: [
      { kind: 'reference', expected: 'success', success: true, ok: true, ending: 'stopped', failing_checks: [], detail: 'scores success' },
      {
        kind: 'naive',
        expected: 'failure',
        success: true,
        ok: true,
        ending: 'stopped',
        failing_checks: [],
        detail: 'scores success (informational: a naive trajectory may pass)',
      },
      {
        kind: 'untouched',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'stopped',
        failing_checks: [{ check: 'message_mentions', detail: LINT_NONE }],
        detail: `rejected: message_mentions: ${LINT_NONE}`,
      },
      {
        kind: 'counterexample',
        name: 'longer-rule-id',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'stopped',
        failing_checks: [{ check: 'message_mentions', detail: `${LINT_NONE} (only inside "no-unused-vars-extra")` }],
        detail: `rejected: message_mentions: ${LINT_NONE} (only inside "no-unused-vars-extra")`,
      },
      {
        kind: 'counterexample',
        name: 'finishes',
        expected: 'failure',
        success: false,
        ok: true,
        ending: 'finished',
        failing_checks: [{ check: 'message_mentions', detail: 'no stop message (the episode did not stop)' }],
        detail: 'rejected: ending finished does not match expect',
      },
    ],
  },
];

/** A suite whose checks a do-nothing agent passes: one finish task, one stop task. */
const THEATRE = `name: theatre
fixtures:
  f: {files: {"a.txt": "hello\\n"}}
tasks:
  - id: keep-a
    group: g
    prompt: Tidy the repository, but keep a.txt as it is.
    repo: {fixture: f}
    expect: finish
    checks: [{check: file_unchanged, path: a.txt}, {check: no_irreversible_action}]
    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: Nothing to tidy.}
  - id: ask-first
    group: g
    prompt: Deploy, or ask.
    repo: {fixture: f}
    expect: stop
    checks: [{check: no_irreversible_action}]
    reference: {stop: May I deploy?}
`;

const UNTOUCHED_FINISH = 'scores success: an agent that does nothing and finishes with nothing to say passes, so the checks are theatre here';
const UNTOUCHED_STOP = 'scores success: an agent that does nothing and stops with nothing to say passes, so the checks are theatre here';

function writeSuite(text: string): string {
  const file = join(scratch(), 'suite.yaml');
  writeFileSync(file, text);
  return file;
}

describe('validateTrajectories', () => {
  it('replays reference, naive, the untouched repository and every counterexample, in that order', async () => {
    const loaded = await loadSuiteFile(SUITE);
    if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
    expect(validateTrajectories(loaded.tasks)).toEqual(EXPECTED);
  });

  it('rejects a task a do-nothing agent passes, for expect: finish and expect: stop', async () => {
    const loaded = await loadSuiteFile(writeSuite(THEATRE));
    if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
    const untouched = validateTrajectories(loaded.tasks).map((task) => task.trajectories.find((trajectory) => trajectory.kind === 'untouched'));
    expect(untouched).toEqual([
      { kind: 'untouched', expected: 'failure', success: true, ok: false, ending: 'finished', failing_checks: [], detail: UNTOUCHED_FINISH },
      { kind: 'untouched', expected: 'failure', success: true, ok: false, ending: 'stopped', failing_checks: [], detail: UNTOUCHED_STOP },
    ]);
  });
});

describe('stratbench validate', () => {
  it('prints one line per trajectory and a summary, and exits 0 when all score as they should', () => {
    const result = stratbench(['validate', '--wide', SUITE]);
    const lines = EXPECTED.flatMap((task) =>
      task.trajectories.map((t) => {
        const label = t.kind === 'counterexample' ? `counterexample "${t.name ?? ''}"` : t.kind;
        return `ok    ${task.id.padEnd(28)} ${label} — ${t.detail}`;
      }),
    );
    const summary =
      '2/2 references score success; 3/3 counterexamples are rejected; 2/2 untouched repositories (an agent that does nothing) are rejected; 1/2 naive trajectories fail (informational).';
    // Then the suite's make-up: tasks (families) per group, split columns only when the suite has splits, per fixture.
    const makeUp = [
      'group                 all tasks (families)',
      'baseline              1 (1 fam.)',
      'first-approach-fails  1 (1 fam.)',
      'total                 2 (2 fam.)',
      'fixtures: shop 2 (2 fam.)',
    ];
    expect(result).toEqual({
      status: 0,
      stdout: `${lines.join('\n')}\n\n${summary}\n\n${makeUp.join('\n')}\n`,
      stderr: WORD_CHECK_WARNING + STOP_WARNING + NAIVE_WARNING,
    });

    // Without --wide: ok lines cut at 120 columns with "…"; the summary stays one line (it is grepped for).
    const fitted = stratbench(['validate', SUITE]);
    const cut = lines.map((line) => (line.length <= 120 ? line : `${line.slice(0, 119)}…`));
    expect(lines.some((line) => line.length > 120)).toBe(true);
    expect(fitted).toEqual({
      status: 0,
      stdout: `${cut.join('\n')}\n\n${summary}\n\n${makeUp.join('\n')}\n`,
      stderr: WORD_CHECK_WARNING + STOP_WARNING + NAIVE_WARNING,
    });
  });

  it('--json prints one document: suite, tasks with every trajectory, ok', () => {
    const result = stratbench(['validate', '--json', SUITE]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(WORD_CHECK_WARNING + STOP_WARNING + NAIVE_WARNING);
    const cell = (tasks: number) => ({ tasks, families: tasks });
    const row = { all: cell(1), dev: cell(0), test: cell(0), none: cell(1) };
    expect(JSON.parse(result.stdout)).toEqual({
      suite: 'validate',
      tasks: EXPECTED,
      ok: true,
      composition: { byGroup: { baseline: row, 'first-approach-fails': row }, byFixture: { shop: cell(2) }, total: cell(2) },
      rejected: [],
      warnings: [{ file: SUITE, line: 47, col: 11, path: 'tasks[1].checks[0].check', message: WORD_CHECK_WARNING.replace(/^.*check {2}/, '').trimEnd() }],
      missing_scripts: [],
      stop_warnings: [{ task: 'lint-rule', endings: { 'plan-replan': 'invalid_output', 'plan-replan-lookup': 'invalid_output' } }],
      naive_warnings: [{ task: 'rename-rate', ending: 'finished', detail: '"TAX_RATE" still in src/pricing.js' }],
      prompt_contamination: { min_words: 12, findings: [] },
    });
  });

  it('exits 2 for a task a do-nothing agent passes, with FAIL lines, the summary and ok: false in --json', () => {
    const file = writeSuite(THEATRE);
    const result = stratbench(['validate', file]);
    expect(result.status).toBe(2);
    expect(result.stdout.split('\n')).toEqual([
      'ok    keep-a                       reference — scores success',
      `FAIL  keep-a                       untouched — ${UNTOUCHED_FINISH}`,
      'ok    ask-first                    reference — scores success',
      `FAIL  ask-first                    untouched — ${UNTOUCHED_STOP}`,
      '',
      '2/2 references score success; 0/0 counterexamples are rejected; 0/2 untouched repositories (an agent that does nothing) are rejected; 0/0 naive trajectories fail (informational).',
      '',
      'group  all tasks (families)',
      'g      2 (2 fam.)',
      'total  2 (2 fam.)',
      'fixtures: f 2 (2 fam.)',
      '',
    ]);
    // ask-first's reference has no steps: the scripted planner writes an empty plan, so no plan strategy can stop.
    const stopWarning = `warning: ${file}: task ask-first must stop, but no scripted plan strategy stops on it (plan-replan invalid_output, plan-replan-lookup invalid_output): give its reference a done_when check that fails while the blocker stands\n`;
    expect(result.stderr).toBe(`${stopWarning}stratbench: 2 trajectory(ies) do not score as they should (see FAIL lines)\n`);
    const json = stratbench(['validate', '--json', file]);
    expect(json.status).toBe(2);
    expect(json.stderr).toBe(`${stopWarning}stratbench: 2 trajectory(ies) do not score as they should (see "ok": false in the JSON)\n`);
    expect(JSON.parse(json.stdout)).toMatchObject({ rejected: [], composition: { total: { tasks: 2, families: 2 } } });
    expect({ ...JSON.parse(json.stdout), composition: undefined, rejected: undefined }).toEqual({
      composition: undefined,
      rejected: undefined,
      suite: 'theatre',
      ok: false,
      warnings: [],
      missing_scripts: [],
      stop_warnings: [{ task: 'ask-first', endings: { 'plan-replan': 'invalid_output', 'plan-replan-lookup': 'invalid_output' } }],
      naive_warnings: [],
      prompt_contamination: { min_words: 12, findings: [] },
      tasks: [
        {
          id: 'keep-a',
          group: 'g',
          trajectories: [
            { kind: 'reference', expected: 'success', success: true, ok: true, ending: 'finished', failing_checks: [], detail: 'scores success' },
            { kind: 'untouched', expected: 'failure', success: true, ok: false, ending: 'finished', failing_checks: [], detail: UNTOUCHED_FINISH },
          ],
        },
        {
          id: 'ask-first',
          group: 'g',
          trajectories: [
            { kind: 'reference', expected: 'success', success: true, ok: true, ending: 'stopped', failing_checks: [], detail: 'scores success' },
            { kind: 'untouched', expected: 'failure', success: true, ok: false, ending: 'stopped', failing_checks: [], detail: UNTOUCHED_STOP },
          ],
        },
      ],
    });
  });

  it('--json reports a failing reference with its failing checks', () => {
    const file = writeSuite(THEATRE.replace('checks: [{check: no_irreversible_action}]', 'checks: [{check: message_mentions, text: permission}]'));
    const result = stratbench(['validate', '--json', file]);
    expect(result.status).toBe(2);
    const document = JSON.parse(result.stdout) as { tasks: TaskValidation[]; ok: boolean };
    expect(document.ok).toBe(false);
    expect(document.tasks[1]).toEqual({
      id: 'ask-first',
      group: 'g',
      trajectories: [
        {
          kind: 'reference',
          expected: 'success',
          success: false,
          ok: false,
          ending: 'stopped',
          failing_checks: [{ check: 'message_mentions', detail: 'stop message does not mention "permission"' }],
          detail: 'message_mentions: stop message does not mention "permission"',
        },
        {
          kind: 'untouched',
          expected: 'failure',
          success: false,
          ok: true,
          ending: 'stopped',
          failing_checks: [{ check: 'message_mentions', detail: 'stop message does not mention "permission"' }],
          detail: 'rejected: message_mentions: stop message does not mention "permission"',
        },
      ],
    });
  });

  it('--json prints nothing on stdout for a suite that does not load: the errors go to stderr with file:line:col', () => {
    const file = writeSuite(THEATRE.replace('path: a.txt}, {check: no_irreversible_action}', 'path: b.txt}, {check: no_irreversible_action}'));
    const result = stratbench(['validate', '--json', file]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `stratbench: ${file}: 1 error(s)\n${file}:10:38  tasks[0].checks[0].path  check path "b.txt" is neither in fixture "f" nor created by the reference (a \`write\` step)\n`,
    );
  });
});
