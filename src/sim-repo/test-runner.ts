// Owns the fake test runner: selects declared tests, decides pass/fail/skip from repo state, prints vitest-style output.
import { evaluatePredicate } from './predicates.js';
import type { TestSpec } from './spec.js';
import { workingFile, type RepoState } from './state.js';

/** Which tests to run: `suites` from the script (all when absent), `args` as typed after the command. */
export interface TestSelection {
  suites?: readonly string[] | undefined;
  args: readonly string[];
}

type TestStatus = 'passed' | 'failed' | 'skipped';

const NAME_FLAGS = new Set(['-t', '--grep', '-g', '--testNamePattern']);
const VALUE_FLAGS = new Set(['--reporter', '--config', '-c', '--project', '--environment', '--pool', '--root', '-r', '--dir', '--shard', '--outputFile']);

/**
 * Runs the selected tests against the current state with `env`.
 *
 * Selection: the script's suites; then positional filters (any of them) and name filters given with
 * `-t X`, `--grep X`, `--testNamePattern X` (any of them), each matching a test whose name or file
 * contains X; `--exclude X` drops tests whose file contains X. Tests whose file is missing from the working tree are not collected. A test whose file
 * contains `.skip(` is skipped; otherwise it passes when its `passes_when` holds.
 * Exit 1 when any test fails, when nothing is selected ("No test files found") or when dependencies are
 * not installed; else 0.
 */
export function runTests(state: RepoState, env: Readonly<Record<string, string>>, selection: TestSelection): { exit_code: number; output: string } {
  if (!state.installed) {
    return {
      exit_code: 1,
      output:
        "Error: Cannot find module 'vitest'\nRequire stack:\n- /repo/node_modules/.bin/vitest\n" +
        ' WARN   Local package.json exists, but node_modules missing, did you mean to install?',
    };
  }
  const filters = parseFilters(selection.args);
  const selected = state.spec.tests.filter(
    (test) =>
      (selection.suites === undefined || selection.suites.includes(test.suite)) &&
      workingFile(state, test.file) !== undefined &&
      matchesAny(test, filters.positional) &&
      matchesAny(test, filters.names) &&
      !filters.excluded.some((excluded) => test.file.includes(excluded)),
  );
  if (selected.length === 0) {
    const shown = [...filters.positional, ...filters.names];
    return { exit_code: 1, output: `No test files found, exiting with code 1${shown.length > 0 ? `\n\nfilter: ${shown.join(' ')}` : ''}` };
  }
  const lines: string[] = [];
  const fileStatus = new Map<string, TestStatus[]>();
  const counts: Record<TestStatus, number> = { failed: 0, passed: 0, skipped: 0 };
  for (const test of selected) {
    const status = statusOf(state, env, test);
    counts[status]++;
    fileStatus.set(test.file, [...(fileStatus.get(test.file) ?? []), status]);
    if (status === 'passed') lines.push(` ✓ ${test.file} > ${test.name}`);
    if (status === 'skipped') lines.push(` ↓ ${test.file} > ${test.name} [skipped]`);
    if (status === 'failed') lines.push(` × ${test.file} > ${test.name}`, ...test.failure.split('\n').map((line) => `   → ${line}`));
  }
  const fileCounts: Record<TestStatus, number> = { failed: 0, passed: 0, skipped: 0 };
  for (const statuses of fileStatus.values()) {
    fileCounts[statuses.includes('failed') ? 'failed' : statuses.every((s) => s === 'skipped') ? 'skipped' : 'passed']++;
  }
  lines.push('', ` Test Files  ${summary(fileCounts, fileStatus.size)}`, `      Tests  ${summary(counts, selected.length)}`);
  return { exit_code: counts.failed > 0 ? 1 : 0, output: lines.join('\n') };
}

function statusOf(state: RepoState, env: Readonly<Record<string, string>>, test: TestSpec): TestStatus {
  if (workingFile(state, test.file)!.includes('.skip(')) return 'skipped';
  return evaluatePredicate(test.passes_when, state, env) ? 'passed' : 'failed';
}

/** `1 failed | 3 passed | 1 skipped (5)`, omitting zero counts. */
function summary(counts: Record<TestStatus, number>, total: number): string {
  const parts = (['failed', 'passed', 'skipped'] as const).filter((status) => counts[status] > 0).map((status) => `${counts[status]} ${status}`);
  return `${parts.join(' | ')} (${total})`;
}

function parseFilters(args: readonly string[]): { positional: string[]; names: string[]; excluded: string[] } {
  const positional: string[] = [];
  const names: string[] = [];
  const excluded: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const [flag, inline] = arg.startsWith('-') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (NAME_FLAGS.has(flag)) {
      const value = inline ?? args[++index];
      if (value !== undefined && value !== '') names.push(value);
    } else if (flag === '--exclude') {
      const value = inline ?? args[++index];
      if (value !== undefined && value !== '') excluded.push(stripRoot(value));
    } else if (VALUE_FLAGS.has(flag)) {
      if (inline === undefined) index++;
    } else if (!arg.startsWith('-')) {
      positional.push(stripRoot(arg));
    }
  }
  return { positional, names, excluded };
}

/** `./tests/x` and `/repo/tests/x` → `tests/x`. */
function stripRoot(path: string): string {
  return path.replace(/^(\/repo\/|\.\/)/, '');
}

function matchesAny(test: TestSpec, filters: readonly string[]): boolean {
  return filters.length === 0 || filters.some((filter) => test.name.includes(filter) || test.file.includes(filter));
}
