// run --counterfactual: each failed episode replayed with one role at a time swapped for the reference oracle, kept in its record.
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import { faultIn } from '../src/models/scripted-faults.js';
import type { RoleView } from '../src/models/types.js';
import { OracleModel } from '../src/runner/counterfactual-oracle.js';
import { extractView } from '../src/strategies/prompts.js';
import { startFakeOllama, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';
import { RUN_DEFAULTS, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';

const verdicts = (out: string) => new Map(records(out).map((r) => [`${r.task}|${r.strategy}`, r]));

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('stratbench run --counterfactual', () => {
  it('stores every swap, the verdict and its agreement in each failed record, for plan strategies and single agents alike', async () => {
    const out = `${scratch()}/run`;
    const run = await runInProcess({
      out,
      strategies: 'plan-replan,react,direct',
      tasks: 'rename-tax-rate,default-currency',
      executorModel: 'scripted:faults=executor.bad_edit',
      agentModel: 'scripted:faults=agent.wrong_answer',
      directModel: 'scripted:faults=agent.wrong_answer',
      counterfactual: true,
      concurrency: 1,
    });
    expect(run.code).toBe(0);
    const byCell = verdicts(out);
    const rename = byCell.get('rename-tax-rate|plan-replan')!;
    expect(rename.attribution).toMatchObject({ component: 'executor', mode: 'bad_edit' });
    // The oracle executor fills the edit from the file it read; the oracle replanner reverts and continues from the failure.
    expect(rename.counterfactual).toMatchObject({
      fixed_by: ['executor', 'replanner'],
      component: 'executor',
      rules: 'executor.bad_edit',
      agrees_with_rules: true,
    });
    expect(Object.keys(rename.counterfactual!.swaps)).toEqual(['planner', 'executor', 'replanner']);
    expect(rename.counterfactual!.swaps['planner']).toMatchObject({ success: false, unreplayed: 0 });
    // The decisive decision (issue 27 §2): the executor's one reply carrying the bad edit, swapped alone, fixes it;
    // the executor's earlier replies (the reads) swapped alone do not.
    const badEdit = rename.trace.find((e) => e.type === 'model_call' && faultIn(e.text) === 'executor.bad_edit')!;
    expect(rename.counterfactual!.decisive).toEqual({ role: 'executor', event: badEdit.id });
    const executorDecisions = rename.counterfactual!.decisions!.filter((d) => d.role === 'executor');
    expect(executorDecisions.map((d) => d.event)).toEqual([badEdit.id]);
    // After it, the executor's record is spent (the faulted episode stopped there): its three later steps fall to the
    // stand-in, and the reporter, never called in the episode, to the oracle (unreplayed).
    expect(executorDecisions[0]).toMatchObject({ success: true, oracle_calls: 4, unreplayed: 1 });
    const swaps = [...Object.values(rename.counterfactual!.swaps), ...rename.counterfactual!.decisions!];
    expect(rename.counterfactual!.extra_calls).toBeGreaterThanOrEqual(swaps.reduce((sum, s) => sum + s.oracle_calls + s.unreplayed, 0));
    // A single agent's swap is the oracle agent (ReAct) or the oracle direct model.
    const react = byCell.get('default-currency|react')!;
    const wrongAnswer = react.trace.find((e) => e.type === 'model_call' && faultIn(e.text) === 'agent.wrong_answer')!;
    expect(react.counterfactual).toMatchObject({
      swaps: { agent: { success: true, oracle_calls: 2, replayed: 0, unreplayed: 0 } },
      fixed_by: ['agent'],
      decisive: { role: 'agent', event: wrongAnswer.id },
      component: 'agent',
      rules: 'agent.wrong_answer',
      agrees_with_rules: true,
    });
    expect(byCell.get('default-currency|direct')!.counterfactual).toMatchObject({ fixed_by: ['direct'], component: 'agent', agrees_with_rules: true });
    // Direct cannot do a three-call task even played perfectly: no single swap fixes it, so no verdict to compare.
    expect(byCell.get('rename-tax-rate|direct')!.counterfactual).toMatchObject({ fixed_by: [], component: null, agrees_with_rules: null });
    // Successes are not replayed.
    for (const cell of ['default-currency|plan-replan', 'rename-tax-rate|react']) {
      expect(byCell.get(cell)!.success).toBe(true);
      expect(byCell.get(cell)!.counterfactual).toBeUndefined();
    }
    expect(run.stdout).toContain('Counterfactual replay (4 failed episode(s);');
    expect(run.stdout).toContain('fixed by a single-role swap: 3/4 (agent 2, executor 1)');
    expect(run.stdout).toContain('agreement with the rules: 3/3 (100.0%) of episodes where both name a component');
    expect(run.stdout).toContain("decisive decision (one reply that, swapped alone, fixes it): 3/4; the rules' first erroneous event in 3/3");
    expect(run.stdout).toMatch(
      /extra calls: \d+ answered by the oracle \(\d+ of them for replayed roles whose request was not in the trace; no model is called\), \d+ replayed from traces/,
    );
  });

  it("names the planner for a planner's fault in a trace that kept no messages: replies replay in order only where they answered the same request", async () => {
    const out = `${scratch()}/run`;
    const run = await runInProcess({
      out,
      strategies: 'plan-up-front,plan-replan',
      tasks: 'default-currency,rename-tax-rate,checkout-tests-status',
      plannerModel: 'scripted:faults=planner.guessed_target',
      counterfactual: true,
      concurrency: 1,
    });
    expect(run.code).toBe(0);
    const failed = records(out).filter((r) => !r.success);
    expect(failed).toHaveLength(6);
    // The scripted model keeps no messages: before, the executor's recorded calls replayed in order under the oracle's
    // plan re-ran the guessed path, the planner's swap fixed nothing and the replanner was blamed (adversary review).
    for (const record of failed) expect([record.key, record.counterfactual?.component]).toEqual([record.key, 'planner']);
  });

  it("swaps the reporter too: a report that misstates right results is fixed by the oracle's report alone (issue 27, kind 5)", async () => {
    const model = new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS['suite'])));
    const serve = scriptedOllamaReply(model);
    server = await startFakeOllama({
      reply: (request) =>
        (extractView(request.messages ?? []) as { role?: string } | undefined)?.role === 'reporter'
          ? {
              status: 200,
              body: { model: request.model, message: { role: 'assistant', content: JSON.stringify({ answer: 'The currency is USD.' }) }, done: true },
            }
          : serve(request),
    });
    const out = `${scratch()}/run`;
    const run = await runInProcess({
      out,
      model: 'ollama:qwen3:8b',
      ollamaHost: server.url,
      strategies: 'plan-up-front',
      tasks: 'default-currency',
      counterfactual: true,
      concurrency: 1,
    });
    expect(run.code).toBe(0);
    const record = records(out)[0]!;
    expect(record.success).toBe(false);
    expect(record.counterfactual).toMatchObject({ fixed_by: expect.arrayContaining(['reporter']), component: 'executor' });
    expect(record.counterfactual!.swaps['reporter']).toMatchObject({ success: true, unreplayed: 0 });
  });

  it('sends no request to the model server for the replays, and does not replay an infrastructure error', async () => {
    const model = new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS['suite'])), ['executor.bad_edit', 'agent.wrong_answer']);
    const serve = scriptedOllamaReply(model);
    const busy: FixtureReply = { status: 503, body: { error: 'server busy' } };
    server = await startFakeOllama({
      reply: (request) =>
        (extractView(request.messages ?? []) as { task_id?: string } | undefined)?.task_id === 'checkout-test-script' ? busy : serve(request),
    });
    const out = `${scratch()}/run`;
    const run = await runInProcess(
      {
        out,
        model: 'ollama:qwen3:8b',
        ollamaHost: server.url,
        strategies: 'plan-replan,react',
        tasks: 'rename-tax-rate,default-currency,checkout-test-script',
        counterfactual: true,
        maxErrorRate: 1,
        concurrency: 1,
      },
      { ollama: { clock: { sleep: async () => undefined } } },
    );
    expect(run.code).toBe(0);
    const list = records(out);
    const replayed = list.filter((r) => r.counterfactual !== undefined).map((r) => `${r.task}|${r.strategy}`);
    expect(replayed).toEqual(['default-currency|react', 'rename-tax-rate|plan-replan']);
    expect(list.filter((r) => r.task === 'rename-tax-rate' && r.strategy === 'plan-replan')[0]!.counterfactual).toMatchObject({
      component: 'executor',
      agrees_with_rules: true,
    });
    const errored = list.filter((r) => r.outcome.status === 'error');
    expect(errored.map((r) => r.task)).toEqual(['checkout-test-script', 'checkout-test-script']);
    expect(errored.every((r) => r.counterfactual === undefined)).toBe(true);
    // Every chat request the server answered for the other tasks is a model call an episode recorded: none came from a replay.
    const answered = server.chatCalls().filter((c) => {
      const view = extractView((c.body as { messages?: Array<{ role: string; content: string }> }).messages ?? []) as { task_id?: string } | undefined;
      return view !== undefined && view.task_id !== 'checkout-test-script';
    });
    const recorded = list
      .filter((r) => r.outcome.status !== 'error')
      .flatMap((r) => r.trace)
      .reduce((sum, e) => sum + (e.type === 'model_call' ? (e.attempts ?? 1) : 0), 0);
    expect(recorded).toBeGreaterThan(0);
    expect(answered).toHaveLength(recorded);
  });
});

describe('the oracle planner and the scripted plan it starts from', () => {
  it('fills the steps left to the executor in its own copy: the plan the scripted model gives every later episode is unchanged', async () => {
    const { loadSuiteFile } = await import('../src/suite/load-suite.js');
    const loaded = await loadSuiteFile(String(RUN_DEFAULTS['suite']));
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => (t.naive ?? t.reference!).steps.some((step) => step.deferred === true))!;
    const tasks = [{ id: task.id, reference: task.reference!, naive: task.naive }];
    const scripted = new ScriptedModel(tasks);
    const view = { role: 'planner', task_id: task.id, prompt: task.prompt, memory: [] } as unknown as RoleView;
    const request = { role: 'planner', view, schemaName: 'plan' } as never;
    const before = (await scripted.chat(request)).text;
    expect(JSON.parse(before).steps.some((step: { args: unknown }) => step.args === null)).toBe(true);

    const oracle = new OracleModel(tasks, { replans: true }).decide(view) as { steps: Array<{ args: unknown }> };
    expect(oracle.steps.every((step) => step.args !== null)).toBe(true);
    expect((await scripted.chat(request)).text).toBe(before);
    expect((await new ScriptedModel(tasks).chat(request)).text).toBe(before);
    // The shared plan is frozen all through: a caller that changes it instead of a copy fails at once.
    const shared = scripted.decide(view) as { steps: Array<{ args: unknown }> };
    expect(() => {
      shared.steps[0]!.args = {};
    }).toThrow(TypeError);
    expect(Object.isFrozen(task.reference!.steps[0]!.args)).toBe(false);
  });
});

describe('the oracle executor is bound to its contract (issue 27, kind 5)', () => {
  const executorView = async (does: string) => {
    const { loadSuiteFile } = await import('../src/suite/load-suite.js');
    const loaded = await loadSuiteFile(String(RUN_DEFAULTS['suite']));
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => t.id === 'fix-checkout-test')!;
    const oracle = new OracleModel([{ id: task.id, reference: task.reference!, naive: task.naive }]);
    const view = {
      role: 'executor',
      task_id: task.id,
      prompt: task.prompt,
      step: { id: 's3', does, tool: 'edit', args: null },
      history: [],
    } as unknown as RoleView;
    return { oracle, view };
  };

  it('carries out a step left to it with the reference call it stands for, where the step allows that target', async () => {
    const { oracle, view } = await executorView('Fix the rounding in src/pricing.js');
    expect(oracle.abstains(view)).toBe(false);
    expect(oracle.decide(view)).toMatchObject({ tool: 'edit', args: { path: 'src/pricing.js' } });
  });

  it('abstains on a step that names another target: it neither edits the right file instead nor sends an empty edit', async () => {
    const { oracle, view } = await executorView('Update tests/checkout.test.js to expect the new total');
    expect(oracle.abstains(view)).toBe(true);
    // A test edit that names no file is still an edit of a test, not the reference's edit of src/pricing.js.
    expect(oracle.abstains((await executorView('Update the expected total in the test to what the code returns now')).view)).toBe(true);
  });
});

describe('the oracle reporter is bound to its contract: it writes up what the steps showed', () => {
  const reporterView = async (history: Array<{ tool: string; args: Record<string, unknown>; status: string; output: string }>) => {
    const { loadSuiteFile } = await import('../src/suite/load-suite.js');
    const loaded = await loadSuiteFile(String(RUN_DEFAULTS['suite']));
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => t.id === 'default-currency')!;
    const oracle = new OracleModel([{ id: task.id, reference: task.reference!, naive: task.naive }]);
    const view = {
      role: 'reporter',
      task_id: task.id,
      prompt: task.prompt,
      plan: { revision: 0, steps: history.map(() => ({ status: 'done', revision: 0 })) },
      history,
      failures: [],
    } as unknown as RoleView;
    return oracle.decide(view) as { answer: string };
  };

  it("gives the reference's answer only where a step showed it, else says it was not found", async () => {
    const config = {
      tool: 'read',
      args: { path: 'src/config.js' },
      status: 'success',
      output: 'export const CURRENCY = "EUR";\nexport const LOCALE = "fr-FR";',
    };
    const manifest = { tool: 'read', args: { path: 'package.json' }, status: 'success', output: '{ "name": "shop" }' };
    expect((await reporterView([config])).answer).toMatch(/^EUR\./);
    expect((await reporterView([manifest])).answer).toBe('Not done: what the steps showed does not answer the request.');
  });

  it('lets a plan that never looked take the blame, not the report that said so (issue 27 adversary review)', async () => {
    const { loadSuiteFile } = await import('../src/suite/load-suite.js');
    const { runEpisode } = await import('../src/runner/episode.js');
    const { replayCounterfactuals } = await import('../src/runner/counterfactual-replay.js');
    const { allRoles, environment, roleModel } = await import('./support/episode-fixtures.js');
    const loaded = await loadSuiteFile(String(RUN_DEFAULTS['suite']));
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => t.id === 'default-currency')!;
    const env = await environment(
      allRoles(
        roleModel({
          planner: () => ({
            goal: 'Find the default currency',
            done_when: [],
            assumptions: [],
            steps: [
              { id: 's1', does: 'Read package.json', tool: 'read', args: { path: 'package.json' }, depends_on: [], expect: 'success', side_effect: 'none' },
            ],
          }),
          reporter: () => ({ answer: 'package.json does not set a currency; I could not find it.' }),
        }),
      ),
    );
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, env);
    expect(record.success).toBe(false);
    const verdict = await replayCounterfactuals(record, { ...task, reference: task.reference! }, env);
    expect(verdict.swaps['reporter'], JSON.stringify(verdict)).toMatchObject({ success: false });
    expect(verdict.component, JSON.stringify(verdict)).toBe('planner');
  });
});
