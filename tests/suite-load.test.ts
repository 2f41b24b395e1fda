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
      args: { path: 'src/price.ts', old: '1.0701', new: '1.07' },
      deferred: false,
      after: [0],
    });
  });

  it('resolves overrides: files merged (null deletes), commits prepended, records merged, tests replaced by name', async () => {
    const [fixPrice] = loaded(await loadSuiteFile(SMALL)).tasks;
    const repo = fixPrice!.repoSpec;
    expect(repo.files).toEqual({
      'src/price.ts': 'export const price = (n: number) => n * 1.0701;\n',
      'test/price.test.ts': 'expect(price(100)).toBe(107);\n',
      'src/extra.ts': 'export {};\n',
    });
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
        name: 'price',
        suite: 'checkout',
        file: 'test/price.test.ts',
        passes_when: { kind: 'file_contains', path: 'src/price.ts', text: '1.07;' },
        failure: 'expected 107.01 to be 107',
      },
      {
        name: 'readme',
        suite: 'docs',
        file: 'test/readme.test.ts',
        passes_when: { kind: 'file_exists', path: 'README.md' },
        failure: 'README.md is missing',
      },
      {
        name: 'extra',
        suite: 'checkout',
        file: 'test/extra.test.ts',
        passes_when: { kind: 'file_exists', path: 'src/extra.ts' },
        failure: 'src/extra.ts is missing',
      },
    ]);
    expect(repo.env).toEqual({ NODE_ENV: 'test', CI: '0', DEBUG: '1' });
    expect(repo.flags).toEqual({ feature: 'off', beta: 'on' });
    expect(repo.permissions).toEqual({ push: false });
    expect(repo.installed).toBe(false);
    expect(repo.migrations).toEqual({ applied: ['m1'], pending: ['m2'] });
    expect(repo.ci_log).toBe('price.test.ts failed');
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
