// Issue 28 §1: a researcher's strategy as a module — `run --strategy-module PATH` adds it by name to --strategies, and
// it is run, scored, attributed and replayed like a built-in one. Through the built CLI, as a user runs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineStrategy } from '../src/strategies/define.js';
import { clearRegisteredStrategies } from '../src/strategies/index.js';
import { loadStrategyModules } from '../src/runner/strategy-modules.js';
import { runEpisode } from '../src/runner/episode.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { measureAccuracy, runAttributionCheck } from '../scripts/attribution-check.js';
import { allRoles, CORE_SUITE, environment, roleModel } from './support/episode-fixtures.js';
import { episodes, ROOT, scratch, stratbench } from './support/cli.js';

/** In-process tests register the modules they run; each starts from none and leaves none behind. */
async function registered(...paths: string[]): Promise<void> {
  clearRegisteredStrategies();
  await loadStrategyModules(paths);
}
afterEach(() => clearRegisteredStrategies());

const EXAMPLE = join(ROOT, 'examples/strategies/short-react.ts');

describe('run --strategy-module', () => {
  it('runs a .ts module strategy (jiti; importing from stratbench) beside a built-in one, in every table', () => {
    const out = join(scratch(), 'run');
    const result = stratbench([
      'run',
      '--strategy-module',
      EXAMPLE,
      '--strategies',
      'short-react,react',
      '--tasks',
      'default-currency,rename-tax-rate',
      '--out',
      out,
    ]);
    expect(result.stderr).toContain('matrix: 2 tasks × 2 strategies × 1 epoch = 4 episodes');
    expect(result.stderr).not.toMatch(/error|warning/i);
    expect(result.status).toBe(0);
    const rows = episodes(out);
    expect(rows.map((r) => `${r['task']}|${r['strategy']}|${r['success']}`).sort()).toEqual([
      'default-currency|react|true',
      'default-currency|short-react|true',
      'rename-tax-rate|react|true',
      'rename-tax-rate|short-react|true',
    ]);
    // The roles it declared serve it: the scripted model for agent (and reporter, unused on success).
    expect(rows.find((r) => r['strategy'] === 'short-react')!['models']).toEqual({ agent: 'scripted', reporter: 'scripted' });
    expect(result.stdout).toMatch(/│ short-react │ all\s+│ 2\s+│ 2\s+│ 0\s+│ 100\.0%/);
    expect(result.stdout).toMatch(/│ short-react │ react\s+│ 2/);
  });

  it("attributes a module strategy's failures by component and replays them counterfactually", () => {
    const out = join(scratch(), 'run');
    const result = stratbench([
      'run',
      '--strategy-module',
      EXAMPLE,
      '--strategies',
      'short-react',
      '--tasks',
      'default-currency,checkout-tests-status',
      '--agent-model',
      'scripted:faults=agent.wrong_answer',
      '--counterfactual',
      '--out',
      out,
    ]);
    expect(result.status).toBe(0);
    const failed = episodes(out).filter((r) => r['success'] === false);
    expect(failed).toHaveLength(2);
    for (const row of failed) {
      expect(row['attribution']).toMatchObject({ component: 'agent', mode: 'wrong_answer' });
      expect(row['counterfactual']).toMatchObject({ component: 'agent', agrees_with_rules: true });
    }
  });

  it('refuses a missing file, a module without a strategy, a malformed one and a built-in name, with exit 2 naming the path', () => {
    const dir = scratch();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const run = (path: string) =>
      stratbench(['run', '--strategy-module', path, '--strategies', 'react', '--tasks', 'default-currency', '--out', join(dir, 'out')]);
    const missing = run(join(dir, 'nope.mjs'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`--strategy-module ${join(dir, 'nope.mjs')}: no such file`);
    const empty = run(write('empty.mjs', 'export const answer = 42;\n'));
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('exports no strategy');
    const broken = run(write('broken.mjs', 'export default { name: "Bad Name", roles: ["agent"], run: async () => ({}) };\n'));
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('a strategy needs a name of lower-case letters');
    const clash = run(write('clash.mjs', 'export default { name: "react", roles: ["agent"], run: async () => ({}) };\n'));
    expect(clash.status).toBe(2);
    expect(clash.stderr).toContain('strategy react: the name of a built-in strategy');
    const syntax = run(write('syntax.mjs', 'export default {\n'));
    expect(syntax.status).toBe(2);
    expect(syntax.stderr).toContain('the module does not load');
  });

  it('--resume loads the modules the run recorded, and refuses a module edited since (its hash is in the configuration)', () => {
    const dir = scratch();
    const module = join(dir, 'mine.ts');
    // Outside the package, a module imports stratbench by its path (a project would install it).
    const text = readFileSync(EXAMPLE, 'utf8').replaceAll("from 'stratbench'", `from '${join(ROOT, 'dist/index.js')}'`);
    writeFileSync(module, text.replace("name: 'short-react'", "name: 'mine'"));
    const out = join(dir, 'run');
    expect(stratbench(['run', '--strategy-module', module, '--strategies', 'mine', '--tasks', 'default-currency', '--out', out]).status).toBe(0);
    const config = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).config;
    expect(config.strategy_modules).toEqual([{ path: module, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), strategies: ['mine'] }]);
    const resumed = stratbench(['run', '--resume', out]);
    expect(resumed.stderr).not.toMatch(/unknown strategy/);
    expect(resumed.status).toBe(0);
    writeFileSync(module, `${readFileSync(module, 'utf8')}// edited\n`);
    const edited = stratbench(['run', '--resume', out]);
    expect(edited.status).toBe(2);
    expect(edited.stderr).toContain('options or strategy modules differ');
  });

  it('an unknown strategy name lists the module strategies a run knows', () => {
    const result = stratbench([
      'run',
      '--strategy-module',
      EXAMPLE,
      '--strategies',
      'short-reac',
      '--tasks',
      'default-currency',
      '--out',
      join(scratch(), 'out'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('known: direct, react, plan-up-front, plan-replan, plan-replan-lookup, gated, short-react, all');
  });
});

describe('defineStrategy', () => {
  const run = async () => ({ status: 'finished' as const, reason: 'finished' });
  it('checks the definition and names the first problem', () => {
    expect(() => defineStrategy({ name: 'Mine', roles: ['agent'], run })).toThrow(/name must be lower-case letters/);
    expect(() => defineStrategy({ name: 'mine', roles: [], run })).toThrow(/roles must list the roles it calls/);
    expect(() => defineStrategy({ name: 'mine', roles: ['solver' as 'agent'], run })).toThrow(/unknown role\(s\) solver; known: direct, agent/);
    expect(() => defineStrategy({ name: 'mine', roles: ['agent'], run, maxModelCalls: 0 })).toThrow(/maxModelCalls must be a positive integer/);
    expect(defineStrategy({ name: 'mine', roles: ['agent', 'agent'], run })).toMatchObject({ name: 'mine', roles: ['agent'] });
  });
});

describe('the ReWOO example (examples/strategies/rewoo.ts), written only through the public API', () => {
  const REWOO = join(ROOT, 'examples/strategies/rewoo.ts');

  it('plans once, runs every step without a model, and answers once: two model calls per episode on the core suite', () => {
    const out = join(scratch(), 'run');
    const result = stratbench(['run', '--strategy-module', REWOO, '--strategies', 'rewoo', '--out', out]);
    expect(result.status).toBe(0);
    const rows = episodes(out);
    expect(rows).toHaveLength(14);
    // A straight-line reference succeeds; what needs a replan, a stop or an executor to fill a step does not.
    expect(
      rows
        .filter((r) => r['success'] === true)
        .map((r) => r['task'])
        .sort(),
    ).toEqual(['checkout-test-script', 'checkout-tests-status', 'default-currency', 'last-pricing-commit', 'pre-deploy-check'].sort());
    for (const row of rows) {
      const calls = (row['trace'] as Array<{ type: string; role?: string }>).filter((e) => e.type === 'model_call').map((e) => e.role);
      expect(calls).toEqual(['planner', 'reporter']);
      if (row['success'] === false) expect((row['attribution'] as { component: string }).component).toBe('planner');
    }
  });

  it('fills an evidence placeholder from the step it names: #E1 in a path is the first file the search printed', async () => {
    await registered(REWOO);
    const loaded = await loadSuiteFile(CORE_SUITE);
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => t.id === 'default-currency')!;
    const step = (id: string, tool: string, args: Record<string, unknown>) => ({
      id,
      does: `${tool} ${id}`,
      tool,
      args,
      depends_on: [],
      expect: 'success',
      side_effect: 'none',
    });
    const env = await environment(
      allRoles(
        roleModel({
          planner: () => ({
            goal: 'Find the currency',
            done_when: [],
            assumptions: [],
            steps: [step('s1', 'search', { text: 'CURRENCY =' }), step('s2', 'read', { path: '#E1' })],
          }),
          reporter: () => ({ answer: 'EUR. src/config.js sets `CURRENCY = "EUR"` (with the locale fr-FR).' }),
        }),
      ),
    );
    const record = await runEpisode({ task, strategy: 'rewoo', epoch: 0, seed: 1 }, env);
    const reads = record.trace.filter((e) => e.type === 'tool_call' && e.tool === 'read');
    expect(reads.map((e) => (e as { args: Record<string, unknown> }).args)).toEqual([{ path: 'src/config.js' }]);
    expect(record.success).toBe(true);
  });

  it("attributes the planner's injected faults to the planner and the single agent's to the agent (core suite)", async () => {
    await registered(REWOO, EXAMPLE);
    const { trials } = await runAttributionCheck({ strategies: ['rewoo', 'short-react'] });
    const report = measureAccuracy(trials);
    expect(report.measured.length).toBeGreaterThanOrEqual(30);
    expect(report.component.hits / report.component.n).toBeGreaterThanOrEqual(0.95);
    expect(report.confusion).toEqual({ agent: { agent: expect.any(Number) }, planner: { planner: expect.any(Number) } });
  });
});

describe('the Reflexion example (examples/strategies/reflexion.ts), written only through the public API', () => {
  const REFLEXION = join(ROOT, 'examples/strategies/reflexion.ts');

  it('after a trial that finished with its tests failing, reflects into memory and retries; the second trial succeeds', async () => {
    await registered(REFLEXION);
    const loaded = await loadSuiteFile(CORE_SUITE);
    if (!loaded.ok) throw new Error('core suite does not load');
    const task = loaded.tasks.find((t) => t.id === 'rename-tax-rate')!;
    const edit = (path: string, old: string, next: string) => ({ action: 'tool', tool: 'edit', args: { path, old, new: next, replace_all: true } });
    const firstTrial = [
      edit('src/config.js', 'TAX_RATE', 'VAT_RATE'),
      { action: 'tool', tool: 'run', args: { cmd: 'pnpm test' } },
      { action: 'finish', answer: 'Renamed.' },
    ];
    const secondTrial = [
      edit('src/pricing.js', 'TAX_RATE', 'VAT_RATE'),
      edit('src/orders/invoice.js', 'TAX_RATE', 'VAT_RATE'),
      { action: 'tool', tool: 'run', args: { cmd: 'pnpm test' } },
      { action: 'finish', answer: 'Renamed TAX_RATE to VAT_RATE in src/config.js, src/pricing.js and src/orders/invoice.js; pnpm test passes.' },
    ];
    const memories: string[][] = [];
    let second = 0;
    const env = await environment(
      allRoles(
        roleModel({
          agent: (request, n) => {
            const memory = (request.view as { memory: Array<{ text: string }> }).memory.map((note) => note.text);
            memories.push(memory);
            return memory.some((text) => text.startsWith('Reflection:')) ? secondTrial[second++] : firstTrial[n];
          },
          reporter: () => ({ answer: 'pnpm test fails: src/pricing.js and src/orders/invoice.js still import TAX_RATE; rename it there too.' }),
        }),
      ),
    );
    const record = await runEpisode({ task, strategy: 'reflexion', epoch: 0, seed: 1 }, env);
    expect(record.success, JSON.stringify(record.checks.filter((c) => !c.pass))).toBe(true);
    const roles = record.trace.filter((e) => e.type === 'model_call').map((e) => (e as { role: string }).role);
    expect(roles).toEqual(['agent', 'agent', 'agent', 'reporter', 'agent', 'agent', 'agent', 'agent']);
    expect(memories.at(-1)).toContain('Reflection: pnpm test fails: src/pricing.js and src/orders/invoice.js still import TAX_RATE; rename it there too.');
  });

  it('runs the core suite beside ReAct and is attributed like it under injected agent faults', async () => {
    await registered(REFLEXION);
    const { trials, skipped } = await runAttributionCheck({ strategies: ['reflexion'] });
    expect(skipped.baselineFailed).toEqual([]);
    const report = measureAccuracy(trials);
    expect(report.measured.length).toBeGreaterThanOrEqual(15);
    expect(report.component.hits / report.component.n).toBeGreaterThanOrEqual(0.95);
    // A retried trial that finishes the same wrong way: the first such finish is the first erroneous event.
    expect(report.step.hits / report.step.n).toBeGreaterThanOrEqual(0.9);
  });
});

describe('stratbench check-strategy', () => {
  it('holds for the three examples (exit 0)', () => {
    for (const example of ['short-react', 'rewoo', 'reflexion']) {
      const result = stratbench(['check-strategy', join(ROOT, `examples/strategies/${example}.ts`)]);
      expect(result.stdout).toContain(`7/7 contract clauses hold for ${example}`);
      expect(result.status).toBe(0);
    }
  });

  it('names each clause a broken strategy breaks, with what it saw (exit 1), and refuses a missing module (exit 2)', () => {
    const dir = scratch();
    const api = join(ROOT, 'dist/index.js');
    // Declares only the agent but asks the reporter too, ignores a reply that does not parse, and crashes on a rename.
    const module = join(dir, 'sloppy.mjs');
    writeFileSync(
      module,
      `import { ActionReply, ReportReply, callRole, defineStrategy, finished, newLedger, useToolAhead } from '${api}';
export default defineStrategy({
  name: 'sloppy',
  roles: ['agent'],
  async run(ctx) {
    if (ctx.task.id.startsWith('rename')) throw new Error('not implemented');
    const ledger = newLedger();
    const view = { role: 'agent', task_id: ctx.task.id, prompt: ctx.task.prompt, memory: ctx.task.memory, history: ledger.history, tool_calls_left: 4 };
    const first = await callRole(ctx, 'agent', 'action', ActionReply, view);
    if (first.ok && first.value.action === 'tool') await useToolAhead(ctx, ledger, first.value.tool, first.value.args ?? {});
    const report = await callRole(ctx, 'reporter', 'report', ReportReply, { role: 'reporter', task_id: ctx.task.id, prompt: ctx.task.prompt, plan: null, history: ledger.history, failures: [] });
    return finished(ctx, report.ok ? report.value.answer : '');
  },
});
`,
    );
    const result = stratbench(['check-strategy', module]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}sloppy {2}a reply that never parses ends the episode as invalid_output after one repair — ended finished/m);
    expect(result.stdout).toMatch(/^FAIL {2}sloppy {2}calls only the roles it declares — called [\w-]+: reporter/m);
    expect(result.stdout).toMatch(/^FAIL {2}sloppy {2}runs every task of the suite \(14\) without a harness error — rename-tax-rate: not implemented/m);
    expect(result.stdout).toMatch(/^ok {4}sloppy {2}an unreachable model server ends the episode as an infrastructure error$/m);
    const json = JSON.parse(stratbench(['check-strategy', '--json', module]).stdout);
    expect(json).toMatchObject({ strategies: ['sloppy'], ok: false });
    const missing = stratbench(['check-strategy', join(dir, 'nope.ts')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
