// The host's reading of a test file's JSON report from the sandbox (src/sim-repo/test-report.ts): bounded, checked,
// never throwing, whatever the agent's code put in it.
import { describe, expect, it } from 'vitest';
import { runSandboxed } from '../src/sim-repo/code-host.js';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import {
  MAX_ERRORS_PER_FILE,
  MAX_EXPECTED_ACTUAL_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_NAME_CHARS,
  MAX_PATH_DEPTH,
  MAX_STACK_CHARS,
  MAX_TESTS_PER_FILE,
  capText,
  readTestReport,
} from '../src/sim-repo/test-report.js';

describe('readTestReport', () => {
  it('bounds every string, path and list of a report with huge fields, and fills missing error fields', () => {
    const huge = 'x\n'.repeat(5_000_000);
    const report = readTestReport(
      JSON.stringify({
        tests: [
          {
            path: ['d'.repeat(50_000), ...Array.from({ length: 500 }, (_, index) => `level ${index}`)],
            state: 'fail',
            error: { name: 'n'.repeat(5_000), message: huge, stack: huge, expected: huge, actual: huge },
          },
          { path: ['no error'], state: 'fail' },
          { path: ['missing fields'], state: 'fail', error: {} },
          { path: ['one side only'], state: 'fail', error: { expected: 'a' } },
          ...Array.from({ length: MAX_TESTS_PER_FILE + 5 }, () => ({ path: ['many'], state: 'pass' })),
        ],
        errors: Array.from({ length: MAX_ERRORS_PER_FILE + 3 }, () => ({ message: 'm'.repeat(MAX_MESSAGE_CHARS + 1), extra: 42 })),
      }),
    );
    if ('unreadable' in report) throw new Error(report.unreadable);
    expect(report.tests).toHaveLength(MAX_TESTS_PER_FILE);
    expect(report.errors).toHaveLength(MAX_ERRORS_PER_FILE);
    expect(report.cut).toEqual({ tests: 9, errors: 3 });
    const [first, noError, missing, oneSide] = report.tests;
    expect(first!.path).toHaveLength(MAX_PATH_DEPTH);
    expect(first!.path[0]).toBe(`${'d'.repeat(MAX_NAME_CHARS - 40)}\n… (${50_000 - (MAX_NAME_CHARS - 40)} characters cut)`);
    const error = first!.error!;
    expect(error).toEqual({
      name: capText('n'.repeat(5_000), MAX_NAME_CHARS),
      message: capText(huge, MAX_MESSAGE_CHARS),
      stack: capText(huge, MAX_STACK_CHARS),
      expected: capText(huge, MAX_EXPECTED_ACTUAL_CHARS),
      actual: capText(huge, MAX_EXPECTED_ACTUAL_CHARS),
    });
    expect([error.name.length, error.message.length, error.stack.length, error.expected!.length]).toEqual([
      MAX_NAME_CHARS - 40 + '\n… (4040 characters cut)'.length,
      MAX_MESSAGE_CHARS - 40 + `\n… (${huge.length - MAX_MESSAGE_CHARS + 40} characters cut)`.length,
      MAX_STACK_CHARS - 40 + `\n… (${huge.length - MAX_STACK_CHARS + 40} characters cut)`.length,
      MAX_EXPECTED_ACTUAL_CHARS - 40 + `\n… (${huge.length - MAX_EXPECTED_ACTUAL_CHARS + 40} characters cut)`.length,
    ]);
    expect(error.expected!.endsWith(`\n… (${huge.length - (MAX_EXPECTED_ACTUAL_CHARS - 40)} characters cut)`)).toBe(true);
    expect(noError).toEqual({ path: ['no error'], state: 'fail' });
    expect(missing).toEqual({ path: ['missing fields'], state: 'fail', error: { name: 'Error', message: '', stack: '' } });
    expect(oneSide!.error).toEqual({ name: 'Error', message: '', stack: '' });
    expect(report.errors[0]).toEqual({ name: 'Error', message: capText('m'.repeat(MAX_MESSAGE_CHARS + 1), MAX_MESSAGE_CHARS), stack: '' });
  });

  it.each([
    ['not JSON', '{"tests": ['],
    ['an array', '[]'],
    ['null', 'null'],
    ['no tests list', '{"errors": []}'],
    ['errors not a list', '{"tests": [], "errors": {}}'],
    ['a test that is not an object', '{"tests": [7], "errors": []}'],
    ['a path that is not a list', '{"tests": [{"path": "a", "state": "pass"}], "errors": []}'],
    ['a name that is a number', '{"tests": [{"path": ["a", 1], "state": "pass"}], "errors": []}'],
    ['an unknown state', '{"tests": [{"path": ["a"], "state": "passed"}], "errors": []}'],
    ['a missing state', '{"tests": [{"path": ["a"]}], "errors": []}'],
    ['an error that is a list', '{"tests": [{"path": ["a"], "state": "fail", "error": []}], "errors": []}'],
    ['a message that is an object', '{"tests": [], "errors": [{"message": {"toString": 1}}]}'],
    ['an expected that is null', '{"tests": [{"path": ["a"], "state": "fail", "error": {"expected": null, "actual": "b"}}], "errors": []}'],
  ])('says why a report is unreadable (%s), without throwing', (_, text) => {
    const report = readTestReport(text);
    expect('unreadable' in report && report.unreadable.length > 0).toBe(true);
  });

  it('cuts a text to at most its cap with a marker, and leaves a cut text as it is', () => {
    expect(capText('short', 10)).toBe('short');
    const cut = capText('y'.repeat(100_000), 1_000);
    expect(cut).toBe(`${'y'.repeat(960)}\n… (99040 characters cut)`);
    expect(capText(cut, 1_000)).toBe(cut);
  });
});

describe("the sandbox's report", () => {
  it('crosses to the host already bounded: a test that throws 10 MB expected/actual and a 1 MB message and stack gives a report of tens of kB', () => {
    const test = [
      "import { it } from 'vitest';",
      "it('throws big', () => { const big = 'a\\n'.repeat(5000000); throw { name: 'AssertionError', message: 'm'.repeat(1000000), showDiff: false, expected: big, actual: big + 'b', stack: 's'.repeat(1000000) }; });",
      "it('throws []', () => { throw []; });",
      '',
    ].join('\n');
    const tree = { base: { id: -4242, files: new Map([['big.test.js', test]]) }, overlay: {} };
    const run = runSandboxed({ entry: { path: 'big.test.js' }, vitest: true, runTests: JSON.stringify({ testNamePattern: null }), resolution: 'vite' }, tree);
    expect(run.status).toBe('ok');
    expect(run.value!.length).toBeLessThan(2 * (MAX_MESSAGE_CHARS + MAX_STACK_CHARS + 2 * MAX_EXPECTED_ACTUAL_CHARS));
    const report = readTestReport(run.value!);
    if ('unreadable' in report) throw new Error(report.unreadable);
    const big = 'a\n'.repeat(5_000_000);
    expect(report.tests).toEqual([
      {
        path: ['throws big'],
        state: 'fail',
        error: {
          name: 'AssertionError',
          message: capText('m'.repeat(1_000_000), MAX_MESSAGE_CHARS),
          stack: capText('s'.repeat(1_000_000), MAX_STACK_CHARS),
          expected: capText(big, MAX_EXPECTED_ACTUAL_CHARS),
          actual: capText(`${big}b`, MAX_EXPECTED_ACTUAL_CHARS),
        },
      },
      // @vitest/runner records no error for a thrown empty array (it reads it as a list of errors), as in vitest 4.1.12.
      { path: ['throws []'], state: 'fail' },
    ]);
  });
});

describe('a failed test with no error in the output', () => {
  it('is printed as vitest 4.1.12 prints it: a × line, counted in the heading, with no arrow line and no FAIL block', () => {
    const repo = SimRepo.fromSpec(
      RepoSpec.parse({
        files: {
          'package.json': '{ "name": "x", "type": "module", "scripts": { "test": "vitest run" } }\n',
          'a.test.js':
            "import { it } from 'vitest';\nit('throws empty array', () => { throw []; });\nit('throws aggregate empty', () => { throw new AggregateError([]); });\n",
        },
        scripts: { test: { kind: 'test' } },
        devDependencies: { vitest: '4.1.12' },
      }),
    );
    const run = repo.testResults();
    expect(run.tests.map((test) => [test.id, test.state, test.error])).toEqual([
      ['a.test.js > throws empty array', 'failed', undefined],
      ['a.test.js > throws aggregate empty', 'failed', undefined],
    ]);
    expect(run.exit_code).toBe(1);
    expect(run.output).toContain(
      [
        ' ❯ a.test.js (2 tests | 2 failed)',
        '   × a.test.js > throws empty array',
        '   × a.test.js > throws aggregate empty',
        '',
        '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
        '',
        '',
        ' Test Files  1 failed (1)',
      ].join('\n'),
    );
  });
});
