// attribute(): null for successes and errors, precedence, a closed mode list, and no access to raw model text.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { attribute, ACT_RULES, ENDING_RULES, indexTrace, MODES, allModes } from '../src/attribution/index.js';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { SCRIPTED_FAULTS } from '../src/models/scripted-faults.js';
import { SimRepo } from '../src/sim-repo/index.js';
import type { StrategyName } from '../src/strategies/index.js';
import { allRoles, CORE_SUITE, environment, FunctionModel, miniTask } from './support/episode-fixtures.js';

const ADR = readFileSync(fileURLToPath(new URL('../docs/decisions/0004-attribution.md', import.meta.url)), 'utf8');

async function coreTasks(): Promise<LoadedTask[]> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  return loaded.tasks;
}

async function scripted(tasks: LoadedTask[], task: string, strategy: StrategyName, faults: string[] = []): Promise<EpisodeRecord> {
  const model = new ScriptedModel(
    tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
    faults,
  );
  return runEpisode({ task: tasks.find((t) => t.id === task)!, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
}

describe('attribute', () => {
  it('returns null for an episode that succeeded and for an error episode', async () => {
    const tasks = await coreTasks();
    const record = await scripted(tasks, 'fix-checkout-test', 'plan-replan');
    expect(record.success).toBe(true);
    expect(record.attribution).toBeNull();
    const broken = miniTask({ repo: { files: { 'a.js': 'x' } }, checks: [{ check: 'answer_contains', text: 'x' }], reference: { steps: [], finish: 'x' } });
    const crash = new FunctionModel(() => {
      throw new Error('boom');
    });
    const errored = await runEpisode({ task: broken, strategy: 'react', epoch: 0, seed: 1 }, await environment(allRoles(crash)));
    expect([errored.outcome.status, errored.attribution]).toEqual(['error', null]);
  });

  it('attributes every failed episode of a faulted run with a mode of the closed list and evidence that exists', async () => {
    const tasks = await coreTasks();
    for (const fault of ['planner.coarse_step', 'replanner.weakened_check', 'agent.no_stop']) {
      for (const strategy of ['react', 'plan-replan', 'plan-up-front'] as const) {
        for (const task of ['rename-tax-rate', 'fix-checkout-test', 'payments-sandbox-key']) {
          const record = await scripted(tasks, task, strategy, [fault]);
          if (record.success) continue;
          const a = record.attribution!;
          expect((MODES[a.component as keyof typeof MODES] as readonly string[]).includes(a.mode)).toBe(true);
          expect(a.evidence.every((id) => record.trace.some((e) => e.id === id))).toBe(true);
          expect(a.explanation).toContain(`event ${a.evidence[0]}`);
        }
      }
    }
  });

  it('lets the earliest wrong act win over a later one, and the rule listed first win a tie', async () => {
    const task = miniTask({
      repo: { files: { 'src/a.js': 'let a = 1;\n', 'src/b.js': 'let b = 2;\n' } },
      checks: [{ check: 'file_contains', path: 'src/a.js', text: 'a = 2' }],
      reference: { steps: [{ tool: 'edit', args: { path: 'src/a.js', old: '1', new: '2' } }], finish: 'done' },
    });
    const step = (id: string, tool: string, args: Record<string, unknown>) => ({
      id,
      does: `${tool} ${id}`,
      tool,
      args,
      depends_on: [],
      expect: 'success',
      side_effect: 'none',
    });
    const run = async (done_when: unknown[]) => {
      const model = new FunctionModel((request) => {
        if (request.role === 'planner')
          return {
            goal: 'g',
            done_when,
            assumptions: [],
            steps: [step('s1', 'edit', { path: 'src/c.js', old: '1', new: '2' }), step('s2', 'read', { path: 'src/a.js' })],
          };
        if (request.role === 'executor') {
          const view = request.view as { step: { id: string; tool: string; args: Record<string, unknown> } };
          return view.step.id === 's2' ? { tool: 'read', args: { path: 'src/b.js' } } : { tool: view.step.tool, args: view.step.args };
        }
        return { answer: 'report' };
      });
      return runEpisode({ task, strategy: 'plan-up-front', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    };
    // The planner's guess (event 0) beats the executor's drift on s2 (event 3).
    const later = await run([]);
    expect(later.attribution).toMatchObject({ component: 'planner', mode: 'guessed_target', evidence: [0, 1, 4] });
    // The same plan also copies an impossible check: both findings start at event 0, and guessed_target is listed first.
    const tie = await run([{ check: 'command_passes', cmd: 'pnpm db:migrate' }]);
    expect(tie.attribution).toMatchObject({ component: 'planner', mode: 'guessed_target', evidence: [0, 1, 4] });
    const input = { task, index: indexTrace(tie.trace), final: { repo: SimRepo.fromSpec(task.repoSpec) }, checks: tie.checks };
    const findings = ACT_RULES.map(([name, rule]) => [name, rule(input)?.evidence[0]] as const).filter(([, at]) => at !== undefined);
    expect(findings).toEqual([
      ['guessed_target', 0],
      ['wrong_check', 0],
      ['drift', 3],
    ]);
  });

  it('never reads raw model text: the index blanks it, and blanking it changes no verdict', async () => {
    const tasks = await coreTasks();
    for (const fault of Object.keys(SCRIPTED_FAULTS)) {
      const task = tasks.find((t) => t.id === 'fix-checkout-test')!;
      const record = await scripted(tasks, task.id, fault.startsWith('agent') ? 'react' : 'plan-replan', [fault]);
      const index = indexTrace(record.trace);
      expect(JSON.stringify(index.events)).not.toMatch(/"fault"|\[fault:/);
      const blank = record.trace.map((e) => (e.type === 'model_call' ? { ...e, text: '', error: undefined } : e));
      const again = attribute(task, blank, { repo: SimRepo.fromSpec(task.repoSpec) }, record.checks);
      expect(again).toEqual(record.attribution);
    }
  });
});

describe('docs/decisions/0004-attribution.md', () => {
  it('documents every mode and every fault, and lists the rules in precedence order', () => {
    for (const { component, mode } of allModes()) expect(ADR).toContain(`| ${component} | \`${mode}\` |`);
    for (const fault of Object.keys(SCRIPTED_FAULTS)) expect(ADR).toContain(`| \`${fault}\` |`);
    expect(ADR).toContain(ACT_RULES.map(([name]) => name).join(' → '));
    expect(ADR).toContain(ENDING_RULES.map(([name]) => name).join(' → '));
  });
});
