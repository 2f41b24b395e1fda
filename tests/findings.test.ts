// Issue 11 §1: costs on successful episodes are findings (role, kind, cost, evidence), shown by explain and in the run's table.
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import type { EpisodeRecord, TraceEvent } from '../src/records/index.js';
import { explainEpisode } from '../src/report/index.js';
import { runEpisode } from '../src/runner/episode.js';
import type { StrategyName } from '../src/strategies/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { allRoles, CORE_SUITE, environment, roleModel, type RoleHandler } from './support/episode-fixtures.js';
import { runInProcess, scratch } from './support/scripted-over-ollama.js';

const loaded = await loadSuiteFile(CORE_SUITE);
if (!loaded.ok) throw new Error('core suite does not load');
const tasks = loaded.tasks;
const task = (id: string): LoadedTask => tasks.find((t) => t.id === id)!;

/** One core task on the scripted model with injected faults (the truth is known by construction). */
const faulted = async (id: string, strategy: StrategyName, faults: string[]): Promise<EpisodeRecord> => {
  const model = new ScriptedModel(
    tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
    faults,
  );
  return runEpisode({ task: task(id), strategy, epoch: 0, seed: 1 }, await environment(allRoles(model), strategy === 'plan-replan-lookup'));
};

const scripted = async (id: string, strategy: StrategyName, handlers: Partial<Record<string, RoleHandler>>): Promise<EpisodeRecord> =>
  runEpisode({ task: task(id), strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));

const ids = (record: EpisodeRecord, keep: (e: TraceEvent) => boolean): number[] => record.trace.filter(keep).map((e) => e.id);
const callsOf = (record: EpisodeRecord, role: string) => ids(record, (e) => e.type === 'model_call' && e.role === role);

const step = (id: string, tool: string, args: Record<string, unknown> | null, does: string) => ({
  id,
  does,
  tool,
  args,
  depends_on: [],
  expect: 'success',
  side_effect: 'none',
});
const EUR = { answer: 'EUR: src/config.js sets CURRENCY = "EUR".' };

describe('findings on successful episodes', () => {
  it("a planner's guessed target that a replan repaired: its cost and evidence, and the plan's steps that were never needed", async () => {
    const record = await faulted('fix-checkout-test', 'plan-replan', ['planner.guessed_target']);
    expect(record.success).toBe(true);
    expect(record.attribution).toBeNull();
    const [planner] = callsOf(record, 'planner');
    const failedEdit = ids(record, (e) => e.type === 'tool_call' && e.status !== 'success');
    const [revision] = ids(record, (e) => e.type === 'plan_revision');
    const plan = ids(record, (e) => e.type === 'plan');
    expect(record.findings?.map((f) => [f.component, f.mode, f.cost])).toEqual([
      ['planner', 'guessed_target', { replans: 1, model_calls: 2, tool_calls: 1 }],
      ['planner', 'unneeded_step', { replans: 0, model_calls: 0, tool_calls: 0 }],
    ]);
    const [guess, unneeded] = record.findings!;
    expect(guess!.evidence[0]).toBe(planner);
    expect(guess!.evidence).toEqual(expect.arrayContaining([...failedEdit, revision]));
    expect(guess!.explanation).toContain(`The episode recovered after the replan at event ${revision}`);
    expect(unneeded!.evidence).toEqual([planner, ...plan, revision]);
  });

  it('a revision that repeats a call that had missed costs its replan (replanner.repeated_call)', async () => {
    const record = await faulted('moved-readme', 'plan-replan-lookup', ['replanner.repeated_call']);
    expect(record.success).toBe(true);
    const repeat = record.findings?.find((f) => f.mode === 'repeated_call');
    const replanner = callsOf(record, 'replanner');
    expect(repeat).toMatchObject({ component: 'replanner', cost: { replans: 1, model_calls: 2, tool_calls: 1 } });
    expect(repeat!.evidence[0]).toBe(replanner[0]);
  });

  it('an executor error that forced a replan is the executor’s cost, not a plan defect', async () => {
    const record = await scripted('default-currency', 'plan-replan', {
      planner: () => ({
        goal: 'Find the default currency',
        done_when: [],
        assumptions: ['The currency is in the config'],
        steps: [step('s1', 'read', null, 'Read the shop config')],
      }),
      executor: (_request, n) => ({ tool: 'read', args: { path: n === 0 ? 'src/settings.js' : 'src/config.js' } }),
      replanner: () => ({
        decision: 'revise',
        invalidated: 'The config is src/settings.js',
        assumptions: ['The config is src/config.js'],
        steps: [step('r1.1', 'read', { path: 'src/config.js' }, 'Read src/config.js')],
        message: '',
      }),
      reporter: () => EUR,
    });
    expect(record.success).toBe(true);
    const [executor] = callsOf(record, 'executor');
    const [miss] = ids(record, (e) => e.type === 'tool_call' && e.status !== 'success');
    const [stepEnd] = ids(record, (e) => e.type === 'step_end' && e.status === 'failed');
    const [revision] = ids(record, (e) => e.type === 'plan_revision');
    expect(record.findings).toEqual([
      {
        component: 'executor',
        mode: 'tool_error',
        evidence: [executor, miss, stepEnd, revision],
        explanation: expect.stringContaining(`the replan at event ${revision} was caused by this executor error, not by a plan defect`),
        cost: { replans: 1, model_calls: 1, tool_calls: 1 },
      },
    ]);
  });

  it('a read repeated on an unchanged repository costs the agent a model call and a tool call', async () => {
    const record = await scripted('default-currency', 'react', {
      agent: (_request, n) => (n < 2 ? { action: 'tool', tool: 'read', args: { path: 'src/config.js' } } : { action: 'finish', ...EUR }),
    });
    expect(record.success).toBe(true);
    const agent = callsOf(record, 'agent');
    const reads = ids(record, (e) => e.type === 'tool_call');
    expect(record.findings?.map((f) => [f.component, f.mode, f.evidence, f.cost])).toEqual([
      ['agent', 'repeated_read', [agent[1], reads[0], reads[1]], { replans: 0, model_calls: 1, tool_calls: 1 }],
    ]);
  });

  it('a question one call settles, sent to the planner by the gate, costs the plan loop’s extra calls', async () => {
    const record = await scripted('default-currency', 'gated', {
      gate: () => ({ route: 'plan' }),
      planner: () => ({
        goal: 'Find the default currency',
        done_when: [],
        assumptions: ['The currency is in src/config.js'],
        steps: [step('s1', 'read', { path: 'src/config.js' }, 'Read src/config.js')],
      }),
      reporter: () => EUR,
    });
    expect(record.success).toBe(true);
    const [gateCall] = callsOf(record, 'gate');
    const gateEvent = ids(record, (e) => e.type === 'gate');
    const plan = ids(record, (e) => e.type === 'plan');
    // planner + executor + reporter after the gate: one more than direct's two; one tool call, as direct.
    expect(record.findings).toEqual([
      expect.objectContaining({
        component: 'gate',
        mode: 'misroute',
        evidence: [gateCall, ...gateEvent, ...plan],
        cost: { replans: 0, model_calls: 1, tool_calls: 0 },
      }),
    ]);
  });

  it('a reply that needed its repair call costs one model call of its role', async () => {
    const record = await scripted('default-currency', 'react', {
      agent: (_request, n) =>
        n === 0 ? 'I will read the config now.' : n === 1 ? { action: 'tool', tool: 'read', args: { path: 'src/config.js' } } : { action: 'finish', ...EUR },
    });
    expect(record.success).toBe(true);
    const agent = callsOf(record, 'agent');
    expect(record.findings).toEqual([
      expect.objectContaining({
        component: 'agent',
        mode: 'invalid_output',
        evidence: [agent[0], agent[1]],
        cost: { replans: 0, model_calls: 1, tool_calls: 0 },
      }),
    ]);
  });

  it('a fault-free scripted episode has no finding, and a failed episode never has findings', async () => {
    expect((await faulted('fix-checkout-test', 'plan-replan', [])).findings).toBeUndefined();
    const failed = await faulted('rename-tax-rate', 'plan-replan', ['executor.bad_edit']);
    expect(failed.success).toBe(false);
    expect(failed.findings).toBeUndefined();
  });

  it('explain prints each finding with its cost and evidence; the run lists them under "Costs on successes"', async () => {
    const record = await faulted('fix-checkout-test', 'plan-replan', ['planner.guessed_target']);
    const text = explainEpisode(record);
    const guess = record.findings![0]!;
    expect(text).toContain(`finding: planner.guessed_target (cost: 1 replan(s), 2 model call(s), 1 tool call(s); evidence ${guess.evidence.join(' ')}) — `);
    const out = `${scratch()}/run`;
    const run = await runInProcess({
      out,
      strategies: 'plan-replan',
      tasks: 'fix-checkout-test',
      model: 'scripted:faults=planner.guessed_target',
      concurrency: 1,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Costs on successes (1 successful episode(s) with a finding; findings, not failures):');
    expect(run.stdout).toMatch(/^ +1 {2}planner\.guessed_target +cost 1 replan\(s\), 2 model call\(s\), 1 tool call\(s\) {2}plan-replan 1$/m);
    expect(run.stdout).toMatch(/^ +1 {2}planner\.unneeded_step +cost 0 replan\(s\), 0 model call\(s\), 0 tool call\(s\) {2}plan-replan 1$/m);
  });
});
