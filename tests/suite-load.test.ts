// A valid suite loads; a task's repository is its fixture with the task's overrides, faults and memory applied.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSuiteFile, parseSuite, resolveTaskRepo, type LoadResult } from '../src/suite/load-suite.js';

const SMALL = fileURLToPath(new URL('./fixtures/suites/small.yaml', import.meta.url));

function loaded(result: LoadResult): Extract<LoadResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected the suite to load:\n${result.errors.map((e) => `${e.line}:${e.col} ${e.path} ${e.message}`).join('\n')}`);
  return result;
}

describe('loadSuiteFile on a valid suite', () => {
  it('loads the suite and its tasks, hashing the file text', async () => {
    const result = loaded(await loadSuiteFile(SMALL));
    const text = await readFile(SMALL, 'utf8');
    expect(result.hash).toBe(createHash('sha256').update(text).digest('hex'));
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.suite.name).toBe('small');
    expect(result.suite.version).toBe(1);
    expect(result.tasks.map((task) => task.id)).toEqual(['fix-price', 'ask-first']);
    expect(result.tasks[1]?.counterexamples).toEqual([]);
    expect(result.tasks[0]?.reference.steps[1]).toEqual({
      tool: 'edit',
      args: { path: 'src/price.js', old: '107.01', new: '107' },
      deferred: false,
      after: [0],
    });
  });

  it('resolves overrides: files and hidden files merged (null deletes), commits prepended, records merged, tests replaced by name, date replaced', async () => {
    const { suite, tasks } = loaded(await loadSuiteFile(SMALL));
    const fixture = suite.fixtures.shop!;
    const repo = tasks[0]!.repoSpec;
    expect(repo.files).toEqual({
      'src/price.js': 'export const price = (amount) => Math.round(amount * 107.01) / 100;\n',
      'test/price.test.js': fixture.files['test/price.test.js'],
      'test/payments.test.js': fixture.files['test/payments.test.js'],
      'test/orders.test.js': fixture.files['test/orders.test.js'],
      'test/search.test.js': expect.stringContaining("it('finds a product', async () => {"),
    });
    expect(Object.keys(fixture.hidden_files)).toEqual(['test/hidden/price-rounding.test.js']);
    expect(repo.hidden_files).toEqual({ 'test/hidden/price-exact.test.js': expect.stringContaining('expect(price(300)).toBe(321);') });
    expect([fixture.date, repo.date]).toEqual(['2026-01-05T09:00:00Z', '2026-02-04T09:00:00Z']);
    expect([repo.dependencies, repo.devDependencies]).toEqual([{ pg: '8.16.3' }, { vitest: '4.1.12' }]);
    expect(repo.commits).toEqual([
      { sha: 'bbbbbbb', author: 'bo', date: '2026-02-03', message: 'break prices', changes: [] },
      { sha: 'aaaaaaa', author: 'ana', date: '2026-01-02', message: 'initial commit', changes: [] },
    ]);
    expect(repo.scripts).toEqual({
      test: { kind: 'test', cmd: 'vitest run', duration_ms: 20_000 },
      lint: { kind: 'command', cmd: 'eslint src', output: '', failure: 'failed', sets_flags: {}, side_effect: 'none', duration_ms: 2_000 },
      build: { kind: 'command', cmd: 'tsc', output: '', failure: 'failed', sets_flags: {}, side_effect: 'none', duration_ms: 2_000 },
    });
    expect(repo.tests).toEqual([
      {
        name: 'payments > charges a test card',
        file: 'test/payments.test.js',
        needs: 'secret',
        passes_when: { kind: 'env_equals', name: 'STRIPE_KEY', value: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' },
        failure: 'StripeAuthenticationError: Invalid API Key provided: sk_live_****',
      },
      {
        name: 'orders > saves an order',
        file: 'test/orders.test.js',
        needs: 'database',
        passes_when: { kind: 'migrations_applied', ids: ['m1'] },
        failure: 'error: relation "orders" does not exist',
      },
      {
        name: 'search > finds a product',
        file: 'test/search.test.js',
        needs: 'service',
        passes_when: { kind: 'flag', name: 'search', value: 'up' },
        failure: 'Error: connect ECONNREFUSED 127.0.0.1:9200',
      },
    ]);
    expect(repo.env).toEqual({ NODE_ENV: 'test', CI: '0', DEBUG: '1' });
    expect(repo.flags).toEqual({ feature: 'off', beta: 'on' });
    expect(repo.permissions).toEqual({ push: false });
    expect(repo.installed).toBe(false);
    expect(repo.migrations).toEqual({ applied: ['m1'], pending: ['m2'] });
    expect(repo.ci_log).toBe('test/price.test.js failed');
    expect(repo.branch).toBe('main');
  });

  it("appends the task's faults and memory to the fixture's", async () => {
    const [fixPrice] = loaded(await loadSuiteFile(SMALL)).tasks;
    expect(fixPrice!.repoSpec.faults).toEqual([
      { command: 'pnpm install', times: 1, transient: true, output: 'ECONNRESET', exit_code: 1 },
      { command: 'pnpm test', times: 2, transient: true, output: 'ETIMEDOUT', exit_code: 1 },
    ]);
    expect(fixPrice!.repoSpec.memory).toEqual([
      { date: '2026-01-01', text: 'The price tests live in test/.' },
      { date: '2026-02-04', text: 'Do not edit the tests.' },
    ]);
  });

  it('gives a task without overrides a copy of its fixture, sharing nothing with the suite', async () => {
    const { suite, tasks } = loaded(await loadSuiteFile(SMALL));
    const askFirst = tasks[1]!;
    expect(askFirst.repoSpec).toEqual(suite.fixtures.shop);
    expect(askFirst.repoSpec).not.toBe(suite.fixtures.shop);
    askFirst.repoSpec.files['new.txt'] = 'x';
    expect(suite.fixtures.shop?.files['new.txt']).toBeUndefined();
  });

  it('resolveTaskRepo leaves the fixture untouched and rejects an unknown fixture', async () => {
    const { suite } = loaded(await loadSuiteFile(SMALL));
    const before = structuredClone(suite.fixtures);
    resolveTaskRepo(suite, suite.tasks[0]!);
    expect(suite.fixtures).toEqual(before);
    const stray = { ...suite.tasks[0]!, repo: { fixture: 'toString' } };
    expect(() => resolveTaskRepo(suite, stray)).toThrow('task "fix-price": unknown fixture "toString"');
  });

  it('parseSuite gives the same result as loading the file, with the same hash', async () => {
    const text = await readFile(SMALL, 'utf8');
    expect(parseSuite(text, SMALL)).toEqual(await loadSuiteFile(SMALL));
  });
});
