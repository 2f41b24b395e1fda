// Issue 27 §2, second adversary review: the counterfactual's stand-ins keep to their role's contract, and a trace without
// messages replays a reply in order only for the request it answered. Each case is a kind a reviewer reproduced.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import { replayCounterfactuals } from '../src/runner/counterfactual-replay.js';
import { OracleModel } from '../src/runner/counterfactual-oracle.js';
import type { RoleView } from '../src/models/types.js';
import type { StrategyName } from '../src/strategies/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { allRoles, CORE_SUITE, environment, roleModel, type RoleHandler } from './support/episode-fixtures.js';

const step = (id: string, tool: string, args: Record<string, unknown> | null, does: string, depends_on: string[] = [], expect?: string) => ({
  id,
  does,
  tool,
  args,
  depends_on,
  expect: expect ?? (tool === 'run' ? 'exit 0' : 'success'),
  side_effect: tool === 'edit' ? 'reversible' : 'none',
});

async function coreTask(id: string): Promise<LoadedTask> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  return loaded.tasks.find((t) => t.id === id)!;
}

async function replayed(taskId: string, strategy: StrategyName, handlers: Partial<Record<string, RoleHandler>>) {
  const task = await coreTask(taskId);
  const env = await environment(allRoles(roleModel(handlers)));
  const record = await runEpisode({ task, strategy, epoch: 0, seed: 1 }, env);
  expect(record.success).toBe(false);
  return { record, verdict: await replayCounterfactuals(record, { ...task, reference: task.reference! }, env) };
}

describe('the oracle reporter', () => {
  it('answers from what the steps showed even when another step failed: the misreport is the reporter’s', async () => {
    const { record, verdict } = await replayed('default-currency', 'plan-up-front', {
      planner: () => ({
        goal: 'Find the default currency',
        done_when: [],
        assumptions: [],
        steps: [
          step('s1', 'read', { path: 'src/config.js' }, 'Read the config'),
          step('s2', 'read', { path: 'src/currency.js' }, 'Read the currency module', ['s1']),
        ],
      }),
      reporter: () => ({ answer: 'The default currency is USD (src/config.js).' }),
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'wrong_answer' });
    expect(verdict).toMatchObject({ component: 'executor', decisive: { role: 'reporter' }, agrees_with_rules: true });
  });

  it('does not give an answer no step looked for, even one without numbers (a script name): the plan never looked', async () => {
    const { record, verdict } = await replayed('checkout-test-script', 'plan-up-front', {
      planner: () => ({ goal: 'Find the script', done_when: [], assumptions: [], steps: [step('s1', 'list', {}, 'List the repository root')] }),
      reporter: () => ({ answer: 'I could not find a script for the checkout tests.' }),
    });
    expect(record.attribution?.component).toBe('planner');
    expect(verdict.swaps['reporter']).toMatchObject({ success: false });
    expect(verdict.component).toBe('planner');
  });

  it('writes the reference answer only where the steps showed its values', async () => {
    const task = await coreTask('checkout-test-script');
    const oracle = new OracleModel([{ id: task.id, reference: task.reference!, naive: task.naive }]);
    const view = (history: unknown[]) =>
      ({ role: 'reporter', task_id: task.id, prompt: task.prompt, plan: { revision: 0, steps: [] }, history, failures: [] }) as unknown as RoleView;
    const listed = { tool: 'list', args: {}, status: 'success', output: 'README.md\nsrc/\ntests/' };
    expect((oracle.decide(view([listed])) as { answer: string }).answer).toMatch(/^Not done/);
  });
});

describe('the in-order replay of a trace without messages', () => {
  it('keeps a reply that does not fit this request for the request it answered: the drift stays the decisive decision', async () => {
    const { record, verdict } = await replayed('pre-deploy-check', 'plan-up-front', {
      planner: () => ({
        goal: 'Report which checks fail',
        done_when: [],
        assumptions: [],
        steps: [
          step('s1', 'run', null, 'Run the test suite', [], 'any exit'),
          step('s2', 'run', null, 'Run the checkout tests', ['s1'], 'any exit'),
          step('s3', 'run', { cmd: 'pnpm lint' }, 'Run the linter', ['s2'], 'any exit'),
        ],
      }),
      executor: (request) => {
        const id = (request.view as { step: { id: string } }).step.id;
        if (id === 's1') return { tool: 'run', args: { cmd: 'pnpm run test' } };
        if (id === 's2') return { tool: 'run', args: { cmd: 'pnpm test:checkout' } };
        return { tool: 'run', args: { cmd: 'pnpm test' } }; // drift: the tests again instead of the linter
      },
      reporter: () => ({ answer: 'pnpm test and pnpm test:checkout pass; nothing fails, good to deploy.' }),
    });
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'drift' });
    expect(verdict.decisive).toEqual({ role: 'executor', event: record.attribution!.evidence[0] });
  });
});

describe('gate.misroute and a plan that had found the answer', () => {
  it('blames the reporter, not the route, for a report it could not write after the settling call', async () => {
    const task = await coreTask('default-currency');
    const env = await environment(
      allRoles(
        roleModel({
          gate: () => ({ route: 'plan' }),
          planner: () => ({
            goal: 'Find the default currency',
            done_when: [],
            assumptions: [],
            steps: [step('s1', 'read', { path: 'src/config.js' }, 'Read the config')],
          }),
          reporter: () => 'The currency is EUR',
        }),
      ),
    );
    const record = await runEpisode({ task, strategy: 'gated', epoch: 0, seed: 1 }, env);
    expect(record.attribution, JSON.stringify(record.attribution)).toMatchObject({ component: 'executor', mode: 'invalid_output' });
  });
});
