// Repeated read-only calls (issue 10 §4): the same read with the same args on an unchanged repository, made a third
// time, ends the episode as repeated_call in ReAct and in the plan strategies' executor, and attribution names it.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { Trace } from '../src/trace/trace.js';
import { runReact } from '../src/strategies/react.js';
import { REACT_BUDGETS, type StrategyContext } from '../src/strategies/index.js';
import type { StrategyName } from '../src/strategies/index.js';
import { allRoles, environment, FunctionModel, miniTask, roleModel, type RoleHandler } from './support/episode-fixtures.js';

const task = miniTask({
  id: 'currency',
  repo: { files: { 'src/config.js': 'export const CURRENCY = "EUR";\n', 'src/other.js': 'export const other = 1;\n' } },
  checks: [{ check: 'answer_contains', text: 'EUR' }],
  reference: { steps: [{ tool: 'read', args: { path: 'src/config.js' } }], finish: 'EUR' },
});

const read = (path: string) => ({ action: 'tool', tool: 'read', args: { path } });
const finish = { action: 'finish', answer: 'EUR' };
const toolCalls = (record: EpisodeRecord) => record.trace.flatMap((e) => (e.type === 'tool_call' ? [[e.tool, e.args, e.status]] : []));
const budget = (record: EpisodeRecord) => record.trace.find((e) => e.type === 'budget');

async function react(actions: unknown[]): Promise<EpisodeRecord> {
  const model = new FunctionModel((_request, n) => actions[n] ?? finish);
  return runEpisode({ task, strategy: 'react', epoch: 0, seed: 1 }, await environment(allRoles(model)));
}

async function planned(strategy: StrategyName, handlers: Record<string, RoleHandler>): Promise<EpisodeRecord> {
  return runEpisode({ task, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));
}

const step = (id: string, args: Record<string, unknown> | null) => ({
  id,
  does: `read ${id}`,
  tool: 'read',
  args,
  depends_on: [],
  expect: 'success',
  side_effect: 'none',
});

describe('ReAct: the same successful read three times', () => {
  it('ends as repeated_call after the third identical read, not at the 12-call budget', async () => {
    const record = await react(Array.from({ length: 20 }, () => read('src/config.js')));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(toolCalls(record)).toEqual(Array.from({ length: 3 }, () => ['read', { path: 'src/config.js' }, 'success']));
    expect(budget(record)).toMatchObject({ limit: 'repeated_call', detail: 'read with the same args ran 3 times on an unchanged repository' });
  });

  it('counts repeats that other reads interleave', async () => {
    const record = await react([read('src/config.js'), read('src/other.js'), read('src/config.js'), read('src/other.js'), read('src/config.js'), finish]);
    expect(record.outcome.reason).toBe('repeated_call');
    expect(record.metrics.tool_calls).toBe(5);
  });

  it('starts counting again when the repository changed in between', async () => {
    const edit = { action: 'tool', tool: 'edit', args: { path: 'src/other.js', old: '1', new: '2' } };
    const record = await react([read('src/config.js'), read('src/config.js'), edit, read('src/config.js'), read('src/config.js'), finish]);
    expect(record.outcome).toMatchObject({ status: 'finished', answer: 'EUR' });
    expect(record.metrics.tool_calls).toBe(5);
  });

  it('does not count calls that are not read-only: the same command three times runs', async () => {
    const run = { action: 'tool', tool: 'run', args: { cmd: 'echo hi' } };
    const record = await react([run, run, run, finish]);
    expect(record.outcome.status).toBe('finished');
    expect(record.metrics.tool_calls).toBe(3);
  });

  it('takes its limit from the budgets', async () => {
    const repo = SimRepo.fromSpec(task.repoSpec);
    const env = await environment(allRoles(new FunctionModel(() => read('src/config.js'))));
    const ctx: StrategyContext = {
      task: { id: task.id, prompt: task.prompt, memory: [] },
      repo,
      models: env.models,
      prompts: env.prompts,
      toolDescriptions: env.toolDescriptions,
      trace: new Trace(repo.clock),
      epoch: 0,
      chatOptions: env.chatOptions,
      options: env.options,
    };
    const outcome = await runReact(ctx, { ...REACT_BUDGETS, repeatedReadLimit: 5 });
    expect(outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(ctx.trace.events.filter((e) => e.type === 'tool_call')).toHaveLength(5);
  });

  it('is attributed to the agent, naming the read and the earlier identical results', async () => {
    const record = await react(Array.from({ length: 20 }, () => read('src/config.js')));
    // events: 0 model, 1 read, 2 model, 3 read, 4 model, 5 read, 6 budget, 7 end
    expect(record.attribution).toEqual({
      component: 'agent',
      mode: 'no_stop',
      evidence: [4, 1, 5, 6],
      explanation:
        'The agent repeated read src/config.js at event 4, which had already run with the same result at event 1 on an unchanged repository, instead of using what it had read; the harness stopped the run (event 6).',
    });
  });
});

describe('executor: the same successful read three times', () => {
  it('ends plan-up-front as repeated_call when the plan reads one file three times', async () => {
    const record = await planned('plan-up-front', {
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', { path: 'src/config.js' }), step('s2', null), step('s3', null)] }),
      executor: () => ({ tool: 'read', args: { path: 'src/config.js' } }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(record.metrics.tool_calls).toBe(3);
  });

  it('ends plan-replan as repeated_call when revisions keep scheduling the same read, and blames the replanner', async () => {
    const record = await planned('plan-replan', {
      planner: () => ({
        goal: 'g',
        done_when: [{ check: 'file_contains', path: 'src/config.js', text: 'USD' }],
        assumptions: ['A0'],
        steps: [step('s1', { path: 'src/config.js' })],
      }),
      replanner: (_request, n) => ({ decision: 'revise', invalidated: `A${n + 1}`, assumptions: [], steps: [step(`r${n + 1}`, { path: 'src/config.js' })] }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(record.metrics.tool_calls).toBe(3);
    expect(record.metrics.replans).toBe(2);
    expect(record.attribution).toMatchObject({ component: 'replanner', mode: 'repeated_call' });
    expect(record.attribution?.explanation).toMatch(/schedules step r1, read src\/config\.js unchanged, which had ended success at event \d+/);
  });
});
