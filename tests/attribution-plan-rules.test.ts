// Attribution rules for the planner and the executor, each on an episode whose model does one thing wrong.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import type { ChatRequest } from '../src/models/types.js';
import type { StrategyName } from '../src/strategies/index.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { Check } from '../src/suite/schema.js';
import { indexTrace, type Rule, type RuleInput } from '../src/attribution/index.js';
import { guessedTarget } from '../src/attribution/rules/guessed-target.js';
import { wrongCheck } from '../src/attribution/rules/wrong-check.js';
import { coarseStep } from '../src/attribution/rules/coarse-step.js';
import { invalidOutput } from '../src/attribution/rules/invalid-output.js';
import { missingStep } from '../src/attribution/rules/missing-step.js';
import { drift } from '../src/attribution/rules/drift.js';
import { badEdit } from '../src/attribution/rules/bad-edit.js';
import { wrongAnswer } from '../src/attribution/rules/wrong-answer.js';
import { allRoles, environment, FunctionModel, miniTask, type MiniTask, roleModel } from './support/episode-fixtures.js';

/** The test needs both fixes: total must round (not floor) and money must round to the cent (not truncate). */
const TOTAL_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { money } from '../src/format.js';",
  "import { total } from '../src/total.js';",
  '',
  "describe('total', () => {",
  "  it('rounds', () => {",
  '    expect(money(total(1.5) + 0.006)).toBe(2.01);',
  '  });',
  '});',
  '',
].join('\n');

const repo = {
  files: {
    'src/total.js': 'export const total = (x) => Math.floor(x);\n',
    'src/format.js': 'export const money = (x) => Math.trunc(x * 100) / 100;\n',
    'tests/total.test.js': TOTAL_TEST,
  },
  scripts: { test: { kind: 'test' as const } },
};

const task: MiniTask = miniTask({
  id: 'fix-total',
  repo,
  checks: [
    { check: 'command_passes', cmd: 'pnpm test' },
    { check: 'file_unchanged', path: 'tests/total.test.js' },
  ],
  reference: {
    steps: [
      { tool: 'read', args: { path: 'src/total.js' } },
      { tool: 'edit', args: { path: 'src/total.js', old: 'floor', new: 'round' } },
    ],
    finish: 'fixed',
  },
});

const question: MiniTask = miniTask({
  id: 'which-rounding',
  repo,
  checks: [{ check: 'answer_contains', text: 'floor' }],
  reference: { steps: [{ tool: 'read', args: { path: 'src/total.js' } }], finish: 'Math.floor' },
});

const step = (id: string, tool: string, args: Record<string, unknown> | null, depends_on: string[] = [], does = `${tool} ${id}`) => ({
  id,
  does,
  tool,
  args,
  depends_on,
  expect: tool === 'run' ? 'exit 0' : 'success',
  side_effect: tool === 'edit' ? 'reversible' : 'none',
});

type Handler = (request: ChatRequest, n: number) => unknown;

/** A model answering each role from a handler; the executor copies the step's args, the reporter says "report". */

async function episode(on: MiniTask, strategy: StrategyName, handlers: Partial<Record<string, Handler>>): Promise<EpisodeRecord> {
  return runEpisode({ task: on, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));
}

const inputOf = (on: MiniTask, record: EpisodeRecord): RuleInput => ({
  task: on,
  index: indexTrace(record.trace),
  final: { repo: SimRepo.fromSpec(on.repoSpec), answer: record.outcome.answer, message: record.outcome.message },
  checks: record.checks,
});

const idOf = (record: EpisodeRecord, match: (e: EpisodeRecord['trace'][number]) => boolean): number => record.trace.find(match)!.id;
const plan =
  (steps: unknown[], done_when: unknown[] = []) =>
  () => ({ goal: 'g', done_when, assumptions: [], steps });
const applies = (rule: Rule, on: MiniTask, record: EpisodeRecord) => rule(inputOf(on, record));

describe('planner.guessed_target', () => {
  it('blames the planner for an edit of a file nothing had shown and the repo lacks', async () => {
    const record = await episode(task, 'plan-up-front', { planner: plan([step('s1', 'edit', { path: 'src/totals.js', old: 'floor', new: 'round' })]) });
    const call = idOf(record, (e) => e.type === 'tool_call');
    expect(record.attribution).toEqual({
      component: 'planner',
      mode: 'guessed_target',
      evidence: [0, 1, call],
      explanation: `Step s1 of the first plan (written at event 0) edits src/totals.js, which no earlier event had read, listed or searched and which the repository does not have; it failed at event ${call} (not_found).`,
    });
  });

  it('blames guessed text in an existing file the plan never read', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'edit', { path: 'src/total.js', old: 'calcTotal', new: 'calcTotalWithTax' })]),
    });
    expect(record.attribution).toMatchObject({ component: 'planner', mode: 'guessed_target', evidence: [0, 1, 3] });
  });

  it('does not call a read of a missing file a guess (a miss is an answer)', async () => {
    const record = await episode(task, 'plan-up-front', { planner: plan([step('s1', 'read', { path: 'src/totals.js' })]) });
    expect(applies(guessedTarget, task, record)).toBeUndefined();
  });
});

describe('planner.wrong_check', () => {
  it('blames a done_when command that does not exist (copied from the request)', async () => {
    const record = await episode(task, 'plan-replan', {
      planner: plan([step('s1', 'edit', { path: 'src/total.js', old: 'floor', new: 'round' })], [{ check: 'command_passes', cmd: 'pnpm db:migrate' }]),
      replanner: () => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'pnpm db:migrate does not exist (exit 127)' }),
    });
    expect(record.attribution).toMatchObject({
      component: 'planner',
      mode: 'wrong_check',
      evidence: [0, 1, idOf(record, (e) => e.type === 'check' && e.scope === 'done_when'), 7],
    });
  });

  it('does not blame the check when the replanner revised after it failed (the replanner owns the failure)', async () => {
    const record = await episode(task, 'plan-replan', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' })], [{ check: 'file_contains', path: 'README.md', text: 'x' }]),
      replanner: (_r, n) => ({ decision: 'revise', invalidated: `A${n}`, assumptions: [], steps: [step(`r${n + 1}.1`, 'read', { path: 'src/format.js' })] }),
    });
    expect(applies(wrongCheck, task, record)).toBeUndefined();
  });
});

describe('planner.coarse_step', () => {
  it('blames one step that names two files but edits one', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'edit', { path: 'src/total.js', old: 'floor', new: 'round' }, [], 'Edit src/total.js and src/format.js')]),
    });
    expect(record.attribution).toMatchObject({ component: 'planner', mode: 'coarse_step', evidence: [0, 1, 3, 7] });
    expect(record.attribution?.explanation).toContain('src/format.js was never touched');
  });

  it('ignores a step whose named targets were all touched', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([
        step('s1', 'edit', { path: 'src/total.js', old: 'floor', new: 'round' }, [], 'Edit src/total.js and src/format.js'),
        step('s2', 'read', { path: 'src/format.js' }),
      ]),
    });
    expect(applies(coarseStep, task, record)).toBeUndefined();
  });
});

describe('planner.invalid_plan', () => {
  it('blames the planner when the plan and its repair fail validation', async () => {
    const record = await episode(task, 'plan-up-front', { planner: plan([step('s1', 'read', { path: 'a' }, ['s1'])]) });
    expect(applies(invalidOutput, task, record)).toEqual({
      component: 'planner',
      mode: 'invalid_plan',
      evidence: [0, 1, 2, 3],
      explanation: "The planner's reply at event 0 did not validate and its repair at event 1 failed too, so no step ran (event 2).",
    });
  });
});

describe('planner.missing_step', () => {
  it('blames a plan that ran as written and cannot meet the task', async () => {
    const record = await episode(task, 'plan-up-front', { planner: plan([step('s1', 'edit', { path: 'src/total.js', old: 'floor', new: 'round' })]) });
    expect(record.attribution).toMatchObject({ component: 'planner', mode: 'missing_step', evidence: [0, 1, 7, 6] });
    expect(applies(missingStep, task, record)?.explanation).toMatch(
      /^The first plan \(written at event 0, 1 steps\) ran as written — every step finished — and the task still fails: exit 1/,
    );
  });
});

describe('executor.drift', () => {
  it('blames a call with other args than the plan gave', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' })]),
      executor: () => ({ tool: 'read', args: { path: 'src/format.js' } }),
    });
    expect(applies(drift, task, record)).toEqual({
      component: 'executor',
      mode: 'drift',
      evidence: [2, 3],
      explanation: 'Step s1 gives path "src/total.js", but the executor\'s call (event 2) used "src/format.js" (event 3).',
    });
  });

  it('blames a call of another tool, which the harness refuses', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' })]),
      executor: () => ({ tool: 'list', args: {} }),
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'drift', evidence: [2, 3] });
  });

  it('blames an edit that changes nothing, and accepts `pnpm run x` for `pnpm x`', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'edit', null), step('s2', 'run', { cmd: 'pnpm test' }, ['s1'])]),
      executor: (request) => {
        const view = request.view as { step: { tool: string } };
        return view.step.tool === 'edit'
          ? { tool: 'edit', args: { path: 'src/total.js', old: 'floor', new: 'floor' } }
          : { tool: 'run', args: { cmd: 'pnpm run test' } };
      },
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'drift', evidence: [2, 3] });
  });
});

describe('executor.drift on a step whose arguments the plan leaves to the executor (issue 27, kind 2)', () => {
  it('blames an edit of another file than the one the step names (the test instead of the code)', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'edit', null, [], 'Round the total in src/total.js to the nearest cent')]),
      executor: () => ({ tool: 'edit', args: { path: 'tests/total.test.js', old: 'toBe', new: 'toEqual' } }),
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'drift', evidence: [2, 3] });
    expect(record.attribution?.explanation).toContain('names src/total.js, but the executor');
  });

  it("blames a run of the step's own description, and another command than the backticked one", async () => {
    const own = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'run', null, [], 'Run the test suite')]),
      executor: () => ({ tool: 'run', args: { cmd: 'Run the test suite' } }),
    });
    expect(own.attribution).toMatchObject({ component: 'executor', mode: 'drift', evidence: [2, 3] });
    const other = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'run', null, [], 'Run `pnpm test` to see the failure')]),
      executor: () => ({ tool: 'run', args: { cmd: 'pnpm lint' } }),
    });
    expect(other.attribution).toMatchObject({ component: 'executor', mode: 'drift', evidence: [2, 3] });
  });

  it('accepts the file the step names written another way (total.js for src/total.js)', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'read', null, [], 'Read total.js')]),
      executor: () => ({ tool: 'read', args: { path: 'src/total.js' } }),
    });
    expect(applies(drift, task, record)).toBeUndefined();
  });
});

describe('executor.bad_edit', () => {
  it('blames edit text the file does not contain although it was read', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' }), step('s2', 'edit', null, ['s1'])]),
      executor: (request) => {
        const view = request.view as { step: { tool: string; args: Record<string, unknown> | null } };
        return view.step.tool === 'edit'
          ? { tool: 'edit', args: { path: 'src/total.js', old: 'Math.flor', new: 'Math.round' } }
          : { tool: view.step.tool, args: view.step.args ?? {} };
      },
    });
    expect(applies(badEdit, task, record)).toEqual({
      component: 'executor',
      mode: 'bad_edit',
      evidence: [5, 6, 3],
      explanation:
        'For step s2 the executor (event 5) sent an edit of src/total.js whose old text the file does not contain although the file was read at event 3; the edit failed at event 6.',
    });
    expect(record.attribution).toEqual(applies(badEdit, task, record));
  });
});

describe('executor.invalid_output', () => {
  it('blames the executor when its reply and the repair do not parse', async () => {
    const record = await episode(task, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' })]),
      executor: () => 'I will read it now.',
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'invalid_output', evidence: [2, 3, 4] });
  });
});

describe('executor.wrong_answer (the reporter)', () => {
  it('blames a report that misstates what the steps found', async () => {
    const record = await episode(question, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/total.js' })]),
      reporter: () => ({ answer: 'It rounds up.' }),
    });
    expect(applies(wrongAnswer, question, record)).toMatchObject({ component: 'executor', mode: 'wrong_answer', evidence: [5, 3, 7, 6] });
    expect(record.attribution?.mode).toBe('wrong_answer');
  });

  it('reads an answer check with alternatives or a pattern as the check does, whole tokens included', async () => {
    const wrongly = async (words: Record<string, unknown>) => {
      const on = { ...question, checks: [Check.parse({ check: 'answer_contains', ...words })] };
      const record = await episode(on, 'plan-up-front', {
        planner: plan([step('s1', 'read', { path: 'src/total.js' })]),
        reporter: () => ({ answer: 'It rounds up.' }),
      });
      return applies(wrongAnswer, on, record);
    };
    expect(await wrongly({ any_of: ['rounds down', 'floor'] })).toEqual({
      component: 'executor',
      mode: 'wrong_answer',
      evidence: [5, 3, 7, 6],
      explanation:
        'The report written at event 5 ("It rounds up.") fails the check: answer contains none of "rounds down", "floor" (event 7), although the read call at event 3 showed it.',
    });
    expect(await wrongly({ pattern: 'Math\\.(floor|trunc)' })).toMatchObject({ mode: 'wrong_answer', evidence: [5, 3, 7, 6] });
    expect(await wrongly({ text: 'Math.floor', exact_token: true })).toMatchObject({ mode: 'wrong_answer', evidence: [5, 3, 7, 6] });
    // The read showed "floor" only inside Math.floor, never as a token of its own: the plan never looked for it.
    expect(await wrongly({ text: 'floor', exact_token: true })).toBeUndefined();
  });

  it("leaves an answer the plan never looked for to missing_step (the study's deploy check that never ran the linter)", async () => {
    const record = await episode(question, 'plan-up-front', {
      planner: plan([step('s1', 'read', { path: 'src/format.js' })]),
      reporter: () => ({ answer: 'It rounds up.' }),
    });
    expect(applies(wrongAnswer, question, record)).toBeUndefined();
    expect(record.attribution).toMatchObject({ component: 'planner', mode: 'missing_step', evidence: [0, 1, 7, 6] });
  });
});
