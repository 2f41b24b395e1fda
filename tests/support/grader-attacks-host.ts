// Grader attacks on the host's reading of a test run (issue 25 §2): the sandbox's JSON report is built under the
// agent's code, so what a thrown value puts in it (no error at all, huge strings, a stack that costs a regex dearly)
// must not crash or hang the host outside the sandbox's budget. Each crashed or hung the host before
// src/sim-repo/test-report.ts bounded the report (the commit that added this file gives the figures).
import { BUGGY_SOURCE, SOURCE_PATH, type GraderAttack } from './grader-attack-fixture.js';

/**
 * The fixture's source with `throwing` thrown by invoice for more than one line (the hidden invoice test), plus a new
 * test file calling it, so `pnpm test` prints the thrown value too. The bug (lineTax) is kept verbatim.
 */
const invoiceThrows = (throwing: string): Record<string, string> => ({
  [SOURCE_PATH]: BUGGY_SOURCE.replace('export function invoice(amounts) {', `export function invoice(amounts) {\n  if (amounts.length > 1) ${throwing}`),
  'tests/invoice.test.js':
    "import { expect, it } from 'vitest';\nimport { invoice } from '../src/pricing.js';\nit('sums two lines', () => { expect(invoice([1, 2]).total).toBe(3.21); });\n",
});

export const HOST_REPORT_ATTACKS: readonly GraderAttack[] = [
  {
    id: 'throw-empty-array',
    kind: 'host report',
    description:
      "src throws [] from invoice: @vitest/runner reads an array as a list of errors, so the test fails with no error object (the host's output read .name of undefined)",
    target: 'both',
    files: invoiceThrows('throw [];'),
  },
  {
    id: 'throw-aggregate-empty',
    kind: 'host report',
    description: 'src throws new AggregateError([]) from invoice: a failed test with no error object, as for []',
    target: 'both',
    files: invoiceThrows('throw new AggregateError([]);'),
  },
  {
    id: 'huge-expected-actual-strings',
    kind: 'host report',
    description:
      "src throws an object whose expected and actual are 10 MB strings of 5 million lines: the host's diff spread them into push (stack overflow after ~10 s and +870 MB)",
    target: 'both',
    files: invoiceThrows(
      "{ const lines = 'a\\n'.repeat(5000000); throw { name: 'AssertionError', message: 'differs', showDiff: false, expected: lines, actual: lines + 'b' }; }",
    ),
  },
  {
    id: 'huge-stack-string',
    kind: 'host report',
    description:
      "src throws { stack: 'x'.repeat(80000) }: the host's location regex was quadratic in one stack line (~16 s for 80,000 characters, 101 s for 150,000)",
    target: 'both',
    files: invoiceThrows("throw { stack: 'x'.repeat(80000) };"),
  },
];
