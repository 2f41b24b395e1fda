// The sandbox: isolation, determinism, limits, Node-like module resolution and errors, Intl through the host.
import { describe, expect, it } from 'vitest';
import { runInSandbox } from '../src/sim-repo/sandbox/index.js';

const tree = (files: Record<string, string>) => (path: string) => files[path];

function run(files: Record<string, string>, entry: string, extra: Partial<Parameters<typeof runInSandbox>[0]> = {}) {
  const result = runInSandbox({ files: tree(files), entry: { path: entry }, timeoutMs: 1_000, ...extra });
  return { status: result.status, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, error: result.error };
}

describe('runInSandbox', () => {
  it('runs ES modules from the in-memory tree with relative imports and JSON', () => {
    const files = {
      'src/main.js': 'import { rate } from "./config.js";\nimport data from "../data/prices.json" with { type: "json" };\nconsole.log(rate * data.net);\n',
      'src/config.js': 'export const rate = 0.2;\n',
      'data/prices.json': '{ "net": 50 }\n',
    };
    expect(run(files, 'src/main.js')).toEqual({ status: 'ok', exitCode: 0, stdout: ['10'], stderr: [], error: undefined });
  });

  it('fails a missing export as Node does, naming the module', () => {
    const files = { 'src/a.js': 'import { VAT_RATE } from "./config.js";\n', 'src/config.js': 'export const TAX_RATE = 0.2;\n' };
    expect(run(files, 'src/a.js').error).toEqual({
      name: 'SyntaxError',
      message: "The requested module './config.js' does not provide an export named 'VAT_RATE'",
      stack: '',
    });
  });

  it('reports a syntax error with its file, line and column', () => {
    const result = run({ 'src/a.js': 'const ok = 1;\nexport const = 2;\n' }, 'src/a.js');
    expect(result.status).toBe('error');
    expect(result.error?.name).toBe('SyntaxError');
    expect(result.error?.location).toEqual({ file: 'src/a.js', line: 2, column: 14 });
  });

  it("fails a bare import of an undeclared package with Node's wording, and node: built-ins as unavailable", () => {
    expect(run({ 'a.js': 'import _ from "lodash";\n' }, 'a.js').error?.message).toBe("Cannot find package 'lodash' imported from /repo/a.js");
    expect(run({ 'a.js': 'import pg from "pg";\n' }, 'a.js', { packages: ['pg'] }).error?.message).toMatch(
      /^Cannot find package 'pg' imported from \/repo\/a\.js \(declared in package\.json/,
    );
    expect(run({ 'a.js': 'import { readFileSync } from "node:fs";\n' }, 'a.js').error?.message).toMatch(/^Node built-in module 'node:fs' is not available/);
  });

  it('resolves extensions and index files only in vite mode', () => {
    const files = { 'a.js': 'import { x } from "./lib";\nconsole.log(x);\n', 'lib/index.js': 'export const x = 7;\n' };
    expect(run(files, 'a.js', { resolution: 'vite' }).stdout).toEqual(['7']);
    expect(run(files, 'a.js').error?.message).toBe("Cannot find module '/repo/lib' imported from /repo/a.js");
  });

  it('never leaves the repository root', () => {
    expect(run({ 'a.js': 'import "../../etc/passwd";\n' }, 'a.js').error?.message).toBe("Cannot find module '../../etc/passwd' imported from /repo/a.js");
  });

  it('sees no host: no require, fetch or real process', () => {
    const result = run({ 'a.js': 'console.log(typeof require, typeof fetch, typeof process.binding, process.cwd());\n' }, 'a.js');
    expect(result.stdout).toEqual(['undefined undefined undefined /repo']);
  });

  it('fixes the clock to the given date and seeds Math.random', () => {
    const files = { 'a.js': 'console.log(new Date().toISOString(), Date.now(), Math.random());\n' };
    const first = run(files, 'a.js', { date: '2026-09-15T09:00:00Z', seed: 7 });
    const second = run(files, 'a.js', { date: '2026-09-15T09:00:00Z', seed: 7 });
    expect(first.stdout).toEqual(second.stdout);
    expect(first.stdout[0]).toMatch(/^2026-09-15T09:00:00\.000Z 1789462800000 0\.\d+$/);
    expect(new Date('2026-09-15T09:00:00Z').getTime()).toBe(1789462800000);
  });

  it('formats money with Intl.NumberFormat as Node does, non-breaking space included', () => {
    const files = {
      'a.js':
        'const f = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });\nconsole.log(JSON.stringify(f.format(4)), (1234.5).toLocaleString("en-US"));\n',
    };
    const expected = JSON.stringify(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(4));
    expect(run(files, 'a.js').stdout).toEqual([`${expected} 1,234.5`]);
  });

  it('stops an infinite loop after its operation budget, at the same point whatever the machine is doing', () => {
    const loop = () => run({ 'a.js': 'let n = 0;\nfor (;;) { n += 1; globalThis.reached = n; }\n' }, 'a.js', { timeoutMs: 60_000, operationBudget: 50 });
    const first = loop();
    expect(first.status).toBe('timeout');
    expect(first.error?.message).toBe('run stopped after about 1 million operations (an infinite loop, or a promise that never settles)');
    expect(loop()).toEqual(first);
  });

  it('ends an infinite loop at the CPU-time safety net when its operation budget is out of reach (CPU time: the load cannot stop it sooner)', () => {
    const before = process.cpuUsage();
    const result = run({ 'a.js': 'while (true) {}\n' }, 'a.js', { timeoutMs: 200, operationBudget: 1e9 });
    const used = process.cpuUsage(before);
    expect(result.status).toBe('timeout');
    expect(result.error?.message).toBe('run stopped after 200 ms of CPU time (an infinite loop, or a promise that never settles)');
    // The limit is counted in this process's CPU time, which a busy machine does not advance while the run waits for a core.
    expect((used.user + used.system) / 1000).toBeGreaterThanOrEqual(200);
  });

  it('ends runaway recursion and allocation as failures, and the next run still works', () => {
    expect(run({ 'a.js': 'function f() { return f(); }\nf();\n' }, 'a.js').error?.message).toBe('stack overflow');
    const allocation = run({ 'a.js': 'const a = []; for (;;) a.push({ n: a.length });\n' }, 'a.js', { memoryBytes: 16 * 1024 * 1024, timeoutMs: 3_000 });
    expect(allocation.status).toBe('out_of_memory');
    expect(allocation.error?.message).toBe('run stopped: out of memory (limit 16 MiB)');
    expect(run({ 'a.js': 'console.log("still fine");\n' }, 'a.js').stdout).toEqual(['still fine']);
  });

  it('runs virtual timers in order and process.exit sets the exit code', () => {
    const files = {
      'a.js':
        'setTimeout(() => console.log("late"), 50);\nsetTimeout(() => { console.log("early"); }, 10);\nawait new Promise((r) => setTimeout(r, 100));\nprocess.exit(3);\n',
    };
    expect(run(files, 'a.js')).toEqual({ status: 'ok', exitCode: 3, stdout: ['early', 'late'], stderr: [], error: undefined });
  });

  it('follows vitest for a missing named export in test runs and Node for node FILE', () => {
    const files = {
      'a.js': 'import { VAT_RATE, ok } from "./c.js";\nimport fallback, { ok as k } from "./c.js";\nconsole.log(VAT_RATE, ok, k, fallback);\n',
      'c.js': 'export const ok = 1;\nexport default 9;\n',
    };
    expect(run(files, 'a.js', { resolution: 'vite' })).toEqual({ status: 'ok', exitCode: 0, stdout: ['undefined 1 1 9'], stderr: [], error: undefined });
    expect(run(files, 'a.js').error?.message).toBe("The requested module './c.js' does not provide an export named 'VAT_RATE'");
  });

  it('starts every run from the same pristine state: nothing a run changes is seen by the next one', () => {
    const vandal = {
      'a.js': [
        'globalThis.leaked = 1;',
        'Math.random = () => 0.5;',
        'process.env.SECRET = "left behind";',
        'globalThis.console = undefined; globalThis.process = undefined; globalThis.Date = undefined;',
        'let junk = []; for (let i = 0; i < 20000; i++) junk.push({ i, s: "x".repeat(20) });',
      ].join('\n'),
    };
    const probe = {
      'b.js': 'console.log(typeof globalThis.leaked, typeof [].sum, JSON.stringify({ a: 1 }), Math.random(), process.env.SECRET, new Date().toISOString());\n',
    };
    const clean = run(probe, 'b.js', { date: '2026-03-01T10:00:00.000Z', seed: 7 });
    expect(clean.stdout[0]).toMatch(/^undefined undefined \{"a":1\} 0\.\d+ undefined 2026-03-01T10:00:00\.000Z$/);
    // The intrinsics the test runner computes with are locked (issue 25): rewriting them is refused and reported.
    const tamperer = {
      'c.js': [
        'try { Array.prototype.sum = function () { return 42; }; } catch (error) { console.log(error.constructor.name); }',
        'try { JSON.stringify = () => "hijacked"; } catch (error) { console.log(error.constructor.name); }',
        'try { Object.prototype.toString = () => "x"; } catch (error) { console.log(error.message); }',
        'class ConfigError extends Error { constructor(m) { super(m); this.name = "ConfigError"; } }',
        'const plain = {}; plain.toString = () => "own"; console.log(String(plain), new ConfigError("m").name);',
      ].join('\n'),
    };
    const refused = run(tamperer, 'c.js');
    expect(refused.stdout).toEqual([
      'TypeError',
      'TypeError',
      "Cannot assign to read only property toString of Object.prototype (the sandbox's intrinsics are locked)",
      'own ConfigError',
    ]);
    expect(refused.status).toBe('ok');
    // Every refusal throws as a frozen object would; assigning or redefining a locked property is also reported (a new
    // property on a locked object fails natively as not extensible, unreported).
    expect(runInSandbox({ files: tree(tamperer), entry: { path: 'c.js' } }).tampered).toEqual([
      'assigned JSON.stringify (at c.js:2)',
      'assigned Object.prototype.toString (at c.js:3)',
    ]);
    for (let round = 0; round < 3; round++) {
      expect(run(vandal, 'a.js').status).toBe('ok');
      expect(run(tamperer, 'c.js')).toEqual(refused);
      // Same seed, same date: the very same output, and the host bridges (console) still work after the vandal freed them.
      expect(run(probe, 'b.js', { date: '2026-03-01T10:00:00.000Z', seed: 7 })).toEqual(clean);
    }
    // Per-run settings apply to every run: another date, seed and env.
    const other = run(probe, 'b.js', { date: '2027-01-02T00:00:00.000Z', seed: 8, env: { SECRET: 's' } });
    expect(other.stdout[0]).toMatch(/ s 2027-01-02T00:00:00\.000Z$/);
    expect(other.stdout[0]).not.toBe(clean.stdout[0]);
  });

  it('ends a flood of host calls (console output, Intl) by the operation budget, whatever the machine speed', () => {
    for (const code of ['for (let i = 0; i < 1e7; i++) console.log("x");', 'for (let i = 0; i < 1e7; i++) Intl.NumberFormat("en").format(i);']) {
      // A host-time limit far away: only the operation budget can end these runs, so the verdict cannot depend on the load.
      const result = runInSandbox({ files: () => undefined, entry: { code, filename: '[eval]' }, timeoutMs: 600_000 });
      expect(result.status).toBe('timeout');
      expect(result.error?.message).toBe('run stopped after about 50 million operations (an infinite loop, or a promise that never settles)');
    }
    expect(run({ 'a.js': 'for (let i = 0; i < 2e4; i++) console.log(i);\n' }, 'a.js', { timeoutMs: 600_000 }).stdout.at(-1)).toBe('19999');
  });

  it('ends a microtask flood and a loop of imports of missing modules by the operation budget, whatever the machine speed', () => {
    // Host work QuickJS does not count (promise jobs, module resolution) is charged: before, these ran ~10 s and ended
    // at the CPU-time limit or the budget depending on the load, so the run's output (and a grade) did too.
    const floods = [
      'function again() { Promise.resolve().then(again); }\nagain();',
      'function again() { Promise.resolve().then(again); }\nagain();\nawait new Promise(() => setTimeout(() => {}, 1e9));',
      "let n = 0; for (;;) { try { await import('./missing-' + n++); } catch (ignored) {} }",
    ];
    for (const code of floods) {
      // A CPU-time limit ten times what the budget takes even on a loaded machine: it ends the run only if the charge is gone.
      const result = runInSandbox({ files: () => undefined, entry: { code, filename: '[eval]' }, timeoutMs: 60_000 });
      expect(result.status).toBe('timeout');
      expect(result.error?.message).toBe('run stopped after about 50 million operations (an infinite loop, or a promise that never settles)');
    }
    // What a test file awaits stays far inside the budget: 100,000 awaits in a row.
    const awaits = run({ 'a.js': 'let n = 0;\nfor (let i = 0; i < 1e5; i++) n += await i;\nconsole.log(n);\n' }, 'a.js', { timeoutMs: 600_000 });
    expect(awaits.stdout).toEqual(['4999950000']);
  });

  it('records every file it read, absent ones included', () => {
    const result = runInSandbox({ files: tree({ 'a.js': 'import "./b.js";\n' }), entry: { path: 'a.js' } });
    expect(result.reads).toEqual([
      ['a.js', 'import "./b.js";\n'],
      ['b.js', undefined],
    ]);
  });
});

describe('the code worker (hard cutoff)', () => {
  it('kills a run that never yields to the interrupt handler, and the next command runs normally', async () => {
    const { SimRepo, RepoSpec } = await import('../src/sim-repo/index.js');
    const { runSandboxed } = await import('../src/sim-repo/code-host.js');
    // Sorting a typed array is one native call that never reaches QuickJS's interrupt check (nor allocates much).
    const code = 'const a = new Float64Array(1e6).map((_, i) => (i * 7919) % 1000);\nfor (let k = 0; k < 1e6; k++) a.slice().sort();\n';
    const empty = { base: { id: 2 ** 31 - 1, files: new Map<string, string>() }, overlay: {} };
    // A 200 ms limit: the worker is killed at ten times it in wall time (a loaded machine stretches CPU time), plus 1 s grace: 3,000 ms.
    const stuck = runSandboxed({ entry: { code, filename: '[eval]' }, timeoutMs: 200 }, empty);
    expect(stuck.status).toBe('timeout');
    expect(stuck.error?.message).toBe("run killed after 3000 ms: the code never yielded (a long native call); the harness's hard cutoff ended it");
    const repo = SimRepo.fromSpec(RepoSpec.parse({ files: {} }));
    expect(repo.run('node -e "console.log(6 * 7)"')).toMatchObject({ exit_code: 0, output: '42' });
  });
});

describe('a promise that can never settle', () => {
  it('ends at once, saying so, not as a host-time limit it never reached', () => {
    const result = runInSandbox({ files: tree({ 'a.js': 'await new Promise(() => {});\n' }), entry: { path: 'a.js' }, timeoutMs: 600_000 });
    expect(result.status).toBe('timeout');
    expect(result.error?.message).toBe('run stopped: a promise it awaits never settles (no job and no timer left that could settle it)');
  });
});
