// Issue 28 §1: roles a strategy module declares beyond the seven built-in ones — their model, prompt, trace name,
// attribution by component (or an explicit unattributed.no_rule), the counterfactual, and the CLI around them.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../src/strategies/define.js';
import { addModuleStrategy, clearRegisteredStrategies } from '../src/strategies/index.js';
import { callRole } from '../src/strategies/call-role.js';
import { ActionReply } from '../src/strategies/replies.js';
import { budgetExhausted, finished, invalidOutput, stopped } from '../src/strategies/endings.js';
import { newLedger, useToolAhead } from '../src/strategies/tool-use.js';
import type { StrategyContext } from '../src/strategies/context.js';
import type { RoleDeclaration } from '../src/strategies/declared-roles.js';
import { loadStrategyModules } from '../src/runner/strategy-modules.js';
import { runEpisode } from '../src/runner/episode.js';
import { replayCounterfactuals } from '../src/runner/counterfactual-replay.js';
import { attribute } from '../src/attribution/index.js';
import { renderAttributionTable, summarizeAttributions } from '../src/report/attribution-table.js';
import { EpisodeRecord, type TraceEvent } from '../src/records/index.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { measureAccuracy, runAttributionCheck } from '../scripts/attribution-check.js';
import { allRoles, CORE_SUITE, environment, FunctionModel } from './support/episode-fixtures.js';
import { episodes, ROOT, scratch, stratbench } from './support/cli.js';

afterEach(() => clearRegisteredStrategies());

const CRITIC_REACT = join(ROOT, 'examples/strategies/critic-react.ts');
const PROMPT = 'You act for the agent. Tools: {{tools}} Reply with JSON matching {{schema}}';
const run = async () => ({ status: 'finished' as const, reason: 'finished' });

let core: LoadedTask[] | undefined;
async function coreTasks(): Promise<LoadedTask[]> {
  if (core) return core;
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  core = loaded.tasks;
  return core;
}
const scripted = (tasks: LoadedTask[], faults: string[] = []) =>
  allRoles(
    new ScriptedModel(
      tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
      faults,
    ),
  );

/** ReAct played entirely by one declared role (its model: the agent's), so a fault of the agent strikes it first. */
function soloReact(name: string, component: RoleDeclaration['component']) {
  return defineStrategy({
    name,
    roles: [{ name: 'solver', component, prompt: PROMPT }],
    maxModelCalls: 13,
    async run(ctx: StrategyContext) {
      const ledger = newLedger();
      for (;;) {
        const view = {
          role: 'solver',
          task_id: ctx.task.id,
          prompt: ctx.task.prompt,
          memory: ctx.task.memory,
          history: ledger.history,
          tool_calls_left: 12 - ledger.toolCalls,
        };
        const reply = await callRole(ctx, 'solver', 'action', ActionReply, view);
        if (!reply.ok) return invalidOutput(ctx, 'solver', reply.error);
        const action = reply.value;
        if (action.action === 'finish') return finished(ctx, action.answer ?? '');
        if (action.action === 'stop') return stopped(ctx, action.message ?? '');
        if (ledger.toolCalls >= 12) return budgetExhausted(ctx, 'tool_calls', 'the budget is 12 tool calls', async () => undefined);
        await useToolAhead(ctx, ledger, action.tool ?? '', action.args ?? {}, undefined, 1, { call: reply.eventId });
      }
    },
  });
}

describe('defineStrategy with declared roles', () => {
  const declare = (role: Record<string, unknown>) => () => defineStrategy({ name: 'mine', roles: ['agent', role as unknown as RoleDeclaration], run });

  it('settles a declaration: its model role (the component’s, agent for none), its prompt hashed', () => {
    const strategy = defineStrategy({
      name: 'mine',
      roles: [
        'agent',
        { name: 'critic', component: 'replanner', prompt: PROMPT },
        { name: 'note-taker', component: 'none', prompt: PROMPT, model: 'reporter' },
      ],
      run,
    });
    const sha256 = createHash('sha256').update(PROMPT).digest('hex');
    expect(strategy.roles).toEqual(['agent']);
    expect(strategy.declaredRoles).toEqual([
      { name: 'critic', component: 'replanner', model: 'replanner', prompt: { template: PROMPT, sha256 } },
      { name: 'note-taker', component: 'none', model: 'reporter', prompt: { template: PROMPT, sha256 } },
    ]);
    expect(defineStrategy({ name: 'mine', roles: [{ name: 'scout', component: 'none', prompt: PROMPT }], run }).declaredRoles?.[0]?.model).toBe('agent');
  });

  it('refuses each malformed declaration with a TypeError naming the problem', () => {
    expect(declare({ name: 'Critic', component: 'agent', prompt: PROMPT })).toThrow(/declared role's name must be kebab case .* got "Critic"/);
    expect(declare({ name: 'my_critic', component: 'agent', prompt: PROMPT })).toThrow(TypeError);
    expect(declare({ name: 'critic-', component: 'agent', prompt: PROMPT })).toThrow(/kebab case/);
    expect(declare({ name: 'x'.repeat(41), component: 'agent', prompt: PROMPT })).toThrow(/1–40 characters/);
    expect(declare({ name: 'planner', component: 'planner', prompt: PROMPT })).toThrow(/declared role planner clashes with the built-in role of that name/);
    expect(declare({ name: 'critic', component: 'judge', prompt: PROMPT })).toThrow(
      /declared role critic: component must be one of planner, executor, replanner, reporter, agent, gate, none, got "judge"/,
    );
    expect(declare({ name: 'critic', component: 'agent' })).toThrow(/declared role critic: prompt must be the role's prompt template/);
    expect(declare({ name: 'critic', component: 'agent', prompt: '  ' })).toThrow(/prompt must be/);
    expect(declare({ name: 'critic', component: 'agent', prompt: PROMPT, model: 'judge' })).toThrow(
      /declared role critic: model must be a built-in role .* got "judge"/,
    );
    expect(() =>
      defineStrategy({
        name: 'mine',
        roles: [
          { name: 'critic', component: 'agent', prompt: PROMPT },
          { name: 'critic', component: 'none', prompt: PROMPT },
        ],
        run,
      }),
    ).toThrow(/role critic is declared twice/);
    expect(() => defineStrategy({ name: 'mine', roles: ['critic' as 'agent'], run })).toThrow(/unknown role\(s\) critic; .*declare a role of your own/);
  });
});

describe('callRole for a declared role', () => {
  it("serves it with its model role's model and its own prompt, and traces it under its own name (scripted critic-react)", async () => {
    await loadStrategyModules([CRITIC_REACT]);
    const tasks = await coreTasks();
    const task = tasks.find((t) => t.id === 'default-currency')!;
    const record = await runEpisode({ task, strategy: 'critic-react', epoch: 0, seed: 1 }, await environment(scripted(tasks)));
    expect(record.success).toBe(true);
    expect(EpisodeRecord.safeParse(record).success).toBe(true);
    const calls = record.trace.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
    expect(calls.map((c) => c.role)).toEqual(['agent', 'agent', 'critic']);
    expect(record.metrics.model_calls).toEqual({ agent: 2, critic: 1 });
    expect(record.models).toEqual({ agent: 'scripted', critic: 'scripted' });
    const template = /const CRITIC_PROMPT = `([\s\S]*?)`;/.exec(readFileSync(CRITIC_REACT, 'utf8'))![1]!;
    expect(calls[2]!.prompt_sha256).toBe(createHash('sha256').update(template).digest('hex'));
    expect(calls[2]!.prompt_sha256).not.toBe(calls[0]!.prompt_sha256);
  });

  it('sends the request to the model role with the declared name, its prompt and options; repairs once; an undeclared role is a harness error', async () => {
    addModuleStrategy(soloReact('solo', 'agent'));
    const tasks = await coreTasks();
    const task = tasks.find((t) => t.id === 'default-currency')!;
    const model = new FunctionModel(() => 'no JSON here');
    const env = await environment(allRoles(model));
    const record = await runEpisode(
      { task, strategy: 'solo', epoch: 0, seed: 1 },
      { ...env, chatOptions: (role) => ({ temperature: role === 'agent' ? 0.3 : 0 }) },
    );
    expect(record.outcome).toMatchObject({ status: 'invalid_output', reason: 'solver_invalid_output' });
    expect(model.requests.map((r) => [r.role, r.declaredRole, r.options.temperature, r.messages()[0]!.content.slice(0, 23)])).toEqual([
      ['agent', 'solver', 0.3, 'You act for the agent. '],
      ['agent', 'solver', 0.3, 'You act for the agent. '],
    ]);
    const undeclared = defineStrategy({
      name: 'sloppy',
      roles: ['agent'],
      run: async (ctx) => {
        await callRole(ctx, 'critic', 'action', ActionReply, { role: 'critic', task_id: ctx.task.id, prompt: '' });
        return finished(ctx, '');
      },
    });
    addModuleStrategy(undeclared);
    const crashed = await runEpisode({ task, strategy: 'sloppy', epoch: 0, seed: 1 }, env);
    expect(crashed.outcome).toEqual({
      status: 'error',
      reason: 'harness_error',
      message: 'callRole: role critic is neither built in nor declared by the strategy',
    });
  });
});

describe('attribution of declared roles', () => {
  it("judges a declared role's calls by its component's rules and names the role in the verdict", async () => {
    const tasks = await coreTasks();
    const env = await environment(scripted(tasks, ['replanner.vague_stop']));
    // A plan-replan episode whose replanner fault is attributed; the same trace with the replanner renamed `critic`.
    let record: EpisodeRecord | undefined;
    let task: LoadedTask | undefined;
    for (const candidate of tasks) {
      const episode = await runEpisode({ task: candidate, strategy: 'plan-replan', epoch: 0, seed: 1 }, env);
      if (episode.attribution?.component === 'replanner') [record, task] = [episode, candidate];
      if (record) break;
    }
    expect(record?.attribution).toMatchObject({ component: 'replanner', mode: 'vague_stop' });
    const renamed = record!.trace.map((e) => (e.type === 'model_call' && e.role === 'replanner' ? { ...e, role: 'critic' } : e));
    const final = { repo: SimRepo.fromSpec(task!.repoSpec), answer: record!.outcome.answer, message: record!.outcome.message };
    const verdict = attribute(task!, renamed, final, record!.checks, { critic: 'replanner' });
    const at = record!.attribution!.evidence[0]!;
    expect(verdict).toEqual({
      ...record!.attribution,
      role: 'critic',
      explanation: `${record!.attribution!.explanation} (Event ${at} is the output of the declared role critic, judged as the replanner.)`,
    });
    // Without the declaration the rules do not read its calls: no replanner verdict.
    expect(attribute(task!, renamed, final, record!.checks)?.component).not.toBe('replanner');
  });

  it('measures injected faults in a declared role: component by its component, the verdict naming it', async () => {
    addModuleStrategy(soloReact('solo', 'agent'));
    const { trials } = await runAttributionCheck({ strategies: ['solo'] });
    const report = measureAccuracy(trials);
    expect(report.measured.length).toBeGreaterThan(10);
    expect(report.component.hits).toBe(report.measured.length);
    expect(report.mode.hits).toBe(report.measured.length);
    expect(report.measured.every((t) => t.attribution?.role === 'solver' && t.truth?.component === 'agent')).toBe(true);
  });

  it('gives a failure resting on a role declared none an explicit unattributed.no_rule with its calls as evidence, never a guess', async () => {
    addModuleStrategy(soloReact('blind', 'none'));
    const { trials } = await runAttributionCheck({ strategies: ['blind'] });
    const report = measureAccuracy(trials);
    expect(report.measured.length).toBeGreaterThan(10);
    for (const trial of report.measured) {
      expect(trial.attribution).toMatchObject({ component: 'unattributed', mode: 'no_rule', role: 'solver' });
      expect(trial.attribution!.explanation).toMatch(/declared the role solver with component none, so no attribution rule judges its replies/);
    }
    expect(report.mode.hits).toBe(report.measured.length);
    // Its invalid output: the two calls and the end are the evidence.
    const tasks = await coreTasks();
    const task = tasks.find((t) => t.id === 'default-currency')!;
    const record = await runEpisode({ task, strategy: 'blind', epoch: 0, seed: 1 }, await environment(allRoles(new FunctionModel(() => 'no JSON'))));
    expect(record.attribution).toEqual({
      component: 'unattributed',
      mode: 'no_rule',
      evidence: [0, 1, 2],
      explanation:
        "The strategy declared the role solver with component none, so no attribution rule judges its replies, and the episode ended on the solver's output (solver_invalid_output): its model calls at event(s) 0, 1 are the evidence; no component is blamed.",
      role: 'solver',
    });
  });

  it('shows unattributed.no_rule in the attribution table as a component of its own', () => {
    const table = renderAttributionTable(summarizeAttributions([{ strategy: 'blind', component: 'unattributed', mode: 'no_rule' }], ['blind']), {
      color: false,
    });
    expect(table).toMatch(/failures by component │ unattributed │ total/);
    expect(table).toContain('unattributed.no_rule');
    expect(table).not.toContain('carry no attribution');
  });
});

describe('the counterfactual with declared roles', () => {
  it("swaps a declared role alone for the oracle, playing it as its model role's", async () => {
    addModuleStrategy(soloReact('solo', 'agent'));
    const tasks = await coreTasks();
    const env = await environment(scripted(tasks, ['agent.premature_finish']));
    let record: EpisodeRecord | undefined;
    let task: LoadedTask | undefined;
    for (const candidate of tasks) {
      const episode = await runEpisode({ task: candidate, strategy: 'solo', epoch: 0, seed: 1 }, env);
      if (!episode.success && episode.attribution?.mode === 'premature_finish') [record, task] = [episode, candidate];
      if (record) break;
    }
    expect(record?.success).toBe(false);
    const verdict = await replayCounterfactuals(record!, { ...task!, reference: task!.reference! }, env);
    expect(verdict).toMatchObject({ fixed_by: ['solver'], component: 'agent', rules: 'agent.premature_finish', agrees_with_rules: true });
    expect(verdict.swaps['solver']).toMatchObject({ success: true });
  });

  it('abstains, saying why, for a declared role whose replies no built-in role writes', async () => {
    const Verdict = z.object({ ok: z.boolean() });
    addModuleStrategy(
      defineStrategy({
        name: 'checked',
        roles: ['agent', { name: 'checker', component: 'none', prompt: PROMPT }],
        async run(ctx) {
          const reply = await callRole(ctx, 'agent', 'action', ActionReply, {
            role: 'agent',
            task_id: ctx.task.id,
            prompt: ctx.task.prompt,
            memory: [],
            history: [],
            tool_calls_left: 1,
          });
          if (!reply.ok) return invalidOutput(ctx, 'agent', reply.error);
          const check = await callRole(ctx, 'checker', 'verdict', Verdict, {
            role: 'checker',
            task_id: ctx.task.id,
            prompt: ctx.task.prompt,
            proposed: reply.value,
          });
          if (!check.ok) return invalidOutput(ctx, 'checker', check.error);
          return finished(ctx, reply.value.answer ?? '');
        },
      }),
    );
    const tasks = await coreTasks();
    const task = tasks.find((t) => t.id === 'default-currency')!;
    const model = new FunctionModel((request) => (request.declaredRole === 'checker' ? { ok: true } : { action: 'finish', answer: 'USD' }));
    const env = await environment(allRoles(model));
    const record = await runEpisode({ task, strategy: 'checked', epoch: 0, seed: 1 }, env);
    expect(record.success).toBe(false);
    const verdict = await replayCounterfactuals(record, { ...task, reference: task.reference! }, env);
    expect(verdict.swaps['checker']).toEqual({
      success: false,
      oracle_calls: 0,
      replayed: 0,
      unreplayed: 0,
      abstained:
        "no oracle for the declared role checker: it asks for verdict replies, and the oracle writes only the built-in roles' (as the agent it would write action)",
    });
    expect(verdict.fixed_by).not.toContain('checker');
  });
});

describe('a module with a declared role through the CLI', () => {
  it('check-strategy passes critic-react, and run, report --html and the exports keep the critic', () => {
    const check = stratbench(['check-strategy', CRITIC_REACT]);
    expect(check.stdout).not.toMatch(/FAIL/);
    expect(check.status).toBe(0);
    const dir = scratch();
    const out = join(dir, 'run');
    const result = stratbench([
      'run',
      '--strategy-module',
      CRITIC_REACT,
      '--strategies',
      'critic-react',
      '--tasks',
      'default-currency,rename-tax-rate',
      '--agent-model',
      'scripted:faults=agent.wrong_answer',
      '--counterfactual',
      '--out',
      out,
    ]);
    expect(result.stderr).not.toMatch(/harness|Error/);
    expect(result.status).toBe(0);
    const rows = episodes(out);
    // A faulted scripted model is named with its faults, never as the plain stand-in.
    const faulted = 'scripted:faults=agent.wrong_answer';
    expect(rows.map((r) => r['models'])).toEqual([
      { agent: faulted, critic: faulted },
      { agent: faulted, critic: faulted },
    ]);
    for (const row of rows) expect(Object.keys((row['metrics'] as { model_calls: object }).model_calls)).toContain('critic');
    // The run's own model list (run.json, the table header) names the declared role with the model serving it.
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).models).toEqual({ agent: faulted, critic: faulted });
    expect(result.stdout).toMatch(/models: agent=\S+ critic=\S+/);
    const html = join(dir, 'report.html');
    expect(stratbench(['report', out, '--html', html]).status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('critic');
    const csv = join(dir, 'episodes.csv');
    expect(stratbench(['export', out, '--format', 'csv', '--out', csv]).status).toBe(0);
    expect(readFileSync(csv, 'utf8')).toMatch(/critic/);
    const atif = join(dir, 'atif');
    const exported = stratbench(['export', out, '--format', 'atif', '--out', atif]);
    expect(exported.stderr).toContain('wrote 2 trial folder(s)');
    expect(exported.status).toBe(0);
    // The declared role's calls are subagent trajectories of their own (agent/trajectory.sub-critic-<n>.json), not agent steps.
    expect(readdirSync(atif).every((trial) => readdirSync(join(atif, trial, 'agent')).includes('trajectory.sub-critic-1.json'))).toBe(true);
  });
});
