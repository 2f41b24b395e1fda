// Issue 11 §1: a budget ending calls the reporter once; a question answered by that report scores (decision 0006); costs on successes are findings.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { StrategyName } from '../src/strategies/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { endingMatches } from '../src/scoring/ending.js';
import { allRoles, CORE_SUITE, environment, roleModel, type RoleHandler } from './support/episode-fixtures.js';

const step = (id: string, tool: string, args: Record<string, unknown> | null, does = `${tool} ${id}`) => ({
  id,
  does,
  tool,
  args,
  depends_on: [],
  expect: tool === 'run' ? 'exit 0' : 'success',
  side_effect: 'none',
});

async function coreTask(id: string): Promise<LoadedTask> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  return loaded.tasks.find((t) => t.id === id)!;
}

const replay = async (task: LoadedTask, strategy: StrategyName, handlers: Partial<Record<string, RoleHandler>>) =>
  runEpisode({ task, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));

/** Seed 001's currency question on plan-replan: one read, then a check for a name the file never had. */
const currency: Partial<Record<string, RoleHandler>> = {
  planner: () => ({
    goal: 'Find the default currency',
    done_when: [{ check: 'file_contains', path: 'src/config.js', text: 'defaultCurrency' }],
    assumptions: ['The default currency is set as defaultCurrency in src/config.js'],
    steps: [step('s1', 'read', { path: 'src/config.js' }, 'Read the config')],
  }),
  replanner: (_r, n) => ({
    decision: 'revise',
    invalidated: `A${n}: defaultCurrency is defined in src/config.js`,
    assumptions: [],
    steps: [
      step(
        `r${n + 1}.1`,
        'search',
        { text: ['defaultCurrency', 'default_currency', 'currencyDefault'][n] ?? 'currency' },
        'Search for the default currency setting',
      ),
    ],
  }),
};

describe('budget endings call the reporter once', () => {
  it('the replan cap: the report answers EUR, the episode scores as success, and the wrong check is a finding with its cost', async () => {
    const reports: unknown[] = [];
    const record = await replay(await coreTask('default-currency'), 'plan-replan', {
      ...currency,
      reporter: (request) => {
        reports.push(request.view);
        return { answer: 'The default currency is EUR (src/config.js: CURRENCY = "EUR"); the check for defaultCurrency never passed.' };
      },
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'max_replans' });
    expect(record.outcome.answer).toContain('EUR');
    expect(record.success).toBe(true);
    expect(record.attribution).toBeNull();
    expect(record.metrics.model_calls['reporter']).toBe(1);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ role: 'reporter', budget: { limit: 'max_replans' } });
    const planner = record.trace.find((e) => e.type === 'model_call' && e.role === 'planner')!;
    const firstFailure = record.trace.find((e) => e.type === 'check' && e.scope === 'done_when' && !e.pass)!;
    expect(record.findings).toEqual([
      expect.objectContaining({
        component: 'planner',
        mode: 'wrong_check',
        evidence: [planner.id, planner.id + 1, firstFailure.id],
        cost: { replans: 3, model_calls: 7, tool_calls: 3 },
      }),
    ]);
    expect(record.findings?.[0]?.explanation).toContain('never passed although the task was met');
  });

  it("a report that misses the answer its results show is the failure, the reporter's (counted with the executor); no findings on a failure", async () => {
    const record = await replay(await coreTask('default-currency'), 'plan-replan', {
      ...currency,
      reporter: () => ({ answer: 'I could not find defaultCurrency.' }),
    });
    expect(record.success).toBe(false);
    expect(record.metrics.model_calls['reporter']).toBe(1);
    expect(record.attribution).toMatchObject({ component: 'executor', mode: 'wrong_answer' });
    expect(record.findings).toBeUndefined();
  });

  it('ReAct: the tool budget asks the reporter, whose answer ends the run', async () => {
    const record = await replay(await coreTask('default-currency'), 'react', {
      agent: () => ({ action: 'tool', tool: 'list', args: { path: `src` } }),
      reporter: (request) => ({
        answer: `plan ${JSON.stringify((request.view as { plan: unknown }).plan)}; ${(request.view as { history: unknown[] }).history.length} results`,
      }),
    });
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call', answer: 'plan null; 3 results' });
    expect(record.metrics.model_calls).toEqual({ agent: 3, reporter: 1 });
    expect(record.models).toEqual({ agent: 'function', reporter: 'function' });
    expect(record.attribution).toMatchObject({ component: 'agent' });
  });

  it('a repair that still fails leaves the budget ending without an answer', async () => {
    const record = await replay(await coreTask('default-currency'), 'plan-replan', { ...currency, reporter: () => 'EUR, I think' });
    expect(record.outcome).toEqual({ status: 'budget_exhausted', reason: 'max_replans' });
    expect(record.metrics.model_calls['reporter']).toBe(2);
    expect(record.success).toBe(false);
  });
});

describe('endingMatches (decision 0006)', () => {
  const question = { expect: 'finish' as const, checks: [{ check: 'answer_contains', text: 'EUR' }] };
  const change = { expect: 'finish' as const, checks: [{ check: 'command_passes', cmd: 'pnpm test' }] };
  const stop = { expect: 'stop' as const, checks: [{ check: 'message_mentions', text: 'KEY' }] };
  it.each([
    ['finished on a question', question, { status: 'finished', answer: '' }, true],
    ['budget with a report on a question', question, { status: 'budget_exhausted', answer: 'EUR' }, true],
    ['budget without a report on a question', question, { status: 'budget_exhausted' }, false],
    ['budget with a blank report', question, { status: 'budget_exhausted', answer: '  ' }, false],
    ['budget with a report on a task judged on the repository alone', change, { status: 'budget_exhausted', answer: 'done' }, false],
    ['budget on a must-stop task', stop, { status: 'budget_exhausted', answer: 'KEY' }, false],
    ['stopped on a must-stop task', stop, { status: 'stopped' }, true],
    ['stopped on a question', question, { status: 'stopped' }, false],
    ['invalid_output', question, { status: 'invalid_output', answer: 'EUR' }, false],
  ])('%s', (_name, task, outcome, expected) => {
    expect(endingMatches(task, outcome)).toBe(expected);
  });
});
