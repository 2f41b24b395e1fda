// The study's hand-made attribution (seed 001) reproduced: real-model failures replayed on the core tasks get the study's verdicts.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import type { StrategyName } from '../src/strategies/index.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { allRoles, CORE_SUITE, environment, roleModel, type RoleHandler } from './support/episode-fixtures.js';

type Handler = RoleHandler;

/** The verdict in short: component, mode and the first erroneous event. */
const verdict = (record: EpisodeRecord) => ({
  component: record.attribution?.component,
  mode: record.attribution?.mode,
  first: record.attribution?.evidence[0],
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

/** Runs a core task with one handler per role (executor: the step's args; reporter: a fixed answer). */
async function replay(taskId: string, strategy: StrategyName, handlers: Partial<Record<string, Handler>>): Promise<EpisodeRecord> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  const model = roleModel(handlers);
  return runEpisode({ task: loaded.tasks.find((t) => t.id === taskId)!, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
}

describe('seed 001, "Where each failure came from"', () => {
  it("migrations: a done_when check copied from the developer's words (pnpm db:migrate) is the planner's wrong_check", async () => {
    const record = await replay('run-pending-migrations', 'plan-replan', {
      planner: () => ({
        goal: 'g',
        done_when: [{ check: 'command_passes', cmd: 'pnpm db:migrate' }],
        assumptions: ['db:migrate exists'],
        steps: [step('s1', 'run', { cmd: 'pnpm db:migrate' })],
      }),
      replanner: (_r, n) =>
        n === 0
          ? {
              decision: 'revise',
              invalidated: 'db:migrate exists',
              assumptions: [],
              steps: [step('r1.1', 'read', { path: 'package.json' }), step('r1.2', 'run', { cmd: 'pnpm migrate' }, ['r1.1'])],
            }
          : {
              decision: 'stop',
              invalidated: '',
              assumptions: [],
              steps: [],
              message: 'Both migrations applied, but the check pnpm db:migrate still fails and I may not weaken it.',
            },
    });
    expect(verdict(record)).toEqual({ component: 'planner', mode: 'wrong_check', first: 0 });
    expect(record.attribution?.explanation).toContain('requires command_passes "pnpm db:migrate", which cannot pass here');
  });

  it('checkout: the replanner writes an edit of src/checkout.js, which does not exist, before reading anything', async () => {
    const record = await replay('fix-checkout-test', 'plan-replan', {
      planner: () => ({
        goal: 'g',
        done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
        assumptions: ['fixtures out of sync'],
        steps: [step('s1', 'run', { cmd: 'pnpm fixtures:reset' }), step('s2', 'run', { cmd: 'pnpm test' }, ['s1'])],
      }),
      replanner: (_r, n) =>
        n === 0
          ? {
              decision: 'revise',
              invalidated: 'running pnpm fixtures:reset will fully resolve the test failure',
              assumptions: [],
              steps: [
                step('r1.1', 'read', { path: 'src/checkout.js' }),
                step('r1.2', 'edit', { path: 'src/checkout.js', old: 'calcTotal', new: 'calcTotalWithTax' }, ['r1.1']),
              ],
            }
          : { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'Is src/checkout.js missing?' },
    });
    const revision = record.trace.find((e) => e.type === 'model_call' && e.role === 'replanner')!.id;
    expect(verdict(record)).toEqual({ component: 'replanner', mode: 'guessed_target', first: revision });
    expect(record.attribution?.explanation).toMatch(/^Step r1\.2 of revision 1 .* edits src\/checkout\.js, which no earlier event had read/);
  });

  it("deploy check: one step that runs only the test suite, never the linter, is the planner's missing_step", async () => {
    const record = await replay('pre-deploy-check', 'plan-up-front', {
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'run', { cmd: 'pnpm test' }, [], 'Run the test suite')] }),
      reporter: () => ({ answer: 'The test suite passes, so nothing fails; good to deploy.' }),
    });
    expect(verdict(record)).toEqual({ component: 'planner', mode: 'missing_step', first: 0 });
  });

  it('deploy check: a step that names the three commands but runs one is a coarse_step', async () => {
    const record = await replay('pre-deploy-check', 'plan-up-front', {
      planner: () => ({
        goal: 'g',
        done_when: [],
        assumptions: [],
        steps: [step('s1', 'run', { cmd: 'pnpm test' }, [], 'Run `pnpm test`, `pnpm test:checkout` and `pnpm lint`')],
      }),
      reporter: () => ({ answer: 'All green.' }),
    });
    expect(verdict(record)).toEqual({ component: 'planner', mode: 'coarse_step', first: 0 });
  });

  it('payments: the replanner looks in the wrong place and stops without naming the missing key', async () => {
    const record = await replay('payments-sandbox-key', 'plan-replan', {
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'run', { cmd: 'pnpm test:payments' })] }),
      replanner: (_r, n) =>
        n === 0
          ? { decision: 'revise', invalidated: 'the failure is in the test', assumptions: [], steps: [step('r1.1', 'read', { path: 'src/payments.test.js' })] }
          : {
              decision: 'stop',
              invalidated: '',
              assumptions: [],
              steps: [],
              message: 'I could not find the payments test. Could you check the pricing code in src/pricing.js?',
            },
    });
    const stop = record.trace.filter((e) => e.type === 'model_call' && e.role === 'replanner')[1]!.id;
    expect(verdict(record)).toEqual({ component: 'replanner', mode: 'vague_stop', first: stop });
  });

  it('checkout without replanning: the fixed plan ran as written and the test still fails (planner, missing_step)', async () => {
    const record = await replay('fix-checkout-test', 'plan-up-front', {
      planner: () => ({
        goal: 'g',
        done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
        assumptions: [],
        steps: [step('s1', 'run', { cmd: 'pnpm fixtures:reset' }), step('s2', 'run', { cmd: 'pnpm test' }, ['s1'])],
      }),
      reporter: () => ({ answer: 'The two-cent gap may come from the tax logic; check the fixtures and the rounding.' }),
    });
    expect(verdict(record)).toEqual({ component: 'planner', mode: 'missing_step', first: 0 });
  });
});
