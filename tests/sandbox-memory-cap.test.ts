// The sandbox's memory limit holds in bytes (issue 32): QuickJS counts 8 bytes per allocation under emscripten, so
// before the WebAssembly memory was capped a runaway loop grew the host's memory to 340 MB and large strings were
// not counted at all. Each case here passed the limit or ended as another error before the cap.
import { afterAll, describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';
import { renewSandboxWhenGrown, runInSandbox, sandboxRenewals } from '../src/sim-repo/sandbox/index.js';
import { MEMORY_MAXIMUM_BYTES, quickJS } from '../src/sim-repo/sandbox/quickjs.js';

afterAll(() => stopCodeWorker());

const memoryBytes = () => (quickJS as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.length;
const run = (code: string) => runInSandbox({ files: () => undefined, entry: { code, filename: '[eval1]' } });

describe('the sandbox memory cap', () => {
  it.each([
    ['many small objects', 'const a = []; for (;;) a.push({ x: a.length });'],
    [
      '200 MB of 100 KB strings, each counted as 8 bytes by QuickJS',
      "const a = []; for (let i = 0; i < 2000; i++) a.push('y'.repeat(100000) + i); console.log(a.length);",
    ],
    ['a string grown by concatenation (QuickJS cannot allocate its error: it throws null)', "let s = ''; for (;;) s += 'abc'.repeat(1000);"],
    ['a million small arrays', 'const a = []; for (let i = 0; i < 1e6; i++) a.push([i]); console.log(a.length);'],
  ])('ends %s as out_of_memory, within the cap', (_, code) => {
    const result = run(code);
    expect(result.status).toBe('out_of_memory');
    expect(result.error?.message).toBe('run stopped: out of memory (limit 64 MiB)');
    expect(result.stdout).toEqual([]);
    expect(memoryBytes()).toBeLessThanOrEqual(MEMORY_MAXIMUM_BYTES);
  });

  it('keeps a run that fits, and other errors as they were', () => {
    expect(run("const a = []; for (let i = 0; i < 200; i++) a.push('y'.repeat(10000)); console.log(a.length);")).toMatchObject({
      status: 'ok',
      stdout: ['200'],
    });
    expect(run('function f() { return f() + 1; } f();')).toMatchObject({ status: 'error', error: { message: expect.stringContaining('stack overflow') } });
    expect(run('throw null;')).toMatchObject({ status: 'error', error: { message: 'Uncaught null' } });
  });

  it('after a run that grew the memory, renews it: the pages are given back and later runs give the same results', async () => {
    const code =
      "const parts = []; for (let i = 0; i < 50; i++) parts.push(String(i * i)); console.log(parts.join(','), new Date().toISOString(), Math.random());";
    const before = run(code);
    run('const a = []; for (;;) a.push({ x: a.length });');
    expect(memoryBytes()).toBeGreaterThan(40 * 1024 * 1024);
    const renewals = sandboxRenewals.count;
    expect(await renewSandboxWhenGrown()).toBe(true);
    expect(sandboxRenewals.count).toBe(renewals + 1);
    expect(memoryBytes()).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(run(code)).toEqual(before);
    // Nothing grew: nothing to renew.
    expect(await renewSandboxWhenGrown()).toBe(false);
  });

  it('has the old memory collected by the time the renewal resolves, so the two are never resident together', async () => {
    run('const a = []; for (;;) a.push({ x: a.length });');
    const old = new WeakRef((quickJS as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.buffer);
    // A later job than the WeakRef's (a target is kept alive through the job that made the reference).
    await new Promise((resolve) => setImmediate(resolve));
    expect(await renewSandboxWhenGrown()).toBe(true);
    // Without the collection in renewQuickJS, V8 kept it (~40 MB resident here) until its next full collection.
    // (A boolean: a failure must not print a 64 MiB buffer.)
    expect(old.deref() === undefined, 'the old memory is still alive after the renewal').toBe(true);
    expect(run('console.log(6 * 7);')).toMatchObject({ status: 'ok', stdout: ['42'] });
  });
});

describe('a test that runs out of memory', () => {
  it('fails with the out-of-memory message (it was "Unknown Error: null"), and the file\'s other tests still run', () => {
    const spec = RepoSpec.parse({
      files: {
        'tests/oom.test.js': [
          "import { expect, it } from 'vitest';",
          "it('allocates without end', () => { const a = []; for (;;) a.push({ x: a.length }); });",
          "it('still runs', () => { expect(1 + 1).toBe(2); });",
          '',
        ].join('\n'),
        // A file whose run hit no cap keeps vitest's wording for a thrown null.
        'tests/plain.test.js': "import { it } from 'vitest';\nit('throws null itself', () => { throw null; });\n",
        // Out of memory in a hook fails the file with the out-of-memory message too.
        'tests/hook.test.js':
          "import { beforeAll, it } from 'vitest';\nbeforeAll(() => { const a = []; for (;;) a.push({ x: a.length }); });\nit('never runs', () => {});\n",
      },
      scripts: { test: { kind: 'test', cmd: 'vitest run' } },
    });
    const run = SimRepo.fromSpec(spec).testResults();
    expect(run.fileErrors.find((error) => error.file === 'tests/hook.test.js')?.message).toBe('RangeError: run stopped: out of memory (limit 64 MiB)');
    const tests = run.tests.filter((test) => test.file !== 'tests/hook.test.js');
    expect(tests.map((test) => [test.path.join(' '), test.state, test.error?.message])).toEqual([
      ['allocates without end', 'failed', 'run stopped: out of memory (limit 64 MiB)'],
      ['still runs', 'passed', undefined],
      ['throws null itself', 'failed', 'null'],
    ]);
  });
});
