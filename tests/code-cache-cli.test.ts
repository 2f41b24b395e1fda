// The code cache through the built CLI (decision 0049): a second `run` of a suite serves its code runs from the disk
// and writes the same episodes; --no-code-cache neither reads nor writes it; validate fills it; cache clear empties it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, stratbench } from './support/cli.js';

interface Timing {
  sandbox_test_files: { executed: number; cached: number };
  code_cache: { dir: string | null; served: number; stored: number; skipped: number };
}
const timing = (dir: string) => (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { timing: Timing }).timing;

describe('run with the code cache (the built CLI)', () => {
  const folder = scratch('code-cache-cli-');
  const validation = join(folder, 'validation');
  const run = (name: string, ...flags: string[]) => {
    const out = join(folder, name);
    const result = stratbench(['run', '--strategies', 'direct,react', '--out', out, '--no-progress', '--validation-cache-dir', validation, ...flags]);
    expect(result.status, result.stderr).toBe(0);
    return out;
  };

  it('serves a second run every code run of the first, with the same episodes', () => {
    const codeCache = join(folder, 'code-a');
    const first = run('first', '--code-cache-dir', codeCache);
    expect(timing(first).sandbox_test_files.executed).toBeGreaterThan(0);
    expect(timing(first).code_cache).toMatchObject({ dir: codeCache, served: 0, skipped: 0 });
    expect(timing(first).code_cache.stored).toBeGreaterThan(0);
    const second = run('second', '--code-cache-dir', codeCache);
    expect(timing(second).sandbox_test_files.executed).toBe(0);
    expect(timing(second).code_cache).toMatchObject({ dir: codeCache, stored: 0 });
    expect(timing(second).code_cache.served).toBe(timing(first).code_cache.stored);
    expect(episodes(second)).toEqual(episodes(first));
    expect(episodes(first).length).toBe(28);
  });

  it('--no-code-cache runs every code run and leaves the folder alone', () => {
    const codeCache = join(folder, 'code-b');
    const out = run('off', '--code-cache-dir', codeCache, '--no-code-cache');
    expect(timing(out).code_cache).toEqual({ dir: null, served: 0, stored: 0, skipped: 0 });
    expect(timing(out).sandbox_test_files.executed).toBeGreaterThan(0);
    expect(existsSync(codeCache)).toBe(false);
  });

  it('validate fills it for the next run, and cache clear empties it', () => {
    const codeCache = join(folder, 'code-c');
    const validated = stratbench(['validate', 'tasks/core.yaml', '--validation-cache-dir', join(folder, 'validation-c'), '--code-cache-dir', codeCache]);
    expect(validated.status, validated.stderr).toBe(0);
    expect(readdirSync(codeCache)).toEqual([expect.stringMatching(/^harness-[0-9a-f]{64}$/)]);
    const out = run('after-validate', '--code-cache-dir', codeCache);
    expect(timing(out).code_cache.served).toBeGreaterThan(0);
    const responses = join(folder, 'responses');
    const cleared = stratbench(['cache', 'clear', '--cache-dir', responses, '--code-cache-dir', codeCache]);
    expect(cleared.status).toBe(0);
    expect(cleared.stdout).toBe(`removed 0 cached replies from ${responses}\nremoved the code runs of 1 harness from ${codeCache}\n`);
    expect(readdirSync(codeCache)).toEqual([]);
  });
});
