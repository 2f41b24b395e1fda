// What repository code makes the HOST do is bounded too (a fresh adversarial review, issue 32): tried module paths,
// Intl options and console output cost the run's budgets, never the host's memory or stack, and a run that fits its
// memory keeps its own error.
import { describe, expect, it } from 'vitest';
import { renewSandboxWhenGrown, runInSandbox } from '../src/sim-repo/sandbox/index.js';
import { MEMORY_MAXIMUM_BYTES, quickJS } from '../src/sim-repo/sandbox/quickjs.js';

const run = (code: string, files: Record<string, string> = {}) =>
  runInSandbox({ files: (path) => files[path], entry: { code, filename: '[eval1]' }, resolution: 'vite' });
const readChars = (reads: ReadonlyArray<readonly [string, string | undefined]>) => reads.reduce((sum, [path]) => sum + path.length, 0);

describe('host work a run causes', () => {
  it('fails a specifier longer than PATH_MAX without trying paths, and still finds an ordinary one', () => {
    const long = run("await import('./' + 'a'.repeat(1e6)).catch((e) => console.log(e.message.slice(0, 40), /ENAMETOOLONG/.test(e.message)));");
    expect(long.status).toBe('ok');
    expect(long.stdout).toEqual([expect.stringMatching(/^Cannot find module '\.\/a+ true$/)]);
    expect(readChars(long.reads)).toBeLessThan(1_000);
    const found = run("const m = await import('./lib/x'); console.log(m.x);", { 'lib/x.js': 'export const x = 7;' });
    expect(found).toMatchObject({ status: 'ok', stdout: ['7'] });
  });

  it('ends a loop of imports of long missing names at the operation budget, holding a few MB of tried paths', () => {
    const result = run("for (let i = 0; ; i++) await import('./' + String(i).padStart(4000, 'x')).catch(() => {});");
    expect(result.status).toBe('timeout');
    expect(result.error?.message).toMatch(/million operations/);
    // Every tried path is kept in the run's reads (the cache's key): bounded by the budget's charge, ~4 Mi characters.
    expect(readChars(result.reads)).toBeLessThan(6 * 1024 * 1024);
  });

  it('charges Intl options by their length: a megabyte of options ends at the operation budget, the same way twice', () => {
    // Five such calls spend the budget; the loop ends before QuickJS's next interrupt check, and is stopped anyway.
    const code = "for (let i = 0; i < 40; i++) new Intl.NumberFormat('en', { pad: 'x'.repeat(1e6) + i }).format(i); console.log('done');";
    const first = run(code);
    expect(first.status).toBe('timeout');
    expect(first.error?.message).toMatch(/million operations/);
    expect(run(code)).toEqual(first);
  });

  it('prints 600,000 lines of one console.log without overflowing the host stack, cut at 200,000 characters', () => {
    const result = run("console.log(Array.from({ length: 600000 }, (_, i) => 'l' + i).join('\\n')); console.log('after');");
    expect(result.status).toBe('ok');
    expect(result.stdout.at(-1)).toBe('… output cut at 200000 characters');
    expect(result.stdout.slice(0, -1).join('\n').length).toBeLessThanOrEqual(200_000);
  });

  it('cuts one write longer than what is left of the 200,000 characters', () => {
    const result = run("console.error('x'.repeat(20e6));");
    expect(result.status).toBe('ok');
    expect(result.stderr.join('').length).toBeLessThan(200_100);
    expect(result.stderr.at(-1)).toBe('… output cut at 200000 characters');
  });

  it('keeps the error of a run that fits its memory after a refused growth, before and after a renewal', async () => {
    const code =
      "const held = []; for (let i = 0; i < 4; i++) held.push(new Uint8Array(10e6)); for (let i = 0; i < 120; i++) held.push('y'.repeat(100000) + i); console.log('printed', 120); throw new Error('ordinary failure');";
    const first = run(code);
    expect(first.status).toBe('error');
    expect(first.error?.message).toBe('ordinary failure');
    expect(first.stdout).toEqual(['printed 120']);
    await renewSandboxWhenGrown();
    expect(run(code)).toEqual(first);
    // After a run that used most of the memory and fit, the same: the memory starts at its cap, so no run's growth
    // depends on what earlier runs left.
    expect(run('const a = []; for (let i = 0; i < 5; i++) a.push(new Uint8Array(9e6)); console.log(a.length);')).toMatchObject({ status: 'ok', stdout: ['5'] });
    expect(run(code)).toEqual(first);
  });
});

describe('the memory at its cap from the start (a second fresh review)', () => {
  const memoryBytes = () => (quickJS as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.length;

  it('is within a step of the cap once the engines are ready, so no run grows it', () => {
    run('1');
    expect(memoryBytes()).toBeGreaterThan(MEMORY_MAXIMUM_BYTES - 1024 * 1024);
    expect(memoryBytes()).toBeLessThanOrEqual(MEMORY_MAXIMUM_BYTES);
  });

  it('books a near-cap run the same way fresh, after a heavy run that fit, and after a renewal', async () => {
    const code = "const a = new Uint8Array(52e6); a[1] = 1; console.log('allocated', a.length); throw null;";
    await renewSandboxWhenGrown();
    run('const a = []; for (;;) a.push({ x: a.length });');
    await renewSandboxWhenGrown();
    const fresh = run(code);
    run('const a = []; for (let i = 0; i < 5; i++) a.push(new Uint8Array(1e7)); console.log(a.length);');
    expect(run(code)).toEqual(fresh);
    run('const a = []; for (;;) a.push({ x: a.length });');
    expect(run(code)).toEqual(fresh);
    await renewSandboxWhenGrown();
    expect(run(code)).toEqual(fresh);
  });

  it('books a runaway after an await as out_of_memory, not as a promise that never settles', () => {
    const result = run('await null; const a = []; for (;;) a.push([a.length]);');
    expect(result.status).toBe('out_of_memory');
  });

  it('cuts a thrown 25 MB string in the error it returns', () => {
    const result = run("throw 'm'.repeat(25e6);");
    expect(result.status).toBe('error');
    expect(result.error!.message.length).toBeLessThan(200_100);
    expect(result.error!.message).toMatch(/… cut at 200000 characters$/);
  });
});
