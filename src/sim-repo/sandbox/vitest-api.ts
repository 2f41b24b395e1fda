// Owns the `vitest` module seen inside the sandbox: describe/it/test, hooks and the runner entry `__vitest_run__`, on the
// real expect, chai, @vitest/spy and @vitest/utils (the bundle scripts/sandbox-vitest-libraries.ts builds).
//
// The source is an ES module evaluated by QuickJS, registered as the bare module `vitest`. A test file imports it and
// registers tests while it evaluates; the host then calls `__vitest_run__(JSON.stringify({ testNamePattern }))`, which
// collects describe blocks (lazily, as vitest does), runs the tests in declaration order and resolves with the JSON
// result `{ tests: [{ path, state, error? }], errors: [{ name, message, stack, expected?, actual?, path? }] }`.
//
// The runner follows @vitest/runner 4.1 and stays hand-written (docs/decisions/0043 gives the measurement); matchers,
// messages, diffs' expected/actual strings, mocks and .each titles come from the libraries themselves. Written without
// backticks and dollar-brace so it can live in String.raw literals; the runner is in vitest-runner.ts.
import { RUNNER_SOURCE } from './vitest-runner.js';

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
// As vitest's worker does: process.exit inside a test file throws instead of ending the run.
if (globalThis.process) globalThis.process.exit = function (code) {
  throw new Error('process.exit unexpectedly called with "' + (code === undefined ? (globalThis.process.exitCode || 0) : code) + '"');
};
const OWN_FILE = (/\((.*):\d+:\d+\)/.exec(new Error('own file').stack || '') || [])[1];
let currentTest = null;
const currentFacade = () => (currentTest ? currentTest.facade : null);

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
export const expect = guardExtend(libraries.createGlobalExpect(currentFacade));

// ---------------------------------------------------------------------------------------------------------------
// Errors: vitest's processError (expected/actual as pretty-format strings), reduced to the fields the host reads.
class SkipSignal {
  constructor(note) { this.note = note; }
}
/** The stack without the harness's frames (this module, the libraries' bundle, native calls). */
function cleanStack(stack) {
  if (typeof stack !== 'string') return '';
  // Native frames (the libraries' Proxy and Reflect calls) have no file: vitest's stack parser drops such frames too.
  return stack.split('\n').filter((line) => !line.endsWith('(native)') && !line.includes('([vitest-libraries]:') && !(OWN_FILE && line.includes('(' + OWN_FILE + ':'))).join('\n');
}
/** A thrown value as processError gives it; a non-object as vitest reports it ('Unknown Error'). */
function processThrown(error) {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return { name: 'Unknown Error', message: String(error), stack: '' };
  const message = typeof error.message === 'string' ? undefined : error.message === undefined ? libraries.inspect(error) : String(error.message);
  const processed = libraries.processError(error);
  if (message !== undefined) processed.message = message;
  // QuickJS quotes the name ("'x' is not defined"); V8, which vitest runs on, does not.
  if (processed.name === 'ReferenceError' && typeof processed.message === 'string') processed.message = processed.message.replace(/^'([^']+)' is not defined$/, '$1 is not defined');
  return processed;
}
function toReportError(processed) {
  const text = (value) => (typeof value === 'string' ? value : undefined);
  const result = { name: text(processed.name) || 'Unknown Error', message: text(processed.message) || '', stack: cleanStack(processed.stack) };
  if (text(processed.expected) !== undefined && text(processed.actual) !== undefined) {
    result.expected = processed.expected;
    result.actual = processed.actual;
  }
  return result;
}
const serializeError = (error) => toReportError(processThrown(error));

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

/** @vitest/runner's formatTemplateString (not exported): test.each with a tagged template, the header row naming the columns. */
function tableCases(strings, values) {
  const header = strings.join('').trim().replace(/ /g, '').split('\n').map((row) => row.split('|'))[0];
  const cases = [];
  for (let i = 0; i < Math.floor(values.length / header.length); i += 1) {
    const row = {};
    header.forEach((column, j) => { row[column] = values[i * header.length + j]; });
    cases.push(row);
  }
  return cases;
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
 * Runs the registered tests. optionsJson: { testNamePattern: regex source or null (vitest -t), filepath?: the test
 * file's path for vitest's "No test suite found in file" message }. Resolves with the JSON result described at the
 * top of this module; a describe callback that throws fails the file (tests: [], errors: [that error]).
 */
globalThis.__vitest_run__ = async function (optionsJson) {
  const options = parseOptions(optionsJson || '{}');
  try {
    await collect(file);
  } catch (error) {
    return stringifyReport({ tests: [], errors: [serializeError(error)] });
  }
  const pattern = options.testNamePattern ? new RegExp(options.testNamePattern) : null;
  interpretModes(file, false, someOnly(file), pattern);
  const filepath = options.filepath || '';
  if (!file.tasks.length) file.errors.push(serializeError(new Error('No test suite found in file ' + filepath)));
  else await runSuite(file, filepath);
  const tests = [], errors = [];
  report(file, [], tests, errors);
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
