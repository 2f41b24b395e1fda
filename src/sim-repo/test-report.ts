// Owns the host's reading of a test file's JSON report from the sandbox (sandbox/vitest-api.ts builds it): the one
// place it is parsed, checked field by field and bounded, since the agent's code runs where it is built.

/**
 * Longest stack kept, in characters. A stack is read for its first location and printed by no reporter here, so
 * 10,000 characters (~100 frames) is plenty; an unbounded one cost the host quadratic regex time (a 150,000-character
 * line took 101 s: tests/support/grader-attacks-host.ts, huge-stack-string).
 */
export const MAX_STACK_CHARS = 10_000;
/**
 * Longest `expected` or `actual` kept, in characters: vitest's diff of two 20,000-character values is already longer
 * than any reader follows; 10 MB values ran the host out of stack and +870 MB (huge-expected-actual-strings).
 */
export const MAX_EXPECTED_ACTUAL_CHARS = 20_000;
/** Longest error message kept, in characters (vitest prints messages whole; 10,000 is past any matcher's message). */
export const MAX_MESSAGE_CHARS = 10_000;
/** Longest error name, describe name or test name kept, in characters (names are one line in vitest's output). */
export const MAX_NAME_CHARS = 1_000;
/** Most nesting levels (describe blocks and the test) of one test's path kept. */
export const MAX_PATH_DEPTH = 100;
/**
 * Most tests read from one file: past it the file is booked failed (a file error says so), so a cut list can never
 * hide a failing test behind a passing exit code.
 */
export const MAX_TESTS_PER_FILE = 20_000;
/** Most suite errors read from one file (the host prints the first; the rest only count). */
export const MAX_ERRORS_PER_FILE = 100;

/** A test's or a suite's error as the host keeps it: every field a bounded string. */
export interface ReportError {
  name: string;
  message: string;
  stack: string;
  expected?: string;
  actual?: string;
}

/** One test: its describe path and name, its state as @vitest/runner ends it, and its first error if any. */
export interface ReportTest {
  path: string[];
  state: 'pass' | 'fail' | 'skip' | 'todo';
  error?: ReportError;
}

/**
 * A file's report, bounded. `cut` counts tests and errors past MAX_TESTS_PER_FILE / MAX_ERRORS_PER_FILE (dropped).
 * A failed test may have no error: @vitest/runner records none when a test throws an empty array or an empty
 * AggregateError (it reads them as lists of errors), and vitest 4.1.12 then prints the test as failed with no error.
 */
export interface TestReport {
  tests: ReportTest[];
  errors: ReportError[];
  cut: { tests: number; errors: number };
}

const STATES = new Set<unknown>(['pass', 'fail', 'skip', 'todo']);
/** Room left for the cut marker, so a cut text is at most its cap long (cutting it again changes nothing). */
const MARKER_ROOM = 40;

/**
 * `text` when it has at most `max` characters; else its first `max - 40` characters and a line
 * `… (N characters cut)`, so the result has at most `max` characters. The sandbox's conversion cuts the same way.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - MARKER_ROOM);
  return `${text.slice(0, keep)}\n… (${text.length - keep} characters cut)`;
}

/** A string field bounded to `max`; undefined for a missing field; anything else is the report's shape broken. */
function readText(value: unknown, max: number, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new MalformedReport(`${what} is ${value === null ? 'null' : typeof value}, not a string`);
  return capText(value, max);
}

class MalformedReport extends Error {}

/** An error object of the report, its fields bounded (name, message and stack default as the runner's do). */
function readError(value: unknown, what: string): ReportError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedReport(`${what} is not an object`);
  const fields = value as Record<string, unknown>;
  const error: ReportError = {
    name: readText(fields.name, MAX_NAME_CHARS, `${what}.name`) ?? 'Error',
    message: readText(fields.message, MAX_MESSAGE_CHARS, `${what}.message`) ?? '',
    stack: readText(fields.stack, MAX_STACK_CHARS, `${what}.stack`) ?? '',
  };
  const expected = readText(fields.expected, MAX_EXPECTED_ACTUAL_CHARS, `${what}.expected`);
  const actual = readText(fields.actual, MAX_EXPECTED_ACTUAL_CHARS, `${what}.actual`);
  // Both or neither, as the runner reports them (a diff needs both sides).
  if (expected !== undefined && actual !== undefined) {
    error.expected = expected;
    error.actual = actual;
  }
  return error;
}

/** A describe path: an array of names, each bounded; at most MAX_PATH_DEPTH levels. */
function readPath(value: unknown, what: string): string[] {
  if (!Array.isArray(value)) throw new MalformedReport(`${what}.path is not an array`);
  const path: string[] = [];
  for (let index = 0; index < value.length && index < MAX_PATH_DEPTH; index++) {
    path.push(readText(value[index], MAX_NAME_CHARS, `${what}.path[${index}]`) ?? '');
  }
  return path;
}

function readTest(value: unknown, what: string): ReportTest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedReport(`${what} is not an object`);
  const fields = value as Record<string, unknown>;
  if (!STATES.has(fields.state)) throw new MalformedReport(`${what}.state is not pass, fail, skip or todo`);
  const test: ReportTest = { path: readPath(fields.path, what), state: fields.state as ReportTest['state'] };
  if (fields.error !== undefined) test.error = readError(fields.error, `${what}.error`);
  return test;
}

/**
 * Parses and bounds a test file's JSON report (`{ tests: [{ path, state, error? }], errors: [...] }`): every string cut
 * to its cap (MAX_*_CHARS, with a visible marker), paths to MAX_PATH_DEPTH, tests and errors to their per-file caps
 * (counted in `cut`). Costs time linear in the text's length. Returns `{ unreadable }` saying what is wrong when the
 * text is not JSON or not the runner's shape (a field of the wrong type, an unknown state): the runner never builds
 * such a report, so the agent's code did (the caller books the file as tampered). Never throws.
 */
export function readTestReport(text: string): TestReport | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { unreadable: 'not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { unreadable: 'not an object' };
  const { tests, errors } = parsed as { tests?: unknown; errors?: unknown };
  if (!Array.isArray(tests) || !Array.isArray(errors)) return { unreadable: 'tests or errors is not an array' };
  try {
    const report: TestReport = { tests: [], errors: [], cut: { tests: 0, errors: 0 } };
    for (let index = 0; index < tests.length && index < MAX_TESTS_PER_FILE; index++) report.tests.push(readTest(tests[index], `tests[${index}]`));
    for (let index = 0; index < errors.length && index < MAX_ERRORS_PER_FILE; index++) report.errors.push(readError(errors[index], `errors[${index}]`));
    report.cut = { tests: Math.max(0, tests.length - MAX_TESTS_PER_FILE), errors: Math.max(0, errors.length - MAX_ERRORS_PER_FILE) };
    return report;
  } catch (error) {
    if (error instanceof MalformedReport) return { unreadable: error.message };
    throw error;
  }
}
