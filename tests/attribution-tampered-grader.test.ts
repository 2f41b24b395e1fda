// Code an episode wrote that tampers with the grader: the episode fails, is scored (never an `error`), and the role that wrote the code is blamed.
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import type { ChatRequest } from '../src/models/types.js';
import type { StrategyName } from '../src/strategies/index.js';
import { allRoles, environment, miniTask, type MiniTask, roleModel } from './support/episode-fixtures.js';

const BUGGY = 'export const total = (x) => Math.floor(x);\n';
const HIDDEN_TEST = [
  "import { expect, it } from 'vitest';",
  "import { total } from '../../src/total.js';",
  "it('rounds half up', () => { expect(total(2.5)).toBe(3); });",
  '',
].join('\n');
const HIDDEN_ID = 'tests/hidden/total.test.js > rounds half up';

const fix: MiniTask = miniTask({
  id: 'fix-total-hidden',
  group: 'multi-step',
  repo: { files: { 'src/total.js': BUGGY }, hidden_files: { 'tests/hidden/total.test.js': HIDDEN_TEST }, scripts: { test: { kind: 'test' } } },
  checks: [{ check: 'tests_pass', tests: [HIDDEN_ID] }],
  reference: { steps: [{ tool: 'edit', args: { path: 'src/total.js', old: 'floor', new: 'round' } }], finish: 'fixed' },
});

type Handler = (request: ChatRequest, n: number) => unknown;
const tool = (name: string, args: Record<string, unknown>) => ({ action: 'tool', tool: name, args });
const react = (calls: unknown[]) => ({ agent: (_r: ChatRequest, n: number) => calls[n] ?? { action: 'finish', answer: 'fixed' } });

async function episode(strategy: StrategyName, handlers: Partial<Record<string, Handler>>): Promise<EpisodeRecord> {
  return runEpisode({ task: fix, strategy, epoch: 0, seed: 1 }, await environment(allRoles(roleModel(handlers))));
}

/** Source code that keeps the bug and tries to make the hidden test pass anyway, as an agent would write it. */
const ATTACKS: Record<string, string> = {
  'Object.is replaced': `${BUGGY}Object.is = () => true;\n`,
  'a hook registered from source': `import { afterEach } from 'vitest';\n${BUGGY}afterEach((_context, suite) => { for (const t of suite.tasks) t.state = 'pass'; });\n`,
  'expect.extend over toBe': `import { expect } from 'vitest';\n${BUGGY}expect.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n`,
  'a throwing getter on Object.prototype': `${BUGGY}Object.defineProperty(Object.prototype, 'tests', { get() { throw new Error('boom'); } });\n`,
  'the run ended by a thrown exit signal': `${BUGGY}throw { __stratbench_exit__: 0 };\n`,
};

describe('tampered_grader', () => {
  it.each(Object.entries(ATTACKS))('%s: the episode fails, scored, and the agent that wrote the code is blamed', async (_name, content) => {
    const record = await episode('react', react([tool('write', { path: 'src/total.js', content })]));
    expect(record.outcome.status).toBe('finished');
    expect(record.success).toBe(false);
    expect(record.checks[0]).toMatchObject({ pass: false });
    expect(record.checks[0]?.detail).toContain('tampered_grader');
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'tampered_grader', evidence: [0, 1, 4] });
  });

  it('names the refusal and where it happened in the check detail, and blames the agent as tampered_grader', async () => {
    const record = await episode('react', react([tool('write', { path: 'src/total.js', content: ATTACKS['a hook registered from source'] })]));
    expect(record.checks[0]?.detail).toBe(
      `1 of 1 not passing: ${HIDDEN_ID}: file failed (TamperedGraderError: tampered_grader: refused: afterEach called from a module that is not a test file (at src/total.js:3))`,
    );
    expect(record.attribution).toMatchObject({ component: 'agent', mode: 'tampered_grader', evidence: [0, 1, 4] });
  });

  it('blames the planner when the plan wrote the code and the executor ran it as written, the executor when it filled the args', async () => {
    const write = { path: 'src/total.js', content: ATTACKS['expect.extend over toBe'] };
    const plan = (args: Record<string, unknown> | null) => () => ({
      goal: 'g',
      done_when: [],
      assumptions: ['A0'],
      steps: [{ id: 's1', does: 'write the fix', tool: 'write', args, depends_on: [], expect: 'success', side_effect: 'reversible' }],
    });
    const byPlan = await episode('plan-up-front', { planner: plan(write), executor: () => tool('write', write), reporter: () => ({ answer: 'fixed' }) });
    expect(byPlan.success).toBe(false);
    expect(byPlan.attribution).toMatchObject({ component: 'planner', mode: 'tampered_grader' });
    const byExecutor = await episode('plan-up-front', { planner: plan(null), executor: () => tool('write', write), reporter: () => ({ answer: 'fixed' }) });
    expect(byExecutor.attribution).toMatchObject({ component: 'executor', mode: 'tampered_grader' });
  });

  it('an honest fix still passes: the locked realm does not get in the way of ordinary code', async () => {
    const record = await episode('react', react([tool('edit', { path: 'src/total.js', old: 'floor', new: 'round' })]));
    expect(record.success).toBe(true);
    expect(record.attribution).toBeNull();
  });
});
