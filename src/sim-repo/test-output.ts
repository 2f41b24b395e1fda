// Owns how a test run reads: vitest 4's default reporter (file lines, failed tests with diffs and code frames, summary).
import type { FileResult, TestResult } from './test-results.js';

const RULE = '⎯'.repeat(24);

/**
 * Renders a run as vitest 4 prints it without a TTY (durations left out: the simulated clock accounts for time):
 * `✓`/`❯` per file with its counts, `×`/`↓` lines for failed and skipped tests (`file > describe > test`),
 * then "Failed Suites" and "Failed Tests" sections with each error, its Expected/Received diff and a code frame,
 * then the `Test Files` and `Tests` summary lines.
 */
export function renderTestRun(files: readonly FileResult[], lookup: (path: string) => string | undefined): string {
  const lines: string[] = ['', ' RUN  v4.1.12 /repo', ''];
  for (const file of files) {
    const counts = countStates(file.tests);
    const failed = file.error !== undefined || counts.failed > 0;
    const parts = [`${file.tests.length} test${file.tests.length === 1 ? '' : 's'}`];
    if (counts.failed > 0) parts.push(`${counts.failed} failed`);
    if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
    if (counts.todo > 0) parts.push(`${counts.todo} todo`);
    lines.push(
      ` ${failed ? '❯' : file.tests.length > 0 && counts.skipped + counts.todo === file.tests.length ? '↓' : '✓'} ${file.file} (${parts.join(' | ')})`,
    );
    for (const test of file.tests) {
      // A failed test with no error (one that threw [] or an empty AggregateError) has no arrow line, as in vitest.
      if (test.state === 'failed') {
        lines.push(`   × ${test.id}`);
        if (test.error !== undefined) lines.push(`     → ${firstLine(test.error)}`);
      } else if (test.state === 'skipped') lines.push(`   ↓ ${test.id} [skipped]`);
      else if (test.state === 'todo') lines.push(`   ↓ ${test.id} [todo]`);
      else if (failed) lines.push(`   ✓ ${test.id}`);
    }
  }
  const suiteErrors = files.filter((file) => file.error !== undefined);
  const failedTests = files.flatMap((file) => file.tests.filter((test) => test.state === 'failed'));
  // vitest 4.1.12 counts failed tests in the heading but prints (and numbers) only those with an error.
  const failedWithError = failedTests.filter((test) => test.error !== undefined);
  const total = suiteErrors.length + failedWithError.length;
  let index = 0;
  if (suiteErrors.length > 0) {
    lines.push('', `⎯⎯⎯⎯⎯⎯ Failed Suites ${suiteErrors.length} ⎯⎯⎯⎯⎯⎯⎯`, '');
    for (const file of suiteErrors) {
      lines.push(` FAIL  ${file.file} [ ${file.file} ]`);
      errorBlock(lines, file.error!, lookup);
      lines.push(`${RULE}[${++index}/${total}]⎯`, '');
    }
  }
  if (failedTests.length > 0) {
    lines.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failedTests.length} ⎯⎯⎯⎯⎯⎯⎯`, '');
    for (const test of failedWithError) {
      lines.push(` FAIL  ${test.id}`);
      errorBlock(lines, test.error!, lookup);
      lines.push(`${RULE}[${++index}/${total}]⎯`, '');
    }
  }
  const all = files.flatMap((file) => file.tests);
  const counts = countStates(all);
  const filesFailed = suiteErrors.length + files.filter((file) => file.error === undefined && file.tests.some((test) => test.state === 'failed')).length;
  const filesSkipped = files.filter(
    (file) => file.error === undefined && file.tests.length > 0 && file.tests.every((test) => test.state === 'skipped' || test.state === 'todo'),
  ).length;
  const filesPassed = files.length - filesFailed - filesSkipped;
  lines.push(
    '',
    ` Test Files  ${summary(
      [
        [filesFailed, 'failed'],
        [filesPassed, 'passed'],
        [filesSkipped, 'skipped'],
      ],
      files.length,
    )}`,
    `      Tests  ${summary(
      [
        [counts.failed, 'failed'],
        [counts.passed, 'passed'],
        [counts.skipped, 'skipped'],
        [counts.todo, 'todo'],
      ],
      all.length,
    )}`,
  );
  return lines.join('\n');
}

function countStates(tests: readonly TestResult[]): Record<TestResult['state'], number> {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const test of tests) counts[test.state]++;
  return counts;
}

/** `1 failed | 3 passed (4)`, zero counts left out. */
function summary(parts: Array<[number, string]>, total: number): string {
  const shown = parts.filter(([count]) => count > 0).map(([count, label]) => `${count} ${label}`);
  return `${shown.length > 0 ? shown.join(' | ') : 'no tests'} (${total})`;
}

function firstLine(error: TestResult['error']): string {
  if (error === undefined) return 'failed';
  return (error.name === '' ? error.message : `${error.name}: ${error.message}`).split('\n')[0]!.replace(/^AssertionError: /, '');
}

/**
 * Appends the error as vitest prints it to `lines`: `Name: message`, the Expected/Received diff, `❯ file:line:col` and
 * a code frame. Appends line by line (never `push(...many)`): the diff has a line per line of expected and actual.
 */
function errorBlock(lines: string[], error: NonNullable<TestResult['error']>, lookup: (path: string) => string | undefined): void {
  lines.push(error.name === '' ? error.message : `${error.name}: ${error.message}`);
  if (error.expected !== undefined && error.actual !== undefined) {
    lines.push('', '- Expected', '+ Received', '');
    pushPrefixed(lines, '- ', error.expected);
    pushPrefixed(lines, '+ ', error.actual);
  }
  if (error.location !== undefined) {
    lines.push('', ` ❯ ${error.location.file}:${error.location.line}:${error.location.column}`);
    for (const line of codeFrame(lookup(error.location.file), error.location.line, error.location.column)) lines.push(line);
  }
  lines.push('');
}

function pushPrefixed(lines: string[], prefix: string, text: string): void {
  for (const line of text.split('\n')) lines.push(`${prefix}${line}`);
}

/** Up to two lines before and one after `line`, numbered, with a caret under `column`. */
function codeFrame(source: string | undefined, line: number, column: number): string[] {
  if (source === undefined) return [];
  const all = source.split('\n');
  const frame: string[] = [];
  const width = String(Math.min(all.length, line + 1)).length;
  for (let number = Math.max(1, line - 2); number <= Math.min(all.length, line + 1); number++) {
    const text = all[number - 1]!;
    frame.push(`    ${String(number).padStart(width)}| ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`);
    if (number === line) frame.push(`    ${' '.repeat(width)}| ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return frame;
}
