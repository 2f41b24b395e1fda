// The sandbox's per-run restore and its fixed clock: what issue 32's speed work changed must not change what a run sees.
import { describe, expect, it } from 'vitest';
import { runInSandbox } from '../src/sim-repo/sandbox/index.js';

const tree = (files: Record<string, string>) => (path: string) => files[path];

function run(files: Record<string, string>, entry: string) {
  const result = runInSandbox({ files: tree(files), entry: { path: entry }, timeoutMs: 5_000, date: '2026-03-01T10:00:00.000Z', seed: 7 });
  return { status: result.status, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, error: result.error };
}

const PROBE = {
  'probe.js': [
    'globalThis.seen = (globalThis.seen ?? 0) + 1;',
    'const junk = []; for (let i = 0; i < 2000; i++) junk.push({ i, text: "x".repeat(i % 50) });',
    'console.log(globalThis.seen, Math.random(), new Date().toISOString(), junk.length, typeof globalThis.left);',
  ].join('\n'),
};

describe('the snapshot restore', () => {
  it('gives a run the same start after runs that dirtied the C stack, the heap and the exit code', () => {
    const first = run(PROBE, 'probe.js');
    expect(first.stdout[0]).toMatch(/^1 0\.\d+ 2026-03-01T10:00:00\.000Z 2000 undefined$/);
    const dirtying = {
      // Deep recursion fills the C stack down to QuickJS's limit (the zero pages of the snapshot's span).
      'deep.js': 'function down(n) { return down(n + 1) + 1; }\ntry { down(0); } catch (error) { console.log(error.name); }\nglobalThis.left = 1;\n',
      // Many live objects move malloc's top past the snapshot's span; the exit code is set.
      'heap.js': 'globalThis.keep = []; for (let i = 0; i < 200000; i++) keep.push({ i }); globalThis.left = 2; process.exitCode = 3;\n',
    };
    expect(run(dirtying, 'deep.js')).toMatchObject({ status: 'ok', exitCode: 0, stdout: ['InternalError'] });
    expect(run(dirtying, 'heap.js')).toMatchObject({ status: 'ok', exitCode: 3 });
    expect(run(PROBE, 'probe.js')).toEqual(first);
  });

  it('reads process.exitCode at the end of each run, as the process left it', () => {
    const files = {
      'set.js': 'process.exitCode = 4;\n',
      'object.js': 'globalThis.process = { exitCode: "5" };\n',
      'none.js': 'console.log("ok");\n',
      'throws.js': 'Object.defineProperty(process, "exitCode", { get() { throw new Error("no"); } });\n',
    };
    expect([run(files, 'set.js').exitCode, run(files, 'object.js').exitCode, run(files, 'none.js').exitCode, run(files, 'throws.js').exitCode]).toEqual([
      4, 5, 0, 0,
    ]);
  });
});

describe('the fixed clock', () => {
  it('constructs explicit dates from any number of arguments as Date does', () => {
    const files = {
      'dates.js': [
        'const show = (date) => (Number.isNaN(date.getTime()) ? "Invalid" : date.toISOString());',
        'console.log(show(new Date(0)), show(new Date("2026-02-03T04:05:06Z")), show(new Date(new Date(86400000))));',
        'console.log(show(new Date(2026, 1)), show(new Date(2026, 1, 3)), show(new Date(2026, 1, 3, 4)));',
        'console.log(show(new Date(2026, 1, 3, 4, 5)), show(new Date(2026, 1, 3, 4, 5, 6)), show(new Date(2026, 1, 3, 4, 5, 6, 7)));',
        'console.log(show(new Date(2026, 1, 3, 4, 5, 6, 7, 8)), show(new Date(2026, undefined)), show(new Date("nonsense")));',
        'console.log(Date.length, typeof Date(), Date() === new Date().toString(), new Date() instanceof Date, Date.now());',
      ].join('\n'),
    };
    expect(run(files, 'dates.js').stdout).toEqual([
      '1970-01-01T00:00:00.000Z 2026-02-03T04:05:06.000Z 1970-01-02T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z 2026-02-03T00:00:00.000Z 2026-02-03T04:00:00.000Z',
      '2026-02-03T04:05:00.000Z 2026-02-03T04:05:06.000Z 2026-02-03T04:05:06.007Z',
      '2026-02-03T04:05:06.007Z Invalid Invalid',
      '0 string true true 1772359200000',
    ]);
  });
});
