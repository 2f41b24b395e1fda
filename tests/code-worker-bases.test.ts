// The code worker keeps each repository base once and receives only the overlay: runs see exactly their own tree,
// across more bases than the worker keeps, bases sent as differences (files removed and changed), and overlays.
import { afterAll, describe, expect, it } from 'vitest';
import { clearTestRunCaches, RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';

const TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { value } from '../src/value.js';",
  "import { extra } from '../src/extra.js';",
  "describe('tree', () => {",
  "  it('sees its own files', () => {",
  '    expect(value + extra).toBe(Number(process.env.EXPECTED));',
  '  });',
  '});',
  '',
].join('\n');

/** Variant `i`: value.js exports i; every fifth variant has no src/extra.js (a base that is its parent minus a file). */
function variant(i: number): RepoSpec {
  const files: Record<string, string> = {
    'tests/tree.test.js': TEST,
    'src/value.js': `export const value = ${i};\n`,
    'src/extra.js': 'export const extra = 1;\n',
  };
  for (let n = 0; n < 50; n++) files[`lib/filler-${n}.js`] = `export const filler${n} = ${n};\n`;
  if (i % 5 === 4) delete files['src/extra.js'];
  return RepoSpec.parse({ files, env: { EXPECTED: String(i + 1) }, scripts: { test: { kind: 'test', cmd: 'vitest run' } } });
}

function outcome(repo: SimRepo): string {
  const run = repo.testResults();
  if (run.fileErrors.length > 0) return `error: ${run.fileErrors[0]!.message.split('\n')[0]}`;
  return run.tests.map((test) => test.state).join(',');
}

afterAll(() => stopCodeWorker());

describe('bases on the code worker', () => {
  it('runs each of 40 bases (more than the worker keeps) against its own files, then again after they were dropped', () => {
    const specs = Array.from({ length: 40 }, (_, i) => variant(i));
    const expected = specs.map((_, i) =>
      i % 5 === 4 ? 'error: Error: Failed to load url ../src/extra.js (resolved id: ../src/extra.js) in tests/tree.test.js. Does the file exist?' : 'passed',
    );
    expect(specs.map((spec) => outcome(SimRepo.fromSpec(spec)))).toEqual(expected);
    clearTestRunCaches();
    // The first bases were dropped by the worker (it keeps 32): they are sent again, whole or as a difference.
    expect([0, 4, 1, 39, 9].map((i) => outcome(SimRepo.fromSpec(specs[i]!)))).toEqual([0, 4, 1, 39, 9].map((i) => expected[i]));
  });

  it('sends the overlay with every run: written and created files shadow the base, hidden files shadow both', () => {
    const spec = variant(4); // no src/extra.js in the base
    const repo = SimRepo.fromSpec(spec);
    repo.write('src/extra.js', 'export const extra = 1;\n');
    expect(outcome(repo)).toBe('passed');
    repo.write('src/value.js', 'export const value = 7;\n');
    expect(outcome(repo)).toBe('failed');
    const hidden = RepoSpec.parse({ ...spec, hidden_files: { 'src/value.js': 'export const value = 4;\n' } });
    const scored = SimRepo.fromSpec(hidden);
    scored.write('src/extra.js', 'export const extra = 1;\n');
    scored.write('src/value.js', 'export const value = 7;\n');
    expect(scored.testResults({ hidden: true }).tests.map((test) => test.state)).toEqual(['passed']);
  });
});
