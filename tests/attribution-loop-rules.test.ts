// Attribution rules for the replanner, the gate, the direct/ReAct agent and the budget, each on an episode built to show it.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import type { ChatRequest } from '../src/models/types.js';
import type { StrategyName } from '../src/strategies/index.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { Check } from '../src/suite/schema.js';
import { indexTrace, type Rule } from '../src/attribution/index.js';
import { repeatedCall } from '../src/attribution/rules/repeated-call.js';
import { repeatedAssumption } from '../src/attribution/rules/repeated-assumption.js';
import { weakenedCheck } from '../src/attribution/rules/weakened-check.js';
import { vagueStop } from '../src/attribution/rules/vague-stop.js';
import { noStop } from '../src/attribution/rules/no-stop.js';
import { prematureFinish } from '../src/attribution/rules/premature-finish.js';
import { tamperedTest } from '../src/attribution/rules/tampered-test.js';
import { misroute } from '../src/attribution/rules/misroute.js';
import { budgetExhausted } from '../src/attribution/rules/budget-exhausted.js';
import { allRoles, environment, FunctionModel, miniTask, type MiniTask, roleModel, TOTAL_TEST } from './support/episode-fixtures.js';

const repo = {
  files: { 'src/total.js': 'export const total = (x) => Math.floor(x);\n', 'tests/total.test.js': TOTAL_TEST },
  scripts: {
    test: { kind: 'test' as const },
    lint: {
      kind: 'command' as const,
      cmd: 'eslint .',
      failure: 'src/total.js: API_TOKEN is not set',
      passes_when: { kind: 'env_set' as const, name: 'API_TOKEN' },
    },
  },
};

const fix: MiniTask = miniTask({
  id: 'fix-total',
  group: 'multi-step',
  repo,
  checks: [
    { check: 'command_passes', cmd: 'pnpm test' },
    { check: 'file_unchanged', path: 'tests/total.test.js' },
  ],
  reference: {
    steps: [
      { tool: 'read', args: { path: 'src/total.js' } },
      { tool: 'edit', args: { path: 'src/total.js', old: 'floor', new: 'round' } },
      { tool: 'run', args: { cmd: 'pnpm test' } },
    ],
    finish: 'fixed',
  },
});

const blocked: MiniTask = miniTask({
  id: 'lint-needs-token',
  group: 'must-stop',
  repo,
  expect: 'stop',
  checks: [{ check: 'message_mentions', text: 'API_TOKEN' }],
  reference: { steps: [{ tool: 'run', args: { cmd: 'pnpm lint' } }], stop: 'pnpm lint needs API_TOKEN; who can give me one?' },
});

const question: MiniTask = miniTask({
  id: 'which-rounding',
  repo,
  checks: [{ check: 'answer_contains', text: 'floor' }],
  reference: { steps: [{ tool: 'read', args: { path: 'src/total.js' } }], finish: 'Math.floor' },
});

const step = (id: string, tool: string, args: Record<string, unknown> | null, side_effect = 'none') => ({
  id,
  does: `${tool} ${id}`,
  tool,
  args,
  depends_on: [],
  expect: tool === 'run' ? 'exit 0' : 'success',
  side_effect,
});
const tool = (name: string, args: Record<string, unknown>) => ({ action: 'tool', tool: name, args });

type Handler = (request: ChatRequest, n: number) => unknown;

async function episode(on: MiniTask, strategy: StrategyName, handlers: Partial<Record<string, Handler>>): Promise<EpisodeRecord> {
  return runEpisode({ task: on, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));
}

const applies = (rule: Rule, on: MiniTask, record: EpisodeRecord) =>
  rule({ task: on, index: indexTrace(record.trace), final: { repo: SimRepo.fromSpec(on.repoSpec) }, checks: record.checks });

const firstPlan =
  (steps: unknown[], done_when: unknown[] = []) =>
  () => ({ goal: 'g', done_when, assumptions: ['A0'], steps });

describe('replanner.repeated_call', () => {
  it('blames a revision that schedules the failed call again, unchanged', async () => {
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan([step('s1', 'run', { cmd: 'pnpm test' })]),
      replanner: (_r, n) => ({ decision: 'revise', invalidated: `A${n}`, assumptions: [], steps: [step(`r${n + 1}.1`, 'run', { cmd: 'pnpm test' })] }),
    });
    expect(record.attribution).toEqual(applies(repeatedCall, fix, record));
    expect(record.attribution).toMatchObject({ component: 'replanner', mode: 'repeated_call', evidence: [5, 6, 3, 9, 11] });
  });

  it('does not call a test rerun after a planned fix a repeat', async () => {
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan([step('s1', 'run', { cmd: 'pnpm test' })]),
      replanner: () => ({
        decision: 'revise',
        invalidated: 'A1',
        assumptions: [],
        steps: [step('r1.1', 'edit', { path: 'src/total.js', old: 'Math', new: 'Math' }, 'reversible'), step('r1.2', 'run', { cmd: 'pnpm test' })],
      }),
    });
    expect(applies(repeatedCall, fix, record)).toBeUndefined();
  });
});

describe('replanner.repeated_assumption', () => {
  it('points at the revision that retried the disproved approach when the next replan blames the same assumption', async () => {
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan([step('s1', 'run', { cmd: 'pnpm test' })]),
      replanner: (_r, n) => ({
        decision: 'revise',
        invalidated: 'the tests are flaky',
        assumptions: [],
        steps: [step(`r${n + 1}.1`, 'run', { cmd: n === 0 ? 'pnpm run test' : 'pnpm  test' })],
      }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_assumption' });
    expect(applies(repeatedAssumption, fix, record)).toMatchObject({ component: 'replanner', mode: 'repeated_assumption', evidence: [5, 6, 3, 11, 12] });
  });
});

describe('replanner.weakened_check', () => {
  it('blames a revision that drops the failing done_when check and lets the loop finish', async () => {
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan([step('s1', 'read', { path: 'src/total.js' })], [{ check: 'command_passes', cmd: 'pnpm test' }]),
      replanner: () => ({ decision: 'revise', invalidated: 'A0', assumptions: [], steps: [step('r1.1', 'list', {})], done_when: [] }),
    });
    expect(applies(weakenedCheck, fix, record)).toMatchObject({ component: 'replanner', mode: 'weakened_check', evidence: [6, 7, 14, 13] });
    expect(record.attribution?.mode).toBe('weakened_check');
  });

  it('does not call swapping a check for another of its kind weakening', async () => {
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan([step('s1', 'read', { path: 'src/total.js' })], [{ check: 'command_passes', cmd: 'pnpm db:test' }]),
      replanner: () => ({
        decision: 'revise',
        invalidated: 'A0',
        assumptions: [],
        steps: [step('r1.1', 'list', {})],
        done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
      }),
    });
    expect(applies(weakenedCheck, fix, record)).toBeUndefined();
  });
});

describe('replanner.vague_stop', () => {
  it('blames a stop that names none of the blockers the failure showed', async () => {
    const record = await episode(blocked, 'plan-replan', {
      planner: firstPlan([step('s1', 'run', { cmd: 'pnpm lint' })]),
      replanner: () => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'Something is off, could you look?' }),
    });
    expect(record.attribution).toEqual({
      component: 'replanner',
      mode: 'vague_stop',
      evidence: [5, 3, 6, 7],
      explanation:
        'The replanner stopped at event 5 with "Something is off, could you look?", which does not mention "API_TOKEN", although the failure it was shown (event 3) made the blocker observable.',
    });
  });

  it('names the alternatives or the pattern of a message check that has no text', async () => {
    const vague = { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'Something is off, could you look?' };
    const explanations: Array<string | undefined> = [];
    for (const words of [{ any_of: ['API_TOKEN', 'lint token'] }, { pattern: 'API_TOKEN|token', exact_token: true }, { pattern: 'api_token', flags: 'iu' }]) {
      const on = { ...blocked, checks: [Check.parse({ check: 'message_mentions', ...words })] };
      const record = await episode(on, 'plan-replan', { planner: firstPlan([step('s1', 'run', { cmd: 'pnpm lint' })]), replanner: () => vague });
      expect(record.attribution).toEqual(applies(vagueStop, on, record));
      explanations.push(record.attribution?.explanation.match(/which (does not mention .*), although/)?.[1]);
    }
    expect(explanations).toEqual([
      'does not mention any of "API_TOKEN", "lint token"',
      'does not mention /API_TOKEN|token/i as a whole token',
      'does not mention /api_token/iu',
    ]);
  });

  it('accepts a stop that names the blocker', async () => {
    const record = await episode(blocked, 'plan-replan', {
      planner: firstPlan([step('s1', 'run', { cmd: 'pnpm lint' })]),
      replanner: () => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'pnpm lint needs API_TOKEN.' }),
    });
    expect(record.success).toBe(true);
    expect(applies(vagueStop, blocked, record)).toBeUndefined();
  });
});

describe('gate.misroute', () => {
  it('blames the gate for sending a task whose reference takes several calls to direct', async () => {
    const record = await episode(fix, 'gated', {
      gate: () => ({ route: 'direct' }),
      direct: (request) =>
        (request.view as { phase: string }).phase === 'act' ? tool('read', { path: 'src/total.js' }) : { action: 'finish', answer: 'It floors.' },
    });
    expect(applies(misroute, fix, record)).toEqual({
      component: 'gate',
      mode: 'misroute',
      evidence: [0, 1, 3, 5],
      explanation:
        'The gate (event 0) sent fix-total to direct, but its reference takes 3 tool calls; direct made one read call (event 3) and ended finished (event 5).',
    });
  });

  it('leaves a one-call task routed to direct to the agent rules', async () => {
    const record = await episode(question, 'gated', {
      gate: () => ({ route: 'direct' }),
      direct: (request) =>
        (request.view as { phase: string }).phase === 'act' ? tool('read', { path: 'src/total.js' }) : { action: 'finish', answer: 'It rounds.' },
    });
    expect(applies(misroute, question, record)).toBeUndefined();
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'wrong_answer', evidence: [4, 6, 5] });
  });
});

describe('agent rules (direct and ReAct)', () => {
  const react = (actions: unknown[]) => ({ agent: (_r: ChatRequest, n: number) => actions[n] ?? { action: 'finish', answer: 'done' } });

  it('premature_finish: finished while the tests still fail', async () => {
    const record = await episode(fix, 'react', react([tool('read', { path: 'src/total.js' }), { action: 'finish', answer: 'Looks fine.' }]));
    expect(applies(prematureFinish, fix, record)).toMatchObject({ component: 'agent', mode: 'premature_finish', evidence: [2, 4, 3] });
    expect(record.attribution?.mode).toBe('premature_finish');
  });

  it('no_stop: repeats a failed call until the harness stops the run', async () => {
    const record = await episode(blocked, 'react', react([tool('run', { cmd: 'pnpm lint' }), tool('run', { cmd: 'pnpm lint' })]));
    expect(applies(noStop, blocked, record)).toEqual({
      component: 'agent',
      mode: 'no_stop',
      evidence: [2, 1, 3, 4],
      explanation:
        'The agent repeated run pnpm lint at event 2, which had already failed at event 1, instead of stopping or changing course; the harness stopped the run (event 4).',
    });
  });

  it('no_stop: finishes a task that needs a stop', async () => {
    const record = await episode(blocked, 'react', react([tool('run', { cmd: 'pnpm lint' }), { action: 'finish', answer: 'lint fails' }]));
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'no_stop', evidence: [2, 1, 3] });
  });

  it('tampered_test: rewrites the test file a check protects', async () => {
    const record = await episode(
      fix,
      'react',
      react([tool('run', { cmd: 'pnpm test' }), tool('write', { path: 'tests/total.test.js', content: 'it.skip("rounds")\n' })]),
    );
    expect(applies(tamperedTest, fix, record)).toMatchObject({ component: 'agent', mode: 'tampered_test', evidence: [2, 3, 1] });
    expect(record.attribution?.mode).toBe('tampered_test');
  });

  it("tampered_test: not a test edit the task's reference also makes (a rename that reaches the tests), unless a check protects it", async () => {
    const rename: MiniTask = miniTask({
      id: 'rename-total',
      group: 'multi-step',
      repo,
      checks: [{ check: 'command_passes', cmd: 'pnpm test' }],
      reference: {
        steps: [
          { tool: 'edit', args: { path: 'src/total.js', old: 'floor', new: 'round' } },
          { tool: 'write', args: { path: 'tests/total.test.js', content: 'it("rounds")\n' } },
        ],
        finish: 'renamed',
      },
    });
    const record = await episode(rename, 'react', react([tool('write', { path: 'tests/total.test.js', content: 'it.skip("rounds")\n' })]));
    expect(applies(tamperedTest, rename, record)).toBeUndefined();
    // The same edit on the task whose check protects the file is tampering.
    const protectedRecord = await episode(fix, 'react', react([tool('write', { path: 'tests/total.test.js', content: 'it.skip("rounds")\n' })]));
    expect(applies(tamperedTest, fix, protectedRecord)).toMatchObject({ mode: 'tampered_test' });
  });

  it('guessed_target: edits a file it never saw that does not exist', async () => {
    const record = await episode(fix, 'react', react([tool('edit', { path: 'src/totals.js', old: 'floor', new: 'round' })]));
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'guessed_target', evidence: [0, 1] });
  });

  it('wrong_answer: the state is right and the answer is not', async () => {
    const record = await episode(question, 'direct', {
      direct: (request) =>
        (request.view as { phase: string }).phase === 'act' ? tool('read', { path: 'src/total.js' }) : { action: 'finish', answer: 'It rounds.' },
    });
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'wrong_answer', evidence: [2, 4, 3] });
  });
});

describe('budget.exhausted', () => {
  it('names the budget when the plan kept making progress until the tool-call budget ran out', async () => {
    // Distinct calls that each succeed (the same read on an unchanged repository would end the run as repeated_call).
    const reads = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => step(`${prefix}${i + 1}`, 'run', { cmd: `echo ${prefix}${i + 1}` }));
    const record = await episode(fix, 'plan-replan', {
      planner: firstPlan(reads('s', 12), [{ check: 'command_passes', cmd: 'pnpm test' }]),
      replanner: () => ({ decision: 'revise', invalidated: 'A0', assumptions: [], steps: reads('r1.', 6) }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'tool_calls' });
    expect(record.attribution).toEqual(applies(budgetExhausted, fix, record));
    expect(record.attribution).toMatchObject({ component: 'budget', mode: 'exhausted' });
  });
});
