// Owns the shapes of a test run's results: per test, per file and the whole run (read by the runner and the reporter).
import type { SandboxError } from './sandbox/index.js';

/** How one test ended, as vitest reports it. */
export type TestState = 'passed' | 'failed' | 'skipped' | 'todo';

/** One test's result. `id` is `file > describe … > test`, the FAIL_TO_PASS / PASS_TO_PASS identifier. */
export interface TestResult {
  id: string;
  file: string;
  /** Describe names and the test name. */
  path: readonly string[];
  state: TestState;
  error?: SandboxError & { expected?: string; actual?: string };
  /** Set for environment-dependent tests (decided by their declared predicate, not executed). */
  declared?: true;
}

/** One test file's results; `error` is a file-level failure (it did not load, or defines no test). */
export interface FileResult {
  file: string;
  tests: TestResult[];
  error?: SandboxError;
  /** Set when the file's run was tampered with (see TAMPERED_GRADER): what was refused or could not be read. */
  tampered?: string;
}

/** A finished test run: exit code and output as vitest prints them, plus the structured results. */
export interface TestRun {
  exit_code: number;
  output: string;
  files: FileResult[];
}
