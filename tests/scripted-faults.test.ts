// Scripted faults: named and documented, validated by the registry, derived from the view alone, and harmless to other roles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, stratbench } from './support/cli.js';
import { buildModels, ModelSpecError, modelSpecsByRole, parseModelSpec } from '../src/models/registry.js';
import { ScriptedModel, type ScriptedTask } from '../src/models/scripted.js';
import { FAULT_NAMES, faultIn, faultStrikesRole, guessedPath, markFault, SCRIPTED_FAULTS } from '../src/models/scripted-faults.js';
import type { ChatModel, ChatRequest, ChatResponse, RoleView } from '../src/models/types.js';
import { MODES } from '../src/attribution/modes.js';
import { runEpisode } from '../src/runner/episode.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { DEFAULT_STRATEGIES } from '../src/strategies/index.js';
import { allRoles, CORE_SUITE, environment } from './support/episode-fixtures.js';

async function coreTasks(): Promise<LoadedTask[]> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  return loaded.tasks;
}

const scriptedTasks = (tasks: LoadedTask[]) => tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive }));

/** Wraps a model and keeps every view it was asked about. */
class Recording implements ChatModel {
  readonly name = 'recording';
  readonly deterministic = true;
  readonly views: RoleView[] = [];
  constructor(private readonly inner: ChatModel) {}
  chat(request: ChatRequest): Promise<ChatResponse> {
    this.views.push(structuredClone(request.view) as RoleView);
    return this.inner.chat(request);
  }
}

/** `model` recording every view it is asked, after one episode of each task × strategy (plan-replan-lookup too). */
async function recordedViews(tasks: LoadedTask[], model: ChatModel): Promise<Recording> {
  const recorder = new Recording(model);
  for (const task of tasks) {
    for (const strategy of [...DEFAULT_STRATEGIES, 'plan-replan-lookup'] as const) {
      await runEpisode({ task, strategy, epoch: 0, seed: 1 }, await environment(allRoles(recorder)));
    }
  }
  return recorder;
}

describe('fault names and the registry', () => {
  it('names each fault <role>.<mode> with a mode of the closed list and says where it strikes', () => {
    for (const fault of Object.values(SCRIPTED_FAULTS)) {
      expect(fault.name).toBe(`${fault.role}.${fault.mode}`);
      expect((MODES[fault.role] as readonly string[]).includes(fault.mode)).toBe(true);
      expect(fault.strikes.length).toBeGreaterThan(20);
    }
    expect(FAULT_NAMES).toHaveLength(19);
  });

  it('parses a fault list and builds a scripted model; an unknown fault is a ModelSpecError listing the known ones', async () => {
    expect(parseModelSpec('scripted:faults=planner.guessed_target, agent.no_stop')).toEqual({
      backend: 'scripted',
      faults: ['planner.guessed_target', 'agent.no_stop'],
    });
    const tasks = scriptedTasks(await coreTasks());
    const models = buildModels(modelSpecsByRole('scripted:faults=planner.guessed_target,agent.no_stop', {}), { tasks });
    // Named with its faults (the run's header, episodes and CSV show this name), never as the plain stand-in.
    expect(models.planner.name).toBe('scripted:faults=planner.guessed_target,agent.no_stop');
    expect(buildModels(modelSpecsByRole('scripted', {}), { tasks }).planner.name).toBe('scripted');
    expect(() => buildModels(modelSpecsByRole('scripted:faults=planner.guesed_target', {}), { tasks })).toThrow(ModelSpecError);
    expect(() => buildModels(modelSpecsByRole('scripted:faults=planner.guesed_target', {}), { tasks })).toThrow(
      `unknown fault "planner.guesed_target" in model "scripted:faults=planner.guesed_target"; known faults: ${FAULT_NAMES.join(', ')}`,
    );
    expect(() => new ScriptedModel(tasks, ['nope.nope'])).toThrow('unknown fault "nope.nope"');
  });

  it('marks a corrupted reply so the trace shows it, in JSON and in prose', () => {
    expect(markFault('gate.misroute', { route: 'direct' })).toEqual({ fault: 'gate.misroute', route: 'direct' });
    expect(faultIn(JSON.stringify(markFault('gate.misroute', { route: 'direct' })))).toBe('gate.misroute');
    expect(faultIn(markFault('executor.invalid_output', 'I will do it.') as string)).toBe('executor.invalid_output');
    expect(faultIn('{"route":"direct"}')).toBeUndefined();
  });
});

describe('where faults strike', () => {
  it('guesses paths no core task repository has', async () => {
    for (const task of await coreTasks()) {
      const repo = SimRepo.fromSpec(task.repoSpec);
      expect({ task: task.id, exists: repo.initialFile(guessedPath(task)) !== undefined }).toEqual({ task: task.id, exists: false });
    }
  });

  it('decides from the view alone (same view, same reply) and leaves every other role as the fault-free model plays it', async () => {
    const tasks = await coreTasks();
    const baseline = new ScriptedModel(scriptedTasks(tasks));
    const recorder = await recordedViews(tasks, baseline);
    expect(recorder.views.length).toBeGreaterThan(300);
    for (const name of FAULT_NAMES) {
      const faulted = new ScriptedModel(scriptedTasks(tasks), [name]);
      let struck = 0;
      for (const view of recorder.views) {
        const reply = faulted.decide(view);
        expect(faulted.decide(view)).toEqual(reply);
        if (!faultStrikesRole(SCRIPTED_FAULTS[name]!, view.role)) expect(reply).toEqual(baseline.decide(view));
        else if (JSON.stringify(reply) !== JSON.stringify(baseline.decide(view))) struck += 1;
      }
      expect({ name, struck: struck > 0 }).toEqual({ name, struck: true });
    }
  });
});

describe('replies the scripted model plays from the trajectories', () => {
  it('are one frozen value, its text written once, for every view asking for them; faults build on them without changing them', async () => {
    const tasks = await coreTasks();
    const model = new ScriptedModel(scriptedTasks(tasks));
    const recorder = await recordedViews(tasks, model);
    const before = recorder.views.map((view) => JSON.stringify(model.decide(view)));
    let shared = 0;
    for (const view of recorder.views) {
      const reply = model.decide(view);
      if (reply !== null && typeof reply === 'object' && Object.isFrozen(reply)) {
        shared++;
        expect(model.decide(view)).toBe(reply);
      }
      const response = await model.chat({ role: view.role, view } as ChatRequest);
      expect(response.text).toBe(typeof reply === 'string' ? reply : JSON.stringify(reply));
    }
    expect(shared).toBeGreaterThan(recorder.views.length / 2);
    for (const name of FAULT_NAMES) {
      const faulted = new ScriptedModel(scriptedTasks(tasks), [name]);
      for (const view of recorder.views) faulted.decide(view);
    }
    expect(recorder.views.map((view) => JSON.stringify(model.decide(view)))).toEqual(before);
  });

  it('still gives each task its own reply once more replies were played than are kept', async () => {
    const tasks: ScriptedTask[] = Array.from({ length: 600 }, (_, i) => ({
      id: `t${i}`,
      reference: { steps: [{ tool: 'read', args: { path: `src/f${i}.js` } }], finish: `file ${i}` },
    })) as unknown as ScriptedTask[];
    const model = new ScriptedModel(tasks);
    const ask = async (i: number) =>
      (await model.chat({ role: 'agent', view: { role: 'agent', task_id: `t${i}`, history: [] } } as unknown as ChatRequest)).text;
    const first = await ask(0);
    expect(first).toBe('{"action":"tool","tool":"read","args":{"path":"src/f0.js"}}');
    for (let i = 1; i < 600; i++) expect(await ask(i)).toBe(`{"action":"tool","tool":"read","args":{"path":"src/f${i}.js"}}`);
    expect(await ask(0)).toBe(first);
  });
});

describe('the fault-free scripted replanner', () => {
  const task = {
    id: 'rename-widget',
    reference: { steps: [{ tool: 'run', args: { cmd: 'pnpm test' }, deferred: false }], finish: 'Renamed.' },
  } as unknown as ScriptedTask;
  const stopFor = (output: string): string => {
    const view = {
      role: 'replanner',
      task_id: 'rename-widget',
      prompt: 'Rename widget',
      memory: [],
      plan: { revision: 0 },
      history: [],
      failure: { kind: 'step_failed', step_id: 's3', tool: 'run', args: { cmd: 'pnpm test' }, status: 'failure', output },
      changes: [],
      named_assumptions: [],
      replans_left: 2,
    } as unknown as RoleView;
    return (new ScriptedModel([task]).decide(view) as { message: string }).message;
  };

  it("gives up naming what failed, not the package manager's echo of the script (issue 27: a fault-free stop read as vague)", () => {
    const vitest =
      '> vitest run --exclude tests/live\n\n RUN  v4.1.12 /repo\n\n ✓ tests/a.test.js (2 tests)\n × tests/query.test.js > query > formats values\n   → TypeError: not a function';
    expect(stopFor(vitest)).toBe('I could not finish: step s3 (run) ended failure: × tests/query.test.js > query > formats values.');
  });

  it('keeps the first line (what the script ran) when no line marks the failure', () => {
    expect(stopFor('> node scripts/migrate.js --status\n\nApplied: 001\nPending: 004')).toBe(
      'I could not finish: step s3 (run) ended failure: > node scripts/migrate.js --status.',
    );
  });
});

describe('a faulted scripted model is labelled as such everywhere', () => {
  it('names its faults in the run header, run.json, every episode, the CSV, the markdown report and explain', () => {
    const out = join(scratch(), 'run');
    const spec = 'scripted:faults=planner.guessed_target';
    const result = stratbench(['run', '--strategies', 'react,plan-replan', '--tasks', 'rename-tax-rate', '--model', spec, '--no-progress', '--out', out]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`models: agent=${spec}`);
    expect(result.stdout).not.toMatch(/=scripted[ ,)\n]/);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).models).toMatchObject({ agent: spec, planner: spec, executor: spec });
    expect(episodes(out).map((row) => row['models'])).toEqual([
      { agent: spec, reporter: spec },
      { planner: spec, executor: spec, replanner: spec, reporter: spec },
    ]);
    const csv = stratbench(['report', out, '--csv', '-']);
    expect(csv.status).toBe(0);
    expect(csv.stdout).toContain(`agent=${spec};reporter=${spec}`);
    const markdown = stratbench(['report', out, '--markdown', '-']);
    expect(markdown.stdout).toContain(spec);
    const explained = stratbench(['explain', out, 'rename-tax-rate', 'plan-replan']);
    expect(explained.stdout).toContain(`planner=${spec}`);
  });
});
