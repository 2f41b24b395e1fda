// The test projects (issue 31 §1): every test file runs in exactly one of `unit` (npm test) and `e2e` (npm run
// test:e2e), CI runs both, and the per-file duration table lists files slowest first.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { E2E_FILES } from '../vitest.config.js';
import { type FileDuration, renderFileDurations } from './support/file-durations-reporter.js';

const testFiles = readdirSync('tests')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/${name}`);

describe('test projects', () => {
  it('lists only e2e files that exist, each once, and leaves every other file to the unit project', () => {
    expect(new Set(E2E_FILES).size).toBe(E2E_FILES.length);
    for (const file of E2E_FILES) expect(testFiles).toContain(file);
    expect(testFiles.length - E2E_FILES.length).toBeGreaterThan(100);
  });

  it('npm test runs the unit project, npm run test:e2e the e2e one, and CI runs both', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts.test).toBe('vitest run --project unit');
    expect(scripts['test:e2e']).toBe('vitest run --project e2e');
    const ci = readFileSync('.ci/run', 'utf8').split('\n');
    expect(ci).toContain('npm test');
    expect(ci).toContain('npm run test:e2e');
  });

  it('prints the files slowest first with their project, seconds and any state but passed', () => {
    const rows: FileDuration[] = [
      { file: 'tests/slow.test.ts', project: 'e2e', ms: 81_600, state: 'passed' },
      { file: 'tests/fast.test.ts', project: 'unit', ms: 1_040, state: 'failed' },
    ];
    expect(renderFileDurations(rows).split('\n')).toEqual([
      'Per-file durations, slowest first (2 files, 82.6 s summed over workers):',
      '   81.6 s  e2e   tests/slow.test.ts',
      '    1.0 s  unit  tests/fast.test.ts  (failed)',
      '',
    ]);
  });
});
