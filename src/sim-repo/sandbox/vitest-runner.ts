// Owns the sandbox vitest module's test runner: collection, .only/-t modes, hooks, running and the JSON report (@vitest/runner 4.1's semantics).
//
// A part of the `vitest` module's source (vitest-api.ts joins the parts); it uses that module's `libraries`, `expect`,
// `currentTest`, `serializeError`, `processThrown`, `toReportError`, `guardExtend`, `tableCases` and `SkipSignal`.
// Hand-written: docs/decisions/0043 gives the measurement behind keeping it. No backticks or dollar-brace (it lives in a template literal).

/** The runner part of the `vitest` module's source. */
export const RUNNER_SOURCE = `
// ---------------------------------------------------------------------------------------------------------------
// Collection and running (@vitest/runner): describe factories run after the file evaluated, .only/-t by
// interpretTaskModes, hooks in 'stack' order (after-hooks reversed), beforeAll failure skips the suite's tests.
const file = { type: 'suite', name: '', mode: 'run', tasks: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }, errors: [], options: {} };
let collecting = file;
function parseArguments(optionsOrFn, timeoutOrFn) {
  if (timeoutOrFn != null && typeof timeoutOrFn === 'object') throw new TypeError('Signature "test(name, fn, { ... })" was deprecated in Vitest 3 and removed in Vitest 4. Please, provide options as a second argument instead.');
  let options = {}, handler;
  if (typeof timeoutOrFn === 'number') options = { timeout: timeoutOrFn };
  else if (typeof optionsOrFn === 'object' && optionsOrFn !== null) options = optionsOrFn;
  if (typeof optionsOrFn === 'function') {
    if (typeof timeoutOrFn === 'function') throw new TypeError('Cannot use two functions as arguments. Please use the second argument for options.');
    handler = optionsOrFn;
  } else if (typeof timeoutOrFn === 'function') handler = timeoutOrFn;
  return { options, handler };
}
const formatName = (name) => (typeof name === 'string' ? name : typeof name === 'function' ? name.name || '<anonymous>' : String(name));
const modeOf = (flags) => (flags.only ? 'only' : flags.skip ? 'skip' : flags.todo ? 'todo' : 'run');
function registerTest(name, optionsOrFn, timeoutOrFn) {
  const parsed = parseArguments(optionsOrFn, timeoutOrFn);
  const flags = Object.assign({}, collecting.options, this, parsed.options);
  const mode = modeOf(flags);
  collecting.tasks.push({ type: 'test', name: formatName(name), mode: mode === 'run' && !parsed.handler ? 'todo' : mode, fn: parsed.handler, suite: collecting, fails: !!flags.fails });
}
function registerSuite(name, factoryOrOptions, optionsOrFactory) {
  if (currentTest) throw new Error('Calling the suite function inside test function is not allowed. It can be only called at the top level or inside another suite function.');
  const parsed = parseArguments(factoryOrOptions, optionsOrFactory);
  const options = Object.assign({}, collecting.options, parsed.options);
  const mode = modeOf(Object.assign({}, options, this));
  collecting.tasks.push({ type: 'suite', name: formatName(name), mode: mode === 'run' && !parsed.handler ? 'todo' : mode, factory: parsed.handler, suite: collecting, tasks: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }, errors: [], options });
}
function createChainable(keys, register, context = {}) {
  const chain = (...args) => register.apply(context, args);
  for (const key of keys) Object.defineProperty(chain, key, { get: () => createChainable(keys, register, Object.assign({}, context, { [key]: true })) });
  chain.each = (cases, ...values) => {
    if (Array.isArray(cases) && values.length) cases = tableCases(cases, values);
    return (name, optionsOrFn, fnOrOptions) => {
      const title = formatName(name), arraysOnly = cases.every(Array.isArray);
      const parsed = parseArguments(optionsOrFn, fnOrOptions);
      cases.forEach((item, index) => {
        const items = Array.isArray(item) ? item : [item];
        chain(libraries.formatTitle(title, items, index), parsed.options, parsed.handler && (arraysOnly ? () => parsed.handler(...items) : () => parsed.handler(item)));
      });
    };
  };
  chain.for = (cases, ...values) => {
    if (Array.isArray(cases) && values.length) cases = tableCases(cases, values);
    return (name, optionsOrFn, fnOrOptions) => {
      const parsed = parseArguments(optionsOrFn, fnOrOptions);
      cases.forEach((item, index) => chain(libraries.formatTitle(formatName(name), Array.isArray(item) ? item : [item], index), parsed.options, parsed.handler && ((context) => parsed.handler(item, context))));
    };
  };
  chain.skipIf = (condition) => (condition ? chain.skip : chain);
  chain.runIf = (condition) => (condition ? chain : chain.skip);
  return chain;
}

const TEST_KEYS = ['concurrent', 'sequential', 'skip', 'only', 'todo', 'fails'];
export const test = createChainable(TEST_KEYS, registerTest);
export const it = test;
export const describe = createChainable(['concurrent', 'sequential', 'shuffle', 'skip', 'only', 'todo'], registerSuite);
export const suite = describe;
const hook = (name) => (fn) => { collecting.hooks[name].push(fn); };
export const beforeAll = hook('beforeAll');
export const afterAll = hook('afterAll');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');
export function onTestFinished(fn) { if (currentTest) currentTest.facade.onFinished.push(fn); }
export function onTestFailed(fn) { if (currentTest) currentTest.onFailed.push(fn); }

async function collect(suiteTask) {
  if (suiteTask.factory) {
    const previous = collecting;
    collecting = suiteTask;
    try {
      await suiteTask.factory();
    } finally {
      collecting = previous;
    }
  }
  for (const task of suiteTask.tasks) if (task.type === 'suite') await collect(task);
}
const someOnly = (suiteTask) => suiteTask.tasks.some((task) => task.mode === 'only' || (task.type === 'suite' && someOnly(task)));
const fullName = (task) => (task.suite && task.suite !== file ? fullName(task.suite) + ' ' : '') + task.name;
function setAll(suiteTask, mode) {
  for (const task of suiteTask.tasks) {
    if (task.mode === 'run') {
      task.mode = mode;
      if (task.type === 'suite') setAll(task, mode);
    }
  }
}
function interpretModes(suiteTask, parentIsOnly, onlyMode, pattern) {
  const suiteIsOnly = parentIsOnly || suiteTask.mode === 'only';
  const hasSomeOnly = onlyMode && someOnly(suiteTask);
  for (const task of suiteTask.tasks) {
    const included = hasSomeOnly ? task.mode === 'only' || (task.type === 'suite' && someOnly(task)) : suiteIsOnly || task.mode === 'only';
    if (onlyMode) {
      if (task.type === 'suite' && (included || someOnly(task))) {
        if (task.mode === 'only') task.mode = 'run';
      } else if (task.mode === 'run' && !included) task.mode = 'skip';
      else if (task.mode === 'only') task.mode = 'run';
    }
    if (task.type === 'test') {
      if (pattern && !pattern.test(fullName(task))) task.mode = 'skip';
    } else if (task.mode === 'skip' || task.mode === 'todo') setAll(task, task.mode);
    else interpretModes(task, included, onlyMode, pattern);
  }
  if (suiteTask.mode === 'run' && suiteTask.tasks.length && suiteTask.tasks.every((task) => task.mode !== 'run')) suiteTask.mode = 'skip';
}
const hasTests = (suiteTask) => suiteTask.tasks.some((task) => task.type === 'test' || hasTests(task));
function markSkipped(suiteTask) {
  for (const task of suiteTask.tasks) {
    task.mode = 'skip';
    if (task.type === 'suite') markSkipped(task);
    else task.state = 'skip';
  }
}
async function runSuite(suiteTask, filepath) {
  if (suiteTask.mode !== 'run') return;
  const cleanups = [];
  try {
    try {
      for (const fn of suiteTask.hooks.beforeAll) cleanups.push(await fn(suiteTask));
    } catch (error) {
      suiteTask.errors.push(serializeError(error));
      markSkipped(suiteTask);
      return;
    }
    for (const task of suiteTask.tasks) {
      if (task.type === 'test') await runTest(task);
      else await runSuite(task);
    }
  } finally {
    try {
      for (const fn of suiteTask.hooks.afterAll.slice().reverse()) await fn(suiteTask);
      for (const cleanup of cleanups.reverse()) if (typeof cleanup === 'function') await cleanup();
    } catch (error) {
      suiteTask.errors.push(serializeError(error));
    }
  }
  if (!hasTests(suiteTask) && !suiteTask.errors.length) suiteTask.errors.push(serializeError(new Error('No test found in suite ' + (suiteTask === file ? filepath : suiteTask.name))));
}
const suiteChain = (suiteTask) => (suiteTask ? suiteChain(suiteTask.suite).concat([suiteTask]) : []);
function fail(test, error) {
  if (error instanceof SkipSignal) {
    test.skipped = true;
    return;
  }
  test.facade.result.state = 'fail';
  for (const each of Array.isArray(error) ? error : [error]) test.facade.result.errors.push(processThrown(each));
}
async function runTest(test) {
  if (test.mode !== 'run') return;
  // What @vitest/expect sees of the test (flag vitest-test): soft errors, unawaited assertions, onTestFinished handlers.
  test.facade = { type: 'test', name: test.name, fullTestName: fullName(test), promises: [], result: { state: 'run', errors: [] }, onFinished: [] };
  test.onFailed = [];
  libraries.resetExpectState(expect, fullName(test));
  currentTest = test;
  const chain = suiteChain(test.suite);
  let localExpect = null;
  const context = {
    task: { name: test.name, type: 'test' },
    get expect() {
      return localExpect || (localExpect = guardExtend(libraries.createExpect(currentFacade, test.facade)));
    },
    skip(condition, note) {
      if (condition === false) return;
      throw new SkipSignal(typeof condition === 'string' ? condition : note);
    },
    onTestFinished,
    onTestFailed,
  };
  const cleanups = [];
  try {
    for (const suiteTask of chain) for (const fn of suiteTask.hooks.beforeEach) cleanups.push(await fn(context, test.suite));
    await test.fn(context);
    // @vitest/runner's withAwaitAsyncAssertions: assertions the test did not await still decide it.
    if (test.facade.promises.length) {
      const settled = await Promise.allSettled(test.facade.promises);
      const rejected = settled.map((result) => (result.status === 'rejected' ? result.reason : undefined)).filter(Boolean);
      if (rejected.length) throw rejected;
    }
    // vitest's TestRunner.onAfterTryTask: expect.assertions / hasAssertions, on the context's expect if the test used it.
    const counted = libraries.assertionCountError(localExpect || expect);
    if (counted) throw counted;
  } catch (error) {
    fail(test, error);
  }
  try {
    for (const suiteTask of chain.slice().reverse()) for (const fn of suiteTask.hooks.afterEach.slice().reverse()) await fn(context, test.suite);
    for (const cleanup of cleanups.reverse()) if (typeof cleanup === 'function') await cleanup();
  } catch (error) {
    fail(test, error);
  }
  const finishers = test.facade.onFinished.slice().reverse().concat(test.facade.result.state === 'fail' ? test.onFailed : []);
  for (const fn of finishers) {
    try {
      await fn(context);
    } catch (error) {
      fail(test, error);
    }
  }
  currentTest = null;
  const failed = test.facade.result.state === 'fail';
  test.errors = test.facade.result.errors.map(toReportError);
  if (test.skipped) test.state = 'skip';
  else if (test.fails) {
    test.errors = failed ? [] : [serializeError(new Error('Expect test to fail'))];
    test.state = failed ? 'pass' : 'fail';
  } else test.state = failed ? 'fail' : 'pass';
}
function report(suiteTask, path, tests, errors) {
  for (const error of suiteTask.errors) errors.push(suiteTask === file ? error : Object.assign({ path }, error));
  for (const task of suiteTask.tasks) {
    const taskPath = path.concat([task.name]);
    if (task.type === 'suite') {
      report(task, taskPath, tests, errors);
      continue;
    }
    const entry = { path: taskPath, state: task.state && task.state !== 'run' ? task.state : task.mode };
    if (task.errors && task.errors.length) entry.error = task.errors[0];
    tests.push(entry);
  }
}

`;
