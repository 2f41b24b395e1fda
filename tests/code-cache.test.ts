// The code cache (decision 0049): the results of test-file, eslint and node runs kept on disk by content, served to a
// later process only when every file the run read reads the same, never a stale, torn or foreign result.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearRunCaches, RepoSpec, RunStore, SimRepo, stopCodeWorker, testFileStats, useRunStore } from '../src/sim-repo/index.js';
import { RunCache } from '../src/sim-repo/run-cache.js';
import type { StoredForm } from '../src/sim-repo/run-store.js';

/** Results stored as they are (plain JSON values). */
const plainForm = <T>(): StoredForm<T> => ({ encode: (result) => result, decode: (value) => value as T });
import { storableRun } from '../src/sim-repo/code-host.js';
import { runInSandbox } from '../src/sim-repo/sandbox/index.js';
import { closeCodeCache, openCodeCache } from '../src/runner/code-cache.js';
import { createHash } from 'node:crypto';

afterAll(() => stopCodeWorker());
afterEach(() => useRunStore(undefined));

const CONFIG = `import js from "@eslint/js";
import globals from "globals";

export default [js.configs.recommended, { rules: { "prefer-const": "error" } }, { languageOptions: { globals: { ...globals.node } } }];
`;

/** A shop whose checkout test fails (the discount is never applied) and whose lint finds a fixable `let`. */
const FILES: Record<string, string> = {
  'eslint.config.js': CONFIG,
  'src/checkout.js':
    'import { priceOf } from "./prices.js";\nexport function total(items) {\n  let sum = 0;\n  let rate = 1;\n  for (const item of items) sum += priceOf(item);\n  return sum * rate;\n}\n',
  'src/prices.js': 'export function priceOf(item) {\n  return item.price * item.quantity;\n}\n',
  'tests/checkout.test.js':
    'import { describe, expect, it } from "vitest";\nimport { total } from "../src/checkout.js";\ndescribe("total", () => {\n  it("adds", () => expect(total([{ price: 2, quantity: 3 }])).toBe(6));\n  it("discounts", () => expect(total([{ price: 200, quantity: 1 }])).toBe(180));\n});\n',
};

const spec = RepoSpec.parse({
  files: FILES,
  devDependencies: { '@eslint/js': '9.39.1', eslint: '9.39.1', globals: '16.0.0', vitest: '4.1.12' },
  scripts: { test: { kind: 'test', cmd: 'vitest run' }, lint: { kind: 'lint', cmd: 'eslint src tests' } },
});

const HARNESS = 'a'.repeat(64);

/** What an episode sees of one state: the test run, a lint run, `--fix` and what it wrote, a node run. */
function observe(edits: Record<string, string> = {}) {
  const repo = SimRepo.fromSpec(spec);
  for (const [path, content] of Object.entries(edits)) repo.write(path, content);
  const tests = repo.run('npx vitest run');
  const lint = repo.run('npx eslint src tests');
  const fix = repo.run('npx eslint --fix src');
  const node = repo.run('node -p "1 + 1"');
  return {
    tests: [tests.exit_code, tests.output],
    lint: [lint.exit_code, lint.output],
    fix: [fix.exit_code, fix.output, repo.fileAt('src/checkout.js')],
    node: [node.exit_code, node.output],
  };
}

/** `observe` in a fresh process's state: every in-process cache empty, `store` in use. */
function freshProcess(store: RunStore | undefined, edits: Record<string, string> = {}) {
  clearRunCaches();
  useRunStore(store);
  const before = testFileStats.executed;
  const seen = observe(edits);
  return { seen, executed: testFileStats.executed - before };
}

const folders: string[] = [];
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The store files of a harness folder. */
const storeFiles = (store: RunStore): string[] => readdirSync(store.dir).filter((name) => name.endsWith('.json'));

describe('the code cache', () => {
  const cold = freshProcess(undefined);

  it('serves a later process every run of a state it saw, equal to running the code', () => {
    expect(cold.executed).toBe(1);
    expect(cold.seen.tests[0]).toBe(1);
    expect(cold.seen.fix[2]).toContain('const rate = 1;');
    expect(cold.seen.lint[1]).toContain("'rate' is never reassigned. Use 'const' instead");
    const root = folder();
    const first = new RunStore(root, HARNESS, () => {});
    expect(freshProcess(first).seen).toEqual(cold.seen);
    // The test file, two lint runs and the node run, each written once.
    expect(first.stats).toEqual({ served: 0, stored: 4, skipped: 0 });
    const second = new RunStore(root, HARNESS, () => {});
    const again = freshProcess(second);
    expect(again.seen).toEqual(cold.seen);
    expect(again.executed).toBe(0);
    expect(second.stats).toEqual({ served: 4, stored: 0, skipped: 0 });
  });

  it('runs the code again when a file the run read changed, and keeps both states', () => {
    const root = folder();
    freshProcess(new RunStore(root, HARNESS, () => {}));
    const fixed = { 'src/checkout.js': FILES['src/checkout.js']!.replace('return sum * rate;', 'return (sum > 100 ? sum * 0.9 : sum) * rate;') };
    const coldFixed = freshProcess(undefined, fixed);
    expect(coldFixed.seen.tests[0]).toBe(0);
    const store = new RunStore(root, HARNESS, () => {});
    const served = freshProcess(store, fixed);
    expect(served.seen).toEqual(coldFixed.seen);
    expect(served.executed).toBe(1);
    // node -p reads no repository file: its run is served; the test and lint runs read the changed file.
    expect(store.stats).toEqual({ served: 1, stored: 3, skipped: 0 });
    const both = new RunStore(root, HARNESS, () => {});
    expect(freshProcess(both).seen).toEqual(cold.seen);
    expect(freshProcess(both, fixed).seen).toEqual(coldFixed.seen);
    expect(both.stats.stored).toBe(0);
  });

  it('serves nothing from a torn or edited file, nor from another harness, and rewrites what it recomputes', () => {
    const root = folder();
    const store = new RunStore(root, HARNESS, () => {});
    freshProcess(store);
    const files = storeFiles(store);
    expect(files.length).toBe(8);
    // Every file torn: an interrupted copy, a full disk.
    for (const name of files) {
      const path = join(store.dir, name);
      writeFileSync(path, readFileSync(path, 'utf8').slice(0, 120));
    }
    const torn = new RunStore(root, HARNESS, () => {});
    const tornRun = freshProcess(torn);
    expect(tornRun.seen).toEqual(cold.seen);
    expect(tornRun.executed).toBe(1);
    expect(torn.stats).toEqual({ served: 0, stored: 4, skipped: 0 });
    // An edited file (a byte added: still JSON): its checksum line no longer matches.
    for (const name of storeFiles(store)) appendFileSync(join(store.dir, name), ' ');
    const edited = new RunStore(root, HARNESS, () => {});
    expect(freshProcess(edited).seen).toEqual(cold.seen);
    expect(edited.stats.served).toBe(0);
    // Another harness (a rebuilt stratbench) starts empty.
    const other = new RunStore(root, 'b'.repeat(64), () => {});
    expect(freshProcess(other).executed).toBe(1);
    expect(other.stats.served).toBe(0);
  });

  it('serves nothing from a file edited with its checksum recomputed into a shape it does not read: a miss, not a crash', () => {
    const root = folder();
    const store = new RunStore(root, HARNESS, () => {});
    freshProcess(store);
    for (const name of storeFiles(store)) {
      const path = join(store.dir, name);
      const text = readFileSync(path, 'utf8');
      const body = JSON.parse(text.slice(65)) as Record<string, unknown>;
      if (!('result' in body)) continue;
      body['result'] = { file: 'tests/checkout.test.js', tests: 'garbage', exit_code: 'zero', output: 7, side_effect: 'none' };
      const edited = JSON.stringify(body);
      writeFileSync(path, `${createHash('sha256').update(edited).digest('hex')}\n${edited}`);
    }
    const forged = new RunStore(root, HARNESS, () => {});
    const run = freshProcess(forged);
    expect(run.seen).toEqual(cold.seen);
    expect(run.executed).toBe(1);
    expect(forged.stats.served).toBe(0);
  });

  it('costs one warning when the folder cannot be written, and the runs go on', () => {
    const blocker = join(folder(), 'a-file');
    writeFileSync(blocker, '');
    const warnings: string[] = [];
    const store = new RunStore(join(blocker, 'cache'), HARNESS, (line) => warnings.push(line));
    expect(freshProcess(store).seen).toEqual(cold.seen);
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: cannot write the code cache .*a-file\/cache\/harness-a+ \(ENOTDIR\): this run's code runs are not kept for the next$/),
    ]);
    expect(store.stats.stored).toBe(0);
  });

  it('stops writing when the folder is full, with one warning', () => {
    const warnings: string[] = [];
    const store = new RunStore(folder(), HARNESS, (line) => warnings.push(line), { maxFiles: 2 });
    expect(freshProcess(store).seen).toEqual(cold.seen);
    expect(store.stats).toEqual({ served: 0, stored: 1, skipped: 3 });
    expect(storeFiles(store).length).toBe(2);
    expect(warnings).toEqual([expect.stringContaining('is full (2 files or 256 MiB): new runs are not kept; stratbench cache clear empties it')]);
  });

  it('keeps the two most recently used other harnesses and removes older ones at its first write', () => {
    const root = folder();
    const others = ['1', '2', '3', '4'].map((digit, age) => {
      const dir = join(root, `harness-${digit.repeat(64)}`);
      mkdirSync(dir);
      const when = new Date(Date.now() - (age + 1) * 3_600_000);
      utimesSync(dir, when, when);
      return dir;
    });
    mkdirSync(join(root, 'notes'));
    const store = new RunStore(root, HARNESS, () => {});
    expect(store.holdsRuns()).toBe(false);
    freshProcess(store);
    expect(readdirSync(root).sort()).toEqual([`harness-${'1'.repeat(64)}`, `harness-${'2'.repeat(64)}`, `harness-${HARNESS}`, 'notes']);
    expect(others.length).toBe(4);
    expect(new RunStore(root, HARNESS, () => {}).holdsRuns()).toBe(true);
  });
});

describe('what the code cache never keeps', () => {
  it('a run stopped by its CPU-time limit (the load of the machine can decide it), unlike one stopped by its operation budget', () => {
    const loop = { files: () => undefined, entry: { code: 'for (;;) {}', filename: 'loop.js' } };
    const timed = runInSandbox({ ...loop, timeoutMs: 50, operationBudget: Number.MAX_SAFE_INTEGER });
    expect(timed.status).toBe('timeout');
    expect(timed.timeLimitReached).toBe(true);
    expect(storableRun(timed)).toBe(false);
    const budgeted = runInSandbox({ ...loop, operationBudget: 2_000 });
    expect(budgeted.status).toBe('timeout');
    expect(budgeted.timeLimitReached).toBeUndefined();
    expect(storableRun(budgeted)).toBe(true);
  });
});

describe('opening the code cache', () => {
  it('costs one warning for a folder the system cannot make (under /proc), and never hangs', async () => {
    const warnings: string[] = [];
    const harness = { version: '0', node: process.version, code: 'c'.repeat(64), dependencies: {} };
    expect(await openCodeCache('/proc/self/stratbench-code-cache', harness, (line) => warnings.push(line))).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: cannot use the code cache \/proc\/self\/stratbench-code-cache \(.*\): this run's code runs are neither served from nor kept in it$/,
      ),
    ]);
    const root = join(folder(), 'a', 'b');
    const store = await openCodeCache(root, harness, (line) => warnings.push(line));
    expect(store?.root).toBe(root);
    closeCodeCache();
    expect(warnings.length).toBe(1);
  });
});

describe('RunCache with a run store', () => {
  it('writes no result that would not come back equal from JSON, and no run it was told not to keep', () => {
    const root = mkdtempSync(join(tmpdir(), 'code-cache-'));
    folders.push(root);
    const store = new RunStore(root, HARNESS, () => {});
    useRunStore(store);
    const cache = new RunCache<{ exit_code: number; output?: string }>({ stored: { name: 'unit', ...plainForm() } });
    const files = (path: string) => (path === 'a.js' ? 'A' : undefined);
    // An undefined property would come back absent: not the result that was computed.
    cache.set('k1', [['a.js', 'A']], { exit_code: 1, output: undefined });
    // A run killed at the hard cutoff (the machine's load decided it).
    cache.set('k2', [['a.js', 'A']], { exit_code: 1, output: 'killed' }, undefined, false);
    cache.set('k3', [['a.js', 'A']], { exit_code: 0, output: 'ok' });
    expect(store.stats).toEqual({ served: 0, stored: 1, skipped: 1 });
    const fresh = new RunCache<{ exit_code: number; output?: string }>({ stored: { name: 'unit', ...plainForm() } });
    expect(fresh.get('k1', files)).toBeUndefined();
    expect(fresh.get('k2', files)).toBeUndefined();
    expect(fresh.get('k3', files)).toEqual({ exit_code: 0, output: 'ok' });
    expect(fresh.get('k3', (path) => (path === 'a.js' ? 'B' : undefined))).toBeUndefined();
    // Another cache's name never serves this one's keys.
    const other = new RunCache<{ exit_code: number; output?: string }>({ stored: { name: 'other', ...plainForm() } });
    expect(other.get('k3', files)).toBeUndefined();
  });
});
