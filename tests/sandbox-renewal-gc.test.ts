// The sandbox's renewal collects the old QuickJS memory with `gc()` (issue 32, seventh round). A renewal must end with
// a working sandbox even when no `gc` can be had: a fresh review found two workers renewing at once could leave one
// without `gc` (V8's flags are the process's), and the renewal then threw with the old instance already dropped, so
// every later run of that worker failed.
import { afterAll, describe, expect, it, vi } from 'vitest';

// No `gc` from a new context, as when another thread unset `--expose-gc` between this one's set and its context.
vi.mock('node:vm', async (original) => ({ ...(await original<typeof import('node:vm')>()), runInNewContext: () => undefined }));

const { renewSandboxWhenGrown, runInSandbox } = await import('../src/sim-repo/sandbox/index.js');

const run = (code: string) => runInSandbox({ files: () => undefined, entry: { code, filename: '[eval1]' } });

afterAll(() => vi.unstubAllGlobals());

describe('a renewal when no gc can be had', () => {
  it('still renews, and the sandbox runs code after it', async () => {
    vi.stubGlobal('gc', undefined);
    expect(run('const a = []; for (;;) a.push({ x: a.length });').status).toBe('out_of_memory');
    expect(await renewSandboxWhenGrown()).toBe(true);
    expect(run('console.log(6 * 7);')).toMatchObject({ status: 'ok', stdout: ['42'] });
    // And again: the next renewal does not try (and fail) differently.
    run('const a = []; for (;;) a.push({ x: a.length });');
    expect(await renewSandboxWhenGrown()).toBe(true);
    expect(run('console.log(6 * 7);')).toMatchObject({ status: 'ok', stdout: ['42'] });
  });
});
