// The tests_pass check (FAIL_TO_PASS / PASS_TO_PASS): named tests of the final state, hidden test files included.
import { ROUNDING_TEST } from './support/episode-fixtures.js';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../src/scoring/checks.js';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { Check } from '../src/suite/schema.js';

const PRICING_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { lineTax } from '../src/pricing.js';",
  '',
  "describe('lineTax', () => {",
  "  it('taxes whole euros at 7%', () => {",
  '    expect(lineTax(100)).toBe(7);',
  '  });',
  "  it.skip('taxes a cart', () => {});",
  '});',
  '',
].join('\n');

const VISIBLE = 'tests/pricing.test.js > lineTax > taxes whole euros at 7%';
const HIDDEN = 'tests/hidden/rounding.test.js > lineTax > rounds to the nearest cent';

function shop(): SimRepo {
  return SimRepo.fromSpec(
    RepoSpec.parse({
      files: { 'src/pricing.js': 'export const lineTax = (amount) => Math.floor(amount * 7) / 100;\n', 'tests/pricing.test.js': PRICING_TEST },
      hidden_files: { 'tests/hidden/rounding.test.js': ROUNDING_TEST },
      scripts: { test: { kind: 'test' } },
    }),
  );
}

const testsPass = (repo: SimRepo, tests: string[]) => runCheck(Check.parse({ check: 'tests_pass', tests }), { repo });

describe('tests_pass', () => {
  it('fails while a named hidden test fails, and passes once the code is fixed', () => {
    const repo = shop();
    expect(testsPass(repo, [VISIBLE, HIDDEN])).toEqual({
      check: { check: 'tests_pass', tests: [VISIBLE, HIDDEN] },
      pass: false,
      detail: `1 of 2 not passing: ${HIDDEN}: failed (AssertionError: expected 0.03 to be 0.04 // Object.is equality)`,
    });
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(testsPass(repo, [VISIBLE, HIDDEN])).toEqual({ check: { check: 'tests_pass', tests: [VISIBLE, HIDDEN] }, pass: true, detail: '2 tests passed' });
    expect(testsPass(repo, [HIDDEN]).detail).toBe('1 test passed');
  });

  it('does not count a skipped, renamed or missing test as passing', () => {
    const tests = ['tests/pricing.test.js > lineTax > taxes a cart', 'tests/pricing.test.js > lineTax > taxes a line', 'tests/gone.test.js > lineTax > rounds'];
    expect(testsPass(shop(), tests)).toEqual({
      check: { check: 'tests_pass', tests },
      pass: false,
      detail:
        '3 of 3 not passing: tests/pricing.test.js > lineTax > taxes a cart: skipped; ' +
        'tests/pricing.test.js > lineTax > taxes a line: no such test (renamed or deleted?); ' +
        'tests/gone.test.js > lineTax > rounds: file missing',
    });
  });

  it('names the error of a renamed export (undefined, as in vitest) and of a file that no longer loads', () => {
    const repo = shop();
    repo.edit('src/pricing.js', 'export const lineTax', 'export const tax');
    expect(testsPass(repo, [VISIBLE, HIDDEN]).detail).toBe(
      `2 of 2 not passing: ${VISIBLE}: failed (TypeError: not a function); ${HIDDEN}: failed (TypeError: not a function)`,
    );
    repo.write('tests/pricing.test.js', 'import { describe, it } from "vitest";\ndescribe("lineTax", () => {\n');
    expect(testsPass(repo, [VISIBLE]).detail).toMatch(
      new RegExp(`^1 of 1 not passing: ${VISIBLE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: file failed \\(SyntaxError: `),
    );
  });

  it('leaves the final state as it was: no clock, no change log, hidden files still invisible', () => {
    const repo = shop();
    testsPass(repo, [VISIBLE, HIDDEN]);
    expect([repo.clock.now_ms, repo.changes, repo.fileAt('tests/hidden/rounding.test.js')]).toEqual([0, [], undefined]);
  });

  it('refuses a test id without a file and a describe or test name', () => {
    const parsed = Check.safeParse({ check: 'tests_pass', tests: ['rounds to the nearest cent'] });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['tests', 0], 'a test id is "file > describe … > test", e.g. "tests/cart.test.js > cart > adds a line"'],
    ]);
  });
});
