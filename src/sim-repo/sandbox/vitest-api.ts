// Owns the `vitest` module seen inside the sandbox: describe/it/test, hooks and the runner entry `__vitest_run__`, on the
// real expect, chai, @vitest/spy and @vitest/utils (the bundle scripts/sandbox-vitest-libraries.ts builds).
//
// The source is an ES module evaluated by QuickJS, registered as the bare module `vitest` and loaded before the snapshot.
// The host calls `__vitest_run__(JSON.stringify({ file, testNamePattern }))`: @vitest/runner 4.1.12's startTests, with
// the VitestRunner below, imports the test file through the sandbox's module loader (as vitest's own runner imports
// it), collects describe blocks, applies .only and -t, runs tests and hooks with their timeouts on the sandbox's
// virtual timers, and the entry resolves with the JSON result
// `{ tests: [{ path, state, error? }], errors: [{ name, message, stack, expected?, actual?, path? }] }`.
// Matchers, messages, diffs' expected/actual strings, mocks and .each titles come from the libraries themselves
// (docs/decisions/0043). Written without backticks and dollar-brace so it can live in String.raw literals.

const API_SOURCE = String.raw`
// The host's tamper channel, taken before the realm is locked (the lockdown deletes the global).
const reportTamper = globalThis.__host_tamper;
// The lockdown hands this module its override capability for test code's vi.spyOn on locked intrinsics.
let intrinsicSlot;
globalThis.__stratbench_receive_override__ = (capability) => { intrinsicSlot = capability; };
// The libraries' bundle, evaluated just before this module; the global name goes.
const libraries = globalThis.__stratbench_vitest_libraries__;
delete globalThis.__stratbench_vitest_libraries__;
// The runner's own serialisation, captured before any test can spy on JSON.
const stringifyReport = JSON.stringify, parseOptions = JSON.parse;
// As vitest's worker does: process.exit inside a test file throws instead of ending the run. The process object is the
// one the snapshot has (every other global this module reads at call time is locked: docs/decisions/0043).
const realmProcess = globalThis.process;
if (realmProcess) realmProcess.exit = function (code) {
  throw new Error('process.exit unexpectedly called with "' + (code === undefined ? (realmProcess.exitCode || 0) : code) + '"');
};
const OWN_FILE = (/\((.*):\d+:\d+\)/.exec(new Error('own file').stack || '') || [])[1];
// @vitest/runner's current test: what @vitest/expect ties an assertion to (soft errors, unawaited assertions).
const currentTest = () => libraries.getCurrentTest() || null;

// ---------------------------------------------------------------------------------------------------------------
// expect: vitest's createExpect on the real libraries. expect.extend adds matchers for the file that calls it, as in
// vitest, but never replaces a built-in one (vitest allows it; a grader must not: docs/decisions/0024).
const extendedByTests = new Set();
function guardExtend(target) {
  const extend = target.extend;
  target.extend = function (matchers) {
    for (const name of Object.keys(matchers)) {
      if (libraries.isBuiltInMatcher(name, extendedByTests)) {
        reportTamper('expect.extend replaced the built-in matcher ' + name, new Error('tamper').stack);
        throw new TypeError('expect.extend cannot replace the built-in matcher ' + name + ' in the stratbench sandbox (its matchers grade the run)');
      }
    }
    for (const name of Object.keys(matchers)) extendedByTests.add(name);
    return extend(matchers);
  };
  return target;
}
export const expect = guardExtend(libraries.createGlobalExpect(currentTest));

// ---------------------------------------------------------------------------------------------------------------
// Errors: vitest's processError (expected/actual as pretty-format strings), reduced to the fields the host reads.
/** The stack without the harness's frames (this module, the libraries' bundle, native calls). */
function cleanStack(stack) {
  if (typeof stack !== 'string') return '';
  // Native frames (the libraries' Proxy and Reflect calls) have no file: vitest's stack parser drops such frames too.
  return stack.split('\n').filter((line) => !line.endsWith('(native)') && !line.includes('([vitest-libraries]:') && !(OWN_FILE && line.includes('(' + OWN_FILE + ':'))).join('\n');
}
/**
 * An error as @vitest/runner recorded it (already through processError), in vitest's wording: a thrown non-object has
 * no name ('Unknown Error' in toReportError), and QuickJS's quoted ReferenceError name ("'x' is not defined") is V8's.
 */
function processThrown(processed) {
  if (processed === null || typeof processed !== 'object') return { name: 'Unknown Error', message: String(processed), stack: '' };
  if (processed.message !== undefined && typeof processed.message !== 'string') processed.message = String(processed.message);
  if (processed.name === 'ReferenceError' && typeof processed.message === 'string') processed.message = processed.message.replace(/^'([^']+)' is not defined$/, '$1 is not defined');
  return processed;
}
/**
 * The host's caps (src/sim-repo/test-report.ts, MAX_*_CHARS: names 1,000, messages and stacks 10,000, expected and
 * actual 20,000 characters), applied here too so the JSON crossing to the host stays small; cut as the host cuts
 * (capText: the first max - 40 characters and a line saying how many were cut), so the host's cut changes nothing.
 */
function capText(value, max) {
  if (value.length <= max) return value;
  const keep = max - 40;
  return value.slice(0, keep) + '\n… (' + (value.length - keep) + ' characters cut)';
}
function toReportError(processed) {
  const text = (value, max) => (typeof value === 'string' ? capText(value, max) : undefined);
  const result = { name: text(processed.name, 1000) || 'Unknown Error', message: text(processed.message, 10000) || '', stack: capText(cleanStack(processed.stack), 10000) };
  if (typeof processed.expected === 'string' && typeof processed.actual === 'string') {
    result.expected = capText(processed.expected, 20000);
    result.actual = capText(processed.actual, 20000);
  }
  return result;
}
const reportError = (processed) => toReportError(processThrown(processed));

// ---------------------------------------------------------------------------------------------------------------
// vi: @vitest/spy's mocks and spies.
export const vi = Object.freeze({
  fn: libraries.fn,
  spyOn: (object, key, accessor) => libraries.spyOnWithSlot(object, key, accessor, intrinsicSlot),
  isMockFunction: libraries.isMockFunction,
  mocked: (value) => value,
  clearAllMocks() { libraries.clearAllMocks(); return vi; },
  resetAllMocks() { libraries.resetAllMocks(); return vi; },
  restoreAllMocks() { libraries.restoreAllMocks(); return vi; },
});

`;

const RUNNER_SOURCE = String.raw`
// ---------------------------------------------------------------------------------------------------------------
// Registration and running: @vitest/runner's own describe/test/hooks, collected and run by its startTests.
export const { test, it, describe, suite, beforeAll, afterAll, beforeEach, afterEach, onTestFinished, onTestFailed } = libraries;

/**
 * vitest's TestRunner (vitest 4.1.12, test.*.js) reduced to the sandbox: importFile loads the test file through the
 * sandbox's module loader (the host resolves '/repo/…'); expect's per-test state is reset before and checked after
 * each try; a test context gets a local expect. Config: vitest's defaults (5 s test timeout and 10 s hook timeout,
 * on the sandbox's virtual timers; hooks in 'stack' order; no retries; .only allowed).
 */
function createRunner(testNamePattern, loadFailure) {
  return {
    config: {
      root: '/repo',
      setupFiles: [],
      passWithNoTests: false,
      testNamePattern,
      allowOnly: true,
      sequence: { shuffle: false, concurrent: false, seed: 0, hooks: 'stack', setupFiles: 'list' },
      maxConcurrency: 5,
      testTimeout: 5000,
      hookTimeout: 10000,
      retry: 0,
      includeTaskLocation: false,
      diffOptions: undefined,
      tags: [],
      tagsFilter: undefined,
      strictTags: false,
    },
    importFile(filepath) {
      return import(filepath).then(
        () => undefined,
        (error) => {
          loadFailure.push(error);
          throw error;
        },
      );
    },
    onBeforeTryTask(test) {
      libraries.resetExpectState(expect, test.fullTestName);
    },
    onAfterTryTask(test) {
      const counted = libraries.assertionCountError(test.context._local ? test.context.expect : expect);
      if (counted) throw counted;
    },
    extendTaskContext(context) {
      let local;
      Object.defineProperty(context, 'expect', { get: () => local || (local = guardExtend(libraries.createExpect(currentTest, context.task))) });
      Object.defineProperty(context, '_local', { get: () => local != null });
      return context;
    },
  };
}

const REPORTED_STATES = new Set(['pass', 'fail', 'skip', 'todo']);
/** The task tree as the host reads it: each test's path, state and first error; suite and file errors with their path. */
function report(suiteTask, path, tests, errors) {
  for (const error of (suiteTask.result && suiteTask.result.errors) || []) {
    const entry = reportError(error);
    errors.push(path.length ? Object.assign({ path }, entry) : entry);
  }
  for (const task of suiteTask.tasks) {
    const taskPath = path.concat([task.name]);
    if (task.type === 'suite') {
      report(task, taskPath, tests, errors);
      continue;
    }
    // A finished test has its result's state; one that did not run, its mode (skip or todo), as vitest's reporters say.
    const finished = task.result && REPORTED_STATES.has(task.result.state);
    const entry = { path: taskPath, state: finished ? task.result.state : task.mode === 'todo' ? 'todo' : 'skip' };
    const taskErrors = (task.result && task.result.errors) || [];
    if (taskErrors.length) entry.error = reportError(taskErrors[0]);
    tests.push(entry);
  }
}
`;

const HARDENING_SOURCE = `
// ---------------------------------------------------------------------------------------------------------------
// Hardening (issue 25, docs/decisions/0024 and 0043): what repository code can reach of this module cannot change what
// it grades. chai's Assertion.prototype members, namespaces and the asymmetric matchers' classes are locked
// (libraries.lockMatchers); the libraries' global state sits on their private global; vi is frozen; and a module that
// is not a test file gets the source API below instead of this module (the module loader decides by the importer's path).
libraries.lockMatchers();
globalThis.__stratbench_guarded_objects__ = [[libraries.chai.Assertion.prototype, 'chai.Assertion.prototype']];
function refusedFromSource(name) {
  return function () {
    reportTamper(name + ' called from a module that is not a test file', new Error('tamper').stack);
    throw new TypeError('vitest.' + name + ' can only be called from a test file (a source module imported vitest; in the stratbench sandbox only test files register tests, hooks and matchers)');
  };
}
function chainRefused(name) {
  const refuse = refusedFromSource(name);
  return new Proxy(refuse, { get: (target, key) => (key === 'prototype' ? undefined : refusedFromSource(name + '.' + String(key))), apply: () => refuse() });
}
/** Source code's expect counts toward the test's expect.assertions, but its assertions are not tied to the test. */
function sourceExpect(value, message) {
  const assertion = expect(value, message);
  libraries.chai.util.flag(assertion, 'vitest-test', undefined);
  return assertion;
}
// Its asymmetric matchers do not count on the received side of an equality (only a test's own do).
Object.assign(sourceExpect, libraries.sourceAsymmetric.factories);
sourceExpect.not = Object.freeze(Object.assign({}, libraries.sourceAsymmetric.not));
sourceExpect.assert = expect.assert;
sourceExpect.unreachable = expect.unreachable;
sourceExpect.extend = refusedFromSource('expect.extend');
sourceExpect.addEqualityTesters = refusedFromSource('expect.addEqualityTesters');
sourceExpect.getState = () => Object.freeze(Object.assign({}, expect.getState()));
Object.freeze(sourceExpect);
/** What a non-test module sees as 'vitest': expect (without extend), vi, and registration functions that refuse. */
// Source may create mocks and spies, not clear, reset or restore the test's (a cleared spy passes not.toHaveBeenCalled).
const sourceVi = Object.freeze({
  fn: vi.fn,
  spyOn: (object, key, accessor) => libraries.spyOnWithSlot(object, key, accessor),
  isMockFunction: vi.isMockFunction,
  mocked: vi.mocked,
  clearAllMocks: refusedFromSource('vi.clearAllMocks'),
  resetAllMocks: refusedFromSource('vi.resetAllMocks'),
  restoreAllMocks: refusedFromSource('vi.restoreAllMocks'),
});
export const __stratbench_source_api = Object.freeze({
  expect: sourceExpect,
  vi: sourceVi,
  test: chainRefused('test'),
  it: chainRefused('it'),
  describe: chainRefused('describe'),
  suite: chainRefused('suite'),
  beforeAll: refusedFromSource('beforeAll'),
  afterAll: refusedFromSource('afterAll'),
  beforeEach: refusedFromSource('beforeEach'),
  afterEach: refusedFromSource('afterEach'),
  onTestFinished: refusedFromSource('onTestFinished'),
  onTestFailed: refusedFromSource('onTestFailed'),
});

/**
 * Runs the test file. optionsJson: { file: its repository path, testNamePattern: regex source or null (vitest -t) }.
 * Resolves with the JSON result described at the top of this module; rejects with the file's own error when it does
 * not load (a syntax error, a missing module or export, a top-level throw), which the host reports as the file's error.
 */
globalThis.__vitest_run__ = async function (optionsJson) {
  const options = parseOptions(optionsJson || '{}');
  const loadFailure = [];
  const runner = createRunner(options.testNamePattern ? new RegExp(options.testNamePattern) : undefined, loadFailure);
  const files = await libraries.startTests(['/repo/' + options.file], runner);
  if (loadFailure.length) throw loadFailure[0];
  const tests = [], errors = [];
  report(files[0], [], tests, errors);
  return stringifyReport({ tests, errors });
};
`;

/**
 * What a module that is not a test file gets when it imports `vitest` (the module loader routes it here by the
 * importer's path): expect without `extend`, `vi`, and test/hook registration that refuses and reports tampering.
 */
export const VITEST_SOURCE_MODULE_NAME = 'vitest [imported by a source module]';
export const VITEST_SOURCE_MODULE_SOURCE = `import { __stratbench_source_api as api } from 'vitest';
export const { expect, vi, test, it, describe, suite, beforeAll, afterAll, beforeEach, afterEach, onTestFinished, onTestFailed } = api;
`;

/** The `vitest` module's source (ES module); it needs the libraries' bundle (vitest-libraries.ts) evaluated first, as '[vitest-libraries]'. */
export const VITEST_MODULE_SOURCE: string = API_SOURCE + RUNNER_SOURCE + HARDENING_SOURCE;
