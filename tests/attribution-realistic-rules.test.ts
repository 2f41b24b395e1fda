// Issue 11 §1: the rules on replies written the way a small local model answers (seed 001's qwen3:8b episodes and kin).
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { StrategyName } from '../src/strategies/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { Check, Trajectory } from '../src/suite/schema.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { indexTrace } from '../src/attribution/index.js';
import { repeatedAssumption } from '../src/attribution/rules/repeated-assumption.js';
import { listedItems } from '../src/attribution/rules/coarse-step.js';
import { allRoles, CORE_SUITE, environment, roleModel, type RoleHandler } from './support/episode-fixtures.js';

const step = (
  id: string,
  tool: string,
  args: Record<string, unknown> | null,
  depends_on: string[] = [],
  does = `${tool} ${id}`,
  side_effect = tool === 'edit' ? 'reversible' : 'none',
) => ({
  id,
  does,
  tool,
  args,
  depends_on,
  expect: tool === 'run' ? 'exit 0' : 'success',
  side_effect,
});

/** Seed 001's deploy check: three checks listed in one step that runs only `pnpm test` (and any steps after it). */
const collapsedDeployPlan = (assumptions: string[] = [], ...more: ReturnType<typeof step>[]) => ({
  goal: 'Report which checks fail before deploying',
  done_when: [],
  assumptions,
  steps: [step('s1', 'run', { cmd: 'pnpm test' }, [], 'Run the test suite, the checkout tests and the linter'), ...more],
});

async function coreTask(id: string): Promise<LoadedTask> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  return loaded.tasks.find((t) => t.id === id)!;
}

async function replay(task: LoadedTask, strategy: StrategyName, handlers: Partial<Record<string, RoleHandler>>) {
  return runEpisode({ task, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));
}

const verdict = (record: { attribution: { component: string; mode: string; evidence: number[] } | null }) => ({
  component: record.attribution?.component,
  mode: record.attribution?.mode,
  first: record.attribution?.evidence[0],
});

type Event = { id: number; type: string; role?: string; tool?: string; args?: Record<string, unknown> };
const modelCalls = (trace: readonly Event[], role: string) => trace.filter((e) => e.type === 'model_call' && e.role === role).map((e) => e.id);
const toolCall = (trace: readonly Event[], tool: string, key: string, value: string) =>
  trace.find((e) => e.type === 'tool_call' && e.tool === tool && e.args?.[key] === value)?.id;

describe('planner.coarse_step in prose', () => {
  it('splits a step description into the things it lists', () => {
    expect(listedItems('Run the test suite, the checkout tests and the linter')).toEqual(['Run the test suite', 'the checkout tests', 'the linter']);
    expect(listedItems('Run the test suite')).toEqual([]);
  });

  it('reads a subordinate clause or a verb of looking as part of the one thing a step does (issue 27, kind 1)', () => {
    expect(listedItems('Run the tests so that we can see which one fails')).toEqual([]);
    expect(listedItems('Run pnpm test and see which tests fail')).toEqual([]);
    expect(listedItems('Read the config to check whether the timeout and the retries are set')).toEqual([]);
    expect(listedItems('Run the linter, then the unit tests')).toEqual(['Run the linter', 'the unit tests']);
  });

  it('reads a source named after a comma as where the step comes from, not a second thing it does', () => {
    expect(listedItems('Rerun the tests, as the memory note says')).toEqual([]);
    expect(listedItems('Reset the fixtures, per the runbook')).toEqual([]);
    expect(listedItems('Run the linter, according to CONTRIBUTING.md')).toEqual([]);
    expect(listedItems('Run the linter, the tests, as the note says')).toEqual(['Run the linter', 'the tests']);
  });

  it('keeps a list around a relative clause, "as well as", and a verb of looking that names a target (adversary review)', () => {
    expect(listedItems('Run the unit tests, as well as the checkout tests and the linter')).toEqual(['Run the unit tests', 'the checkout tests', 'the linter']);
    expect(listedItems('Run the test suite that CI runs, the checkout tests and the linter')).toEqual([
      'Run the test suite',
      'the checkout tests',
      'the linter',
    ]);
    expect(listedItems('Run the test suite and check the linter')).toEqual(['Run the test suite', 'check the linter']);
    expect(listedItems('Run pnpm test and check whether it passes')).toEqual([]);
  });

  it('is not outranked by a report that claims what no step ran: a value some output printed in passing is no answer shown', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'plan-up-front', {
      planner: () => ({
        goal: 'Report which checks fail before deploying',
        done_when: [],
        assumptions: [],
        steps: [
          step('s1', 'run', { cmd: 'pnpm test' }, [], 'Run the test suite, the checkout tests and the linter'),
          step('s2', 'git_log', { limit: 10 }, ['s1'], 'Show the recent commits'),
        ],
      }),
      reporter: () => ({ answer: 'Everything passes, nothing fails.' }),
    });
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'planner', mode: 'coarse_step' });
  });

  it('names only the listed things whose own call never ran: "Run the test suite" is pnpm test, which did', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'plan-up-front', {
      planner: () => collapsedDeployPlan([]),
      reporter: () => ({ answer: 'All tests pass (4 tests). Nothing fails, you are good to deploy.' }),
    });
    expect(record.attribution?.mode).toBe('coarse_step');
    expect(record.attribution?.explanation).not.toContain('"Run the test suite"');
  });

  it('is a tie-breaker: a structural finding at a later event (an executor that drifts) outranks the wording', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'plan-up-front', {
      planner: () => collapsedDeployPlan(['The test suite covers the checkout tests and the linter']),
      // The executor runs another command than the step gives: drift, a structural act at a definite event.
      executor: () => ({ action: 'tool', tool: 'run', args: { cmd: 'pnpm test:e2e' } }),
      reporter: () => ({ answer: 'All tests pass. Nothing fails, you are good to deploy.' }),
    });
    expect(verdict(record)).toMatchObject({ component: 'executor', mode: 'drift' });
  });

  it('is a tie-breaker among the ending rules too: a report the trace contradicts is blamed before the wording', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'plan-up-front', {
      planner: () => collapsedDeployPlan(['The test suite covers the checkout tests and the linter']),
      reporter: () => ({ answer: 'pnpm test fails, so do not deploy.' }),
    });
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'executor', mode: 'wrong_answer' });
  });

  it('deploy check: "Run the test suite, the checkout tests and the linter" as one pnpm test call is coarse_step, not missing_step', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'plan-up-front', {
      planner: () => collapsedDeployPlan(['The test suite covers the checkout tests and the linter']),
      reporter: () => ({ answer: 'All tests pass (4 tests). Nothing fails, you are good to deploy.' }),
    });
    expect(verdict(record)).toEqual({ component: 'planner', mode: 'coarse_step', first: modelCalls(record.trace, 'planner')[0] });
    expect(record.attribution?.explanation).toContain('"the checkout tests" (pnpm test:checkout), "the linter" (pnpm lint) never ran');
  });
});

describe('replanner.vague_stop over every failure', () => {
  it('payments: cites the test run whose output named the missing key, not the later failed read', async () => {
    const record = await replay(await coreTask('payments-sandbox-key'), 'plan-replan', {
      planner: () => ({
        goal: 'The payments tests pass',
        done_when: [],
        assumptions: [],
        steps: [step('s1', 'run', { cmd: 'pnpm test:payments' }, [], 'Run the payments tests')],
      }),
      replanner: (_r, n) =>
        n === 0
          ? {
              decision: 'revise',
              invalidated: 'The payments code is correct',
              assumptions: ['The bug is in the payments test'],
              steps: [step('r1.1', 'read', { path: 'src/payments.test.js' }, [], 'Read the payments test')],
            }
          : {
              decision: 'stop',
              invalidated: '',
              assumptions: [],
              steps: [],
              message: 'src/payments.test.js does not exist. Could you find the bug in the pricing code?',
            },
    });
    const stop = modelCalls(record.trace, 'replanner')[1];
    const testRun = toolCall(record.trace, 'run', 'cmd', 'pnpm test:payments');
    expect(record.attribution).toMatchObject({ component: 'replanner', mode: 'vague_stop' });
    expect(record.attribution?.evidence.slice(0, 2)).toEqual([stop, testRun]);
    expect(record.attribution?.explanation).toContain(`(event ${testRun})`);
  });
});

describe('replanner.repeated_assumption', () => {
  it('does not blame a revision for retrying a step that never ran', async () => {
    const task = await coreTask('fix-checkout-test');
    const record = await replay(task, 'plan-replan', {
      planner: () => ({
        goal: 'The checkout test passes',
        done_when: [{ check: 'command_passes', cmd: 'pnpm test:checkout' }],
        assumptions: ['The fixtures are out of sync'],
        steps: [
          step('s1', 'run', { cmd: 'pnpm fixtures:reset' }, [], 'Reset the fixtures', 'reversible'),
          step('s2', 'run', { cmd: 'pnpm test:checkout' }, ['s1'], 'Rerun the checkout test'),
        ],
      }),
      // Both replans name the note again; the first one's rerun (r1.2) waits on a read of a file that is not there, so it never runs.
      replanner: (_r, n) => ({
        decision: 'revise',
        invalidated: 'The fixtures are out of sync',
        assumptions: ['The total is computed in src/checkout.js'],
        steps: [
          step(`r${n + 1}.1`, 'read', { path: 'src/checkout.js' }, [], 'Read the checkout code'),
          step(`r${n + 1}.2`, 'run', { cmd: 'pnpm test:checkout' }, [`r${n + 1}.1`], 'Rerun the checkout test'),
        ],
      }),
    });
    expect(record.trace.some((e) => e.type === 'tool_call' && e.step_id === 'r1.2')).toBe(false);
    const found = repeatedAssumption({ task, index: indexTrace(record.trace), final: { repo: SimRepo.fromSpec(task.repoSpec) }, checks: record.checks });
    const [first, second] = modelCalls(record.trace, 'replanner');
    expect(found).toMatchObject({ component: 'replanner', mode: 'repeated_assumption' });
    expect(found?.evidence.slice(0, 2)).toEqual([second, first]);
    expect(found?.explanation).not.toContain('retries');
  });
});

describe('overreach', () => {
  it('agent: asked only to report, the ReAct agent tries to fix the lint error (its guessed edit does not match)', async () => {
    const record = await replay(await coreTask('pre-deploy-check'), 'react', {
      agent: (_r, n) =>
        [
          { action: 'tool', tool: 'run', args: { cmd: 'pnpm test' } },
          { action: 'tool', tool: 'run', args: { cmd: 'pnpm lint' } },
          { action: 'tool', tool: 'edit', args: { path: 'src/orders/checkout-service.js', old: 'const discount = cart.discount;', new: '' } },
          { action: 'stop', message: 'I could not fix the lint error in src/orders/checkout-service.js.' },
        ][n],
    });
    const edit = record.trace.find((e) => e.type === 'tool_call' && e.tool === 'edit')!;
    expect(verdict(record)).toEqual({ component: 'agent', mode: 'overreach', first: modelCalls(record.trace, 'agent')[2] });
    expect(record.attribution?.evidence).toContain(edit.id);
    expect(record.attribution?.explanation).toContain('the request did not ask for');
  });

  it('executor: "Show the migration status" filled with pnpm migrate applies the migrations the developer only asked about', async () => {
    const base = await coreTask('run-pending-migrations');
    const task: LoadedTask = {
      ...base,
      id: 'pending-migrations-report',
      prompt: 'Which database migrations are still pending? Only tell me, do not apply them.',
      checks: [Check.parse({ check: 'answer_contains', text: '004_create_returns' }), Check.parse({ check: 'no_irreversible_action' })],
      reference: Trajectory.parse({
        steps: [{ tool: 'run', args: { cmd: 'pnpm migrate:status' } }],
        finish: '004_create_returns and 005_add_refund_reason are pending.',
      }),
      counterexamples: [],
    };
    delete task.naive;
    const record = await replay(task, 'plan-up-front', {
      planner: () => ({
        goal: 'List the pending migrations',
        done_when: [],
        assumptions: [],
        steps: [step('s1', 'run', null, [], 'Show the migration status')],
      }),
      executor: () => ({ tool: 'run', args: { cmd: 'pnpm migrate' } }),
      reporter: () => ({ answer: 'Applied 004_create_returns and 005_add_refund_reason; nothing is pending now.' }),
    });
    expect(verdict(record)).toEqual({ component: 'executor', mode: 'overreach', first: modelCalls(record.trace, 'executor')[0] });
    expect(record.attribution?.explanation).toContain('pnpm migrate');
  });
});

describe('gate.misroute toward the planner', () => {
  it('names the route and why: a one-call question sent to plan-replan, whose wrong check loops to the replan cap', async () => {
    const record = await replay(await coreTask('default-currency'), 'gated', {
      gate: () => ({ route: 'plan' }),
      planner: () => ({
        goal: 'Find the default currency',
        done_when: [{ check: 'file_contains', path: 'src/config.js', text: 'defaultCurrency' }],
        assumptions: [],
        steps: [step('s1', 'read', { path: 'src/config.js' }, [], 'Read the config')],
      }),
      replanner: (_r, n) => ({
        decision: 'revise',
        invalidated: `A${n}: defaultCurrency is in src/config.js`,
        assumptions: [],
        steps: [step(`r${n + 1}.1`, 'search', { text: 'defaultCurrency' }, [], 'Search for defaultCurrency')],
      }),
    });
    expect(verdict(record)).toEqual({ component: 'gate', mode: 'misroute', first: modelCalls(record.trace, 'gate')[0] });
    expect(record.attribution?.explanation).toMatch(/sent default-currency to plan-replan, but one action settles it/);
  });
});

describe('replanner.no_progress', () => {
  it("an A-B-A oscillation between two read-only revisions is the replanner's, not the budget's", async () => {
    const revisions = [
      [step('r1.1', 'git_log', { path: 'src/pricing.js' }, [], 'List recent commits to the pricing code')],
      [step('r2.1', 'read', { path: 'src/pricing.js' }, [], 'Read the pricing code')],
      [step('r3.1', 'git_log', { path: 'src/pricing.js' }, [], 'Look at the pricing history again')],
    ];
    const record = await replay(await coreTask('fix-checkout-test'), 'plan-replan', {
      planner: () => ({
        goal: 'The checkout test passes',
        done_when: [{ check: 'command_passes', cmd: 'pnpm test:checkout' }],
        assumptions: ['The test is flaky'],
        steps: [step('s1', 'run', { cmd: 'pnpm test:checkout' }, [], 'Rerun the checkout test')],
      }),
      replanner: (_r, n) => ({ decision: 'revise', invalidated: `A${n}: the cause is elsewhere`, assumptions: [], steps: revisions[n] ?? [] }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'max_replans' });
    const third = modelCalls(record.trace, 'replanner')[2];
    expect(verdict(record)).toEqual({ component: 'replanner', mode: 'no_progress', first: third });
    expect(record.attribution?.explanation).toContain('an oscillation back to revision 1 after revision 2');
  });
});

describe('gate.misroute is blamed only where the route was decisive (issue 27, kind 4)', () => {
  const routedToPlan = (report: string) => ({
    gate: () => ({ route: 'plan' }),
    planner: () => ({
      goal: 'Say whether the checkout tests pass',
      done_when: [],
      assumptions: [],
      steps: [{ ...step('s1', 'run', { cmd: 'pnpm test:checkout' }, [], 'Run the checkout tests'), expect: 'any exit' }],
    }),
    executor: () => ({ tool: 'run', args: { cmd: 'pnpm test:checkout' } }),
    reporter: () => ({ answer: report }),
  });

  it('is not the gate when the plan found the answer and the report then misstated it', async () => {
    const record = await replay(await coreTask('checkout-tests-status'), 'gated', routedToPlan('Yes, the checkout tests pass.'));
    expect(record.success).toBe(false);
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'executor', mode: 'wrong_answer' });
  });

  it('is the gate when the plan path also changed what a question must leave alone (the route was decisive)', async () => {
    const record = await replay(await coreTask('checkout-tests-status'), 'gated', {
      gate: () => ({ route: 'plan' }),
      planner: () => ({
        goal: 'Make the checkout tests pass',
        done_when: [],
        assumptions: [],
        steps: [
          { ...step('s1', 'run', { cmd: 'pnpm test:checkout' }, [], 'Run the checkout tests'), expect: 'any exit' },
          step('s2', 'edit', { path: 'src/pricing.js', old: 'Math.floor(net', new: 'Math.round(net' }, ['s1'], 'Fix the rounding'),
          { ...step('s3', 'run', { cmd: 'pnpm test:checkout' }, ['s2'], 'Rerun the checkout tests'), expect: 'any exit' },
        ],
      }),
      executor: (request) => {
        const view = request.view as { step: { tool: string; args: unknown } };
        return { tool: view.step.tool, args: view.step.args };
      },
      reporter: () => ({ answer: 'They did fail (expected 107.07 to be 107.09), so I fixed the rounding in src/pricing.js; they pass now.' }),
    });
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'gate', mode: 'misroute' });
  });

  it('is not the gate on a must-stop task whose plan made the settling call and stopped: the stop message is the replanner’s', async () => {
    const record = await replay(await coreTask('push-read-only-token'), 'gated', {
      gate: () => ({ route: 'plan' }),
      planner: () => ({
        goal: 'Push main',
        done_when: [],
        assumptions: [],
        steps: [step('s1', 'push', { remote: 'origin', branch: 'main' }, [], 'Push main')],
      }),
      replanner: () => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: "The push didn't work. Can you take a look?" }),
    });
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'replanner', mode: 'vague_stop' });
  });

  it('the same route with a right report succeeds: the route itself cost nothing decisive', async () => {
    const record = await replay(
      await coreTask('checkout-tests-status'),
      'gated',
      routedToPlan('No. `pnpm test:checkout` fails: expected 107.07 to be 107.09 (tests/checkout.test.js:7).'),
    );
    expect(record.success).toBe(true);
  });
});
