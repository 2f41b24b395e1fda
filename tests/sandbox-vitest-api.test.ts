// The in-sandbox vitest API (src/sim-repo/sandbox/vitest-api.ts) run inside QuickJS: verdicts and messages as vitest 4.1 gives them.
//
// Every expected object below was checked against real vitest 4.1.12 running the same source (a comparison script
// outside the repository); stacks are left out of the comparisons except in the stack test.
import { newQuickJSWASMModule, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { VITEST_MODULE_SOURCE } from '../src/sim-repo/sandbox/vitest-api.js';
import { vitestLibrariesSource } from '../src/sim-repo/sandbox/vitest-libraries.js';

interface ShimError {
  name: string;
  message: string;
  expected?: string;
  actual?: string;
  stack?: string;
  path?: string[];
}
interface ShimResult {
  tests: Array<{ path: string[]; state: 'pass' | 'fail' | 'skip' | 'todo'; error?: ShimError }>;
  errors: ShimError[];
}
interface RunOptions {
  testNamePattern?: string;
  /** The test file's path as the host passes it (used in vitest's "No test suite found in file" message). */
  filepath?: string;
  /** Other modules the test file imports, by specifier. */
  modules?: Record<string, string>;
}

const quickJS = await newQuickJSWASMModule();

/** Runs jobs until the promise (or plain value) settles; returns the value handle, throws what it rejects with. */
function settle(context: QuickJSContext, runtime: QuickJSRuntime, handle: QuickJSHandle): QuickJSHandle {
  for (;;) {
    const state = context.getPromiseState(handle);
    if (state.type === 'fulfilled') {
      if (!state.notAPromise) handle.dispose();
      return state.value;
    }
    if (state.type === 'rejected') {
      const reason = context.dump(state.error);
      state.error.dispose();
      handle.dispose();
      throw new Error(`rejected: ${JSON.stringify(reason)}`);
    }
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      const reason = context.dump(jobs.error);
      jobs.error.dispose();
      handle.dispose();
      throw new Error(`job failed: ${JSON.stringify(reason)}`);
    }
    if (jobs.value === 0 && !runNextTimer(context)) {
      handle.dispose();
      throw new Error('the promise never settles');
    }
  }
}

/**
 * Virtual timers (as the sandbox's prelude has them, without its host bridges): @vitest/runner's timeouts and its
 * throttled task updates use setTimeout; a timer runs only when no job is left, at its due virtual time.
 */
const TIMERS_SOURCE = `(() => {
  const timers = [];
  let now = 0, sequence = 0;
  globalThis.setTimeout = (fn, ms, ...args) => { sequence += 1; timers.push({ id: sequence, due: now + (ms || 0), fn, args }); return sequence; };
  globalThis.clearTimeout = (id) => { const index = timers.findIndex((timer) => timer.id === id); if (index >= 0) timers.splice(index, 1); };
  globalThis.__next_timer = () => {
    if (!timers.length) return false;
    timers.sort((a, b) => a.due - b.due || a.id - b.id);
    const timer = timers.shift();
    now = timer.due;
    timer.fn(...timer.args);
    return true;
  };
})();`;

/** Runs the next virtual timer; false when none is left. */
function runNextTimer(context: QuickJSContext): boolean {
  const ran = context.evalCode('__next_timer()', '[timers]');
  if (ran.error) {
    const reason = context.dump(ran.error);
    ran.error.dispose();
    throw new Error(`timer failed: ${JSON.stringify(reason)}`);
  }
  const value = context.dump(ran.value) === true;
  ran.value.dispose();
  return value;
}

/** Evaluates `source` as tests/x.test.js with `vitest` mapped to the shim, then resolves `__vitest_run__`. */
function runWithStacks(source: string, options: RunOptions = {}): ShimResult {
  const file = (options.filepath ?? '/repo/tests/x.test.js').replace(/^\/repo\//, '');
  const modules: Record<string, string> = { vitest: VITEST_MODULE_SOURCE, [file]: source, ...options.modules };
  const runtime = quickJS.newRuntime();
  runtime.setModuleLoader(
    (name) => modules[name] ?? { error: new Error(`Cannot find module '${name}'`) },
    (_base, requested) => requested.replace(/^\/repo\//, ''),
  );
  const context = runtime.newContext();
  try {
    const timers = context.evalCode(TIMERS_SOURCE, '[timers]');
    if (timers.error) throw new Error(`timers failed: ${JSON.stringify(context.dump(timers.error))}`);
    timers.value.dispose();
    const libraries = context.evalCode(vitestLibrariesSource(), '[vitest-libraries]');
    if (libraries.error) throw new Error(`libraries failed: ${JSON.stringify(context.dump(libraries.error))}`);
    libraries.value.dispose();
    // As the host's preload: the vitest module is loaded; @vitest/runner then imports the test file ('/repo/' + file).
    const preload = context.evalCode(`import 'vitest';`, '[preload]', { type: 'module' });
    if (preload.error) throw new Error(`vitest module failed: ${JSON.stringify(context.dump(preload.error))}`);
    settle(context, runtime, preload.value).dispose();
    const call = context.evalCode(`__vitest_run__(${JSON.stringify(JSON.stringify({ testNamePattern: options.testNamePattern ?? null, file }))})`, 'run.js');
    if (call.error) {
      const reason = context.dump(call.error);
      call.error.dispose();
      throw new Error(`__vitest_run__ threw: ${JSON.stringify(reason)}`);
    }
    const json = settle(context, runtime, call.value);
    try {
      return JSON.parse(context.getString(json)) as ShimResult;
    } finally {
      json.dispose();
    }
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

/** The run's result without stacks (they depend on columns of the source). */
function runTestFile(source: string, options: RunOptions = {}): ShimResult {
  const result = runWithStacks(source, options);
  const strip = ({ stack: _stack, ...error }: ShimError): ShimError => error;
  return {
    tests: result.tests.map((test) => (test.error ? { ...test, error: strip(test.error) } : test)),
    errors: result.errors.map(strip),
  };
}

/** Expected test entries; `fail` takes the diff strings and the error name when they apply. */
const fail = (path: string[], message: string, diff?: { expected: string; actual: string }, name = 'AssertionError') => ({
  path,
  state: 'fail',
  error: { name, message, ...diff },
});
const pass = (...path: string[]) => ({ path, state: 'pass' });
const skip = (...path: string[]) => ({ path, state: 'skip' });
const todo = (...path: string[]) => ({ path, state: 'todo' });

describe('equality matchers', () => {
  it('toBe uses Object.is and hints at toEqual/toStrictEqual when only the reference differs', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('numbers', () => { expect(107.07).toBe(107.07); expect(107.07).toBe(107.09); });
it('strings', () => { expect('a').toBe('b'); });
it('NaN and -0', () => { expect(NaN).toBe(NaN); expect(-0).toBe(0); });
it('same shape', () => { expect({ a: 1 }).toBe({ a: 1 }); });
it('same shape but undefined', () => { expect({ a: 1, b: undefined }).toBe({ a: 1 }); });
it('string and number', () => { expect('1').toBe(1); });
it('long string', () => { expect('a very long string that goes on and on and on').toBe('short'); });
`);
    expect(result).toEqual({
      tests: [
        fail(['numbers'], 'expected 107.07 to be 107.09 // Object.is equality', { expected: '107.09', actual: '107.07' }),
        fail(['strings'], "expected 'a' to be 'b' // Object.is equality", { expected: 'b', actual: 'a' }),
        fail(['NaN and -0'], 'expected -0 to be +0 // Object.is equality', { expected: '0', actual: '-0' }),
        fail(
          ['same shape'],
          'expected { a: 1 } to be { a: 1 } // Object.is equality\n\nIf it should pass with deep equality, replace "toBe" with "toStrictEqual"\n\nExpected: { a: 1 }\nReceived: serializes to the same string\n',
          { expected: '{\n  "a": 1,\n}', actual: '{\n  "a": 1,\n}' },
        ),
        fail(
          ['same shape but undefined'],
          'expected { a: 1, b: undefined } to be { a: 1 } // Object.is equality\n\nIf it should pass with deep equality, replace "toBe" with "toEqual"\n\nExpected: { a: 1, b: undefined }\nReceived: serializes to the same string\n',
          { expected: '{\n  "a": 1,\n}', actual: '{\n  "a": 1,\n  "b": undefined,\n}' },
        ),
        fail(['string and number'], "expected '1' to be 1 // Object.is equality", { expected: '1', actual: '"1"' }),
        fail(['long string'], "expected 'a very long string that goes on and o…' to be 'short' // Object.is equality", {
          expected: 'short',
          actual: 'a very long string that goes on and on and on',
        }),
      ],
      errors: [],
    });
  });

  it('toEqual recurses, ignores undefined properties and classes; Maps, Sets, Dates, RegExps, NaN as vitest', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
class Money { constructor(cents) { this.cents = cents; } }
it('arrays', () => { expect([1, 2]).toEqual([1, 2]); expect([1, 2]).toEqual([1, 3]); });
it('objects', () => { expect({ a: 1, b: undefined }).toEqual({ a: 1 }); expect({ a: 1 }).toEqual({ a: 2 }); });
it('class and plain object', () => { expect(new Money(5)).toEqual({ cents: 5 }); expect(new Money(5)).toEqual({ cents: 6 }); });
it('nested', () => { expect({ a: [1, { b: 2 }] }).toEqual({ a: [1, { b: 3 }] }); });
it('long objects are abbreviated', () => { expect({ total: 107.07, vat: 17.85, lines: [1, 2, 3] }).toEqual({ total: 107.09, vat: 17.85, lines: [1, 2, 3] }); });
it('maps', () => { expect(new Map([['a', 1], ['b', 2]])).toEqual(new Map([['b', 2], ['a', 1]])); expect(new Map([['a', 1]])).toEqual(new Map([['a', 2]])); });
it('sets', () => { expect(new Set([{ a: 1 }])).toEqual(new Set([{ a: 1 }])); expect(new Set([1, 2])).toEqual(new Set([1, 3])); });
it('dates', () => { expect(new Date(0)).toEqual(new Date(0)); expect(new Date(0)).toEqual(new Date(1)); });
it('regexps', () => { expect(/a/g).toEqual(/a/g); expect(/a/g).toEqual(/a/i); });
it('NaN and -0', () => { expect([NaN]).toEqual([NaN]); expect([-0]).toEqual([0]); });
it('errors', () => { expect(new Error('x')).toEqual(new Error('x')); expect(new TypeError('x')).toEqual(new Error('x')); });
it('null and undefined', () => { expect(null).toEqual(undefined); });
`);
    expect(result).toEqual({
      tests: [
        fail(['arrays'], 'expected [ 1, 2 ] to deeply equal [ 1, 3 ]', { expected: '[\n  1,\n  3,\n]', actual: '[\n  1,\n  2,\n]' }),
        fail(['objects'], 'expected { a: 1 } to deeply equal { a: 2 }', { expected: '{\n  "a": 2,\n}', actual: '{\n  "a": 1,\n}' }),
        fail(['class and plain object'], 'expected Money{ cents: 5 } to deeply equal { cents: 6 }', {
          expected: '{\n  "cents": 6,\n}',
          actual: 'Money {\n  "cents": 5,\n}',
        }),
        fail(['nested'], 'expected { a: [ 1, { b: 2 } ] } to deeply equal { a: [ 1, { b: 3 } ] }', {
          expected: '{\n  "a": [\n    1,\n    {\n      "b": 3,\n    },\n  ],\n}',
          actual: '{\n  "a": [\n    1,\n    {\n      "b": 2,\n    },\n  ],\n}',
        }),
        fail(['long objects are abbreviated'], 'expected { total: 107.07, vat: 17.85, …(1) } to deeply equal { total: 107.09, vat: 17.85, …(1) }', {
          expected: '{\n  "lines": [\n    1,\n    2,\n    3,\n  ],\n  "total": 107.09,\n  "vat": 17.85,\n}',
          actual: '{\n  "lines": [\n    1,\n    2,\n    3,\n  ],\n  "total": 107.07,\n  "vat": 17.85,\n}',
        }),
        fail(['maps'], "expected Map{ 'a' => 1 } to deeply equal Map{ 'a' => 2 }", { expected: 'Map {\n  "a" => 2,\n}', actual: 'Map {\n  "a" => 1,\n}' }),
        fail(['sets'], 'expected Set{ 1, 2 } to deeply equal Set{ 1, 3 }', { expected: 'Set {\n  1,\n  3,\n}', actual: 'Set {\n  1,\n  2,\n}' }),
        fail(['dates'], 'expected 1970-01-01T00:00:00.000Z to deeply equal 1970-01-01T00:00:00.001Z', {
          expected: '1970-01-01T00:00:00.001Z',
          actual: '1970-01-01T00:00:00.000Z',
        }),
        fail(['regexps'], 'expected /a/g to deeply equal /a/i', { expected: '/a/i', actual: '/a/g' }),
        fail(['NaN and -0'], 'expected [ -0 ] to deeply equal [ +0 ]', { expected: '[\n  0,\n]', actual: '[\n  -0,\n]' }),
        fail(['errors'], 'expected TypeError: x to deeply equal Error: x', {
          expected: 'Error {\n  "message": "x",\n}',
          actual: 'TypeError {\n  "message": "x",\n}',
        }),
        fail(['null and undefined'], 'expected null to deeply equal undefined', { expected: 'undefined', actual: 'null' }),
      ],
      errors: [],
    });
  });

  it('toStrictEqual checks undefined properties, sparse arrays and classes', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
class Money { constructor(cents) { this.cents = cents; } }
it('same class', () => { expect(new Money(5)).toStrictEqual(new Money(5)); });
it('class and plain object', () => { expect(new Money(5)).toStrictEqual({ cents: 5 }); });
it('undefined property', () => { expect({ a: 1, b: undefined }).toStrictEqual({ a: 1 }); });
it('sparse array', () => { expect([, 1]).toStrictEqual([undefined, 1]); });
`);
    expect(result).toEqual({
      tests: [
        pass('same class'),
        fail(['class and plain object'], 'expected Money{ cents: 5 } to strictly equal { cents: 5 }', {
          expected: '{\n  "cents": 5,\n}',
          actual: 'Money {\n  "cents": 5,\n}',
        }),
        fail(['undefined property'], 'expected { a: 1, b: undefined } to strictly equal { a: 1 }', {
          expected: '{\n  "a": 1,\n}',
          actual: '{\n  "a": 1,\n  "b": undefined,\n}',
        }),
        fail(['sparse array'], 'expected [ undefined, 1 ] to strictly equal [ undefined, 1 ]', {
          expected: '[\n  undefined,\n  1,\n]',
          actual: '[\n  ,\n  1,\n]',
        }),
      ],
      errors: [],
    });
  });

  it('toBeCloseTo passes when |expected - received| < 10^-digits / 2', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('default two digits', () => { expect(0.1 + 0.2).toBeCloseTo(0.3); expect(107.066).toBeCloseTo(107.07); expect(0.1 + 0.2).toBeCloseTo(0.31); });
it('five digits', () => { expect(1.0001).toBeCloseTo(1, 5); });
it('four digits', () => { expect(1.0002).toBeCloseTo(1, 4); });
it('infinities', () => { expect(Infinity).toBeCloseTo(Infinity); expect(-Infinity).toBeCloseTo(Infinity); });
`);
    expect(result).toEqual({
      tests: [
        fail(['default two digits'], 'expected 0.30000000000000004 to be close to 0.31, received difference is 0.009999999999999953, but expected 0.005'),
        fail(['five digits'], 'expected 1.0001 to be close to 1, received difference is 0.00009999999999998899, but expected 0.0000049999999999999996'),
        fail(['four digits'], 'expected 1.0002 to be close to 1, received difference is 0.00019999999999997797, but expected 0.000049999999999999996'),
        fail(['infinities'], 'expected -Infinity to be close to Infinity, received difference is Infinity, but expected 0.005'),
      ],
      errors: [],
    });
  });
});

describe('other matchers', () => {
  it('toContain, toContainEqual, toMatch, toHaveLength', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('contain in a string', () => { expect('abc').toContain('b'); expect('abc').toContain('x'); });
it('contain in an array uses ===', () => { expect([1, 2]).toContain(2); expect([{ a: 1 }]).toContain({ a: 1 }); });
it('contain in a set', () => { expect(new Set([1, 2])).toContain(3); });
it('contain in null', () => { expect(null).toContain(1); });
it('contain equal', () => { expect([{ a: 1 }]).toContainEqual({ a: 1 }); expect([{ a: 1 }]).toContainEqual({ a: 2 }); });
it('match', () => { expect('hello').toMatch(/ell/); expect('hello').toMatch('bye'); });
it('match a regexp', () => { expect('hello').toMatch(/bye/); });
it('match a number', () => { expect(5).toMatch(/5/); });
it('length', () => { expect('abc').toHaveLength(3); expect([1, 2]).toHaveLength(3); });
it('size of a map', () => { expect(new Map([['a', 1]])).toHaveLength(2); });
it('length of an object', () => { expect({ a: 1 }).toHaveLength(1); });
it('length of a long array', () => { expect(Array.from({ length: 30 }, (_, i) => i)).toHaveLength(3); });
`);
    expect(result).toEqual({
      tests: [
        fail(['contain in a string'], "expected 'abc' to contain 'x'", { expected: 'x', actual: 'abc' }),
        fail(['contain in an array uses ==='], 'expected [ { a: 1 } ] to include { a: 1 }'),
        fail(['contain in a set'], 'expected [ 1, 2 ] to include 3'),
        fail(
          ['contain in null'],
          'the given combination of arguments (null and number) is invalid for this assertion. You can use an array, a map, an object, a set, a string, or a weakset instead of a number',
        ),
        fail(['contain equal'], 'expected [ { a: 1 } ] to deep equally contain { a: 2 }', {
          expected: '{\n  "a": 2,\n}',
          actual: '[\n  {\n    "a": 1,\n  },\n]',
        }),
        fail(['match'], "expected 'hello' to match 'bye'", { expected: 'bye', actual: 'hello' }),
        fail(['match a regexp'], "expected 'hello' to match /bye/", { expected: '/bye/', actual: '"hello"' }),
        fail(['match a number'], '.toMatch() expects to receive a string, but got number', undefined, 'TypeError'),
        fail(['length'], 'expected [ 1, 2 ] to have a length of 3 but got 2', { expected: '3', actual: '2' }),
        fail(['size of a map'], "expected Map{ 'a' => 1 } to have a size of 2 but got 1", { expected: '2', actual: '1' }),
        fail(['length of an object'], "expected { a: 1 } to have property 'length'"),
        fail(['length of a long array'], 'expected [ Array(30) ] to have a length of 3 but got 30', { expected: '3', actual: '30' }),
      ],
      errors: [],
    });
  });

  it('toMatchObject and toHaveProperty', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
class Point { constructor(x, y) { this.x = x; this.y = y; } }
it('subset', () => { expect({ a: 1, b: { c: 2, d: 3 } }).toMatchObject({ b: { c: 2 } }); expect({ a: 1, b: { c: 2, d: 3 } }).toMatchObject({ b: { c: 3 } }); });
it('arrays of subsets', () => { expect([{ a: 1, b: 2 }]).toMatchObject([{ a: 1 }]); expect({ list: [{ id: 1, x: 2 }] }).toMatchObject({ list: [{ id: 2 }] }); });
it('class instance', () => { expect(new Point(1, 2)).toMatchObject({ x: 5 }); });
it('property paths', () => { expect({ a: [{ b: 1 }] }).toHaveProperty('a[0].b', 1); expect({ a: { b: 2 } }).toHaveProperty(['a', 'b'], 2); expect({ 'a.b': 1 }).toHaveProperty('a.b'); });
it('missing property', () => { expect({ a: { b: 1 } }).toHaveProperty('a.c'); });
it('property with another value', () => { expect({ a: { b: 1 } }).toHaveProperty(['a', 'b'], 2); });
it('property with an object value', () => { expect({ a: { b: 1 } }).toHaveProperty('a', { b: 2 }); });
`);
    expect(result).toEqual({
      tests: [
        fail(['subset'], 'expected { a: 1, b: { c: 2, d: 3 } } to match object { b: { c: 3 } }\n(2 matching properties omitted from actual)', {
          expected: '{\n  "b": {\n    "c": 3,\n  },\n}',
          actual: '{\n  "b": {\n    "c": 2,\n  },\n}',
        }),
        fail(
          ['arrays of subsets'],
          'expected { list: [ { id: 1, x: 2 } ] } to match object { list: [ { id: 2 } ] }\n(1 matching property omitted from actual)',
          { expected: '{\n  "list": [\n    {\n      "id": 2,\n    },\n  ],\n}', actual: '{\n  "list": [\n    {\n      "id": 1,\n    },\n  ],\n}' },
        ),
        fail(['class instance'], 'expected Point{ x: 1, y: 2 } to match object { x: 5 }\n(1 matching property omitted from actual)', {
          expected: '{\n  "x": 5,\n}',
          actual: 'Point {\n  "x": 1,\n}',
        }),
        pass('property paths'),
        fail(['missing property'], 'expected { a: { b: 1 } } to have property "a.c"'),
        fail(['property with another value'], 'expected { a: { b: 1 } } to have property "a.b" with value 2', { expected: '2', actual: '1' }),
        fail(['property with an object value'], 'expected { a: { b: 1 } } to have property "a" with value { b: 2 }', {
          expected: '{\n  "b": 2,\n}',
          actual: '{\n  "b": 1,\n}',
        }),
      ],
      errors: [],
    });
  });

  it('truthiness, null/undefined/NaN, types and number comparisons', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
class Animal {}
it('truthy', () => { expect(1).toBeTruthy(); expect(0).toBeTruthy(); });
it('falsy', () => { expect('').toBeFalsy(); expect('x').toBeFalsy(); });
it('null', () => { expect(null).toBeNull(); expect(undefined).toBeNull(); });
it('undefined', () => { expect(undefined).toBeUndefined(); expect(1).toBeUndefined(); });
it('defined', () => { expect(0).toBeDefined(); expect(undefined).toBeDefined(); });
it('NaN', () => { expect(NaN).toBeNaN(); expect(1).toBeNaN(); });
it('instance of', () => { expect(new Animal()).toBeInstanceOf(Animal); expect({}).toBeInstanceOf(Animal); });
it('instance of a non-constructor', () => { expect({}).toBeInstanceOf(5); });
it('type of', () => { expect(() => 1).toBeTypeOf('function'); expect(1).toBeTypeOf('string'); });
it('greater than', () => { expect(5).toBeGreaterThan(4); expect(4).toBeGreaterThan(5); });
it('greater than or equal', () => { expect(5).toBeGreaterThanOrEqual(5); expect(1).toBeGreaterThanOrEqual(2); });
it('less than', () => { expect(1).toBeLessThan(2); expect(3).toBeLessThan(2); });
it('less than or equal', () => { expect(2).toBeLessThanOrEqual(2); expect(3).toBeLessThanOrEqual(2); });
it('bigints', () => { expect(10n).toBeGreaterThan(11n); });
it('a string compared', () => { expect('3').toBeGreaterThan(2); });
`);
    expect(result).toEqual({
      tests: [
        fail(['truthy'], 'expected +0 to be truthy', { expected: 'true', actual: '0' }),
        fail(['falsy'], "expected 'x' to be falsy", { expected: 'false', actual: '"x"' }),
        fail(['null'], 'expected undefined to be null', { expected: 'null', actual: 'undefined' }),
        fail(['undefined'], 'expected 1 to be undefined', { expected: 'undefined', actual: '1' }),
        fail(['defined'], 'expected undefined to be defined'),
        fail(['NaN'], 'expected 1 to be NaN', { expected: 'NaN', actual: '1' }),
        fail(['instance of'], 'expected {} to be an instance of Animal'),
        fail(['instance of a non-constructor'], 'The instanceof assertion needs a constructor but Number was given.'),
        fail(['type of'], "expected 1 to be type of 'string'", { expected: 'string', actual: 'number' }),
        fail(['greater than'], 'expected 4 to be greater than 5'),
        fail(['greater than or equal'], 'expected 1 to be greater than or equal to 2'),
        fail(['less than'], 'expected 3 to be less than 2'),
        fail(['less than or equal'], 'expected 3 to be less than or equal to 2'),
        fail(['bigints'], 'expected 10 to be greater than 11'),
        fail(['a string compared'], 'actual value must be number or bigint, received "string"', undefined, 'TypeError'),
      ],
      errors: [],
    });
  });

  it('formats values in messages as loupe does', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('zero', () => { expect(0).toBe(1); });
it('function', () => { expect(function total() {}).toBeFalsy(); });
it('anonymous function', () => { expect(() => {}).toBeFalsy(); });
it('class', () => { expect(class Cart {}).toBeFalsy(); });
it('error', () => { expect(new TypeError('bad')).toBeFalsy(); });
it('date', () => { expect(new Date(86400000)).toBeFalsy(); });
it('escapes', () => { expect('it\\'s\\tdone\\n').toBe('x'); });
it('keys', () => { expect({ 'a-b': 1, 2: 3 }).toBeFalsy(); });
it('circular', () => { const a = { name: 'a' }; a.self = a; expect(a).toBeFalsy(); });
it('nested arrays', () => { expect([[1, [2, [3, [4]]]]]).toBeFalsy(); });
it('many keys', () => { expect({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10 }).toEqual({}); });
it('promise', () => { expect(Promise.resolve(1)).toBeFalsy(); });
it('symbol and bigint', () => { expect(Symbol('k')).toBe(10n); });
`);
    expect(result).toEqual({
      tests: [
        fail(['zero'], 'expected +0 to be 1 // Object.is equality', { expected: '1', actual: '0' }),
        fail(['function'], 'expected [Function total] to be falsy', { expected: 'false', actual: '[Function total]' }),
        fail(['anonymous function'], 'expected [Function] to be falsy', { expected: 'false', actual: '[Function anonymous]' }),
        fail(['class'], 'expected [Function Cart] to be falsy', { expected: 'false', actual: '[Function Cart]' }),
        fail(['error'], 'expected TypeError: bad to be falsy', { expected: 'false', actual: 'TypeError {\n  "message": "bad",\n}' }),
        fail(['date'], 'expected 1970-01-02T00:00:00.000Z to be falsy', { expected: 'false', actual: '1970-01-02T00:00:00.000Z' }),
        fail(['escapes'], "expected 'it\\'s\\tdone\\n' to be 'x' // Object.is equality", { expected: 'x', actual: "it's\tdone\n" }),
        fail(['keys'], "expected { '2': 3, 'a-b': 1 } to be falsy", { expected: 'false', actual: '{\n  "2": 3,\n  "a-b": 1,\n}' }),
        fail(['circular'], "expected { name: 'a', self: [Circular] } to be falsy", {
          expected: 'false',
          actual: '{\n  "name": "a",\n  "self": [Circular],\n}',
        }),
        fail(['nested arrays'], 'expected [ [ 1, [ 2, [ 3, [ 4 ] ] ] ] ] to be falsy', {
          expected: 'false',
          actual: '[\n  [\n    1,\n    [\n      2,\n      [\n        3,\n        [\n          4,\n        ],\n      ],\n    ],\n  ],\n]',
        }),
        fail(['many keys'], 'expected { a: 1, b: 2, c: 3, d: 4, e: 5, …(5) } to deeply equal {}', {
          expected: '{}',
          actual: '{\n  "a": 1,\n  "b": 2,\n  "c": 3,\n  "d": 4,\n  "e": 5,\n  "f": 6,\n  "g": 7,\n  "h": 8,\n  "i": 9,\n  "j": 10,\n}',
        }),
        fail(['promise'], 'expected Promise{…} to be falsy', { expected: 'false', actual: 'Promise {}' }),
        fail(['symbol and bigint'], 'expected Symbol(k) to be 10n // Object.is equality', { expected: '10n', actual: 'Symbol(k)' }),
      ],
      errors: [],
    });
  });
});

describe('toThrow', () => {
  it('checks that a function throws, with a substring, RegExp, class, error object or asymmetric matcher', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
const boom = () => { throw new Error('bad thing'); };
it('passes', () => {
  expect(boom).toThrow();
  expect(boom).toThrow('bad');
  expect(boom).toThrow(/thing$/);
  expect(boom).toThrow(Error);
  expect(boom).toThrow(new Error('bad thing'));
  expect(boom).toThrowError(expect.objectContaining({ message: 'bad thing' }));
});
it('does not throw', () => { expect(() => {}).toThrow(); });
it('does not throw with a message', () => { expect(() => 1).toThrowError('x'); });
it('does not throw with a class', () => { expect(() => 1).toThrow(TypeError); });
it('substring', () => { expect(boom).toThrow('good'); });
it('regexp', () => { expect(boom).toThrow(/good/); });
it('class', () => { expect(boom).toThrow(TypeError); });
it('error object', () => { expect(boom).toThrow(new Error('good')); });
it('asymmetric matcher', () => { expect(boom).toThrow(expect.objectContaining({ message: 'x' })); });
it('thrown value', () => { expect(() => { throw { code: 1 }; }).toThrow({ code: 2 }); });
it('thrown string', () => { expect(() => { throw 'oops'; }).toThrow('oo'); expect(() => { throw 'oops'; }).toThrow('zz'); });
it('empty string', () => { expect(() => { throw new Error('x'); }).toThrow(''); });
it('not a function', () => { expect(5).toThrow(); });
`);
    expect(result).toEqual({
      tests: [
        pass('passes'),
        fail(['does not throw'], 'expected [Function] to throw an error'),
        fail(['does not throw with a message'], 'expected [Function] to throw an error', { expected: 'null', actual: 'undefined' }),
        fail(['does not throw with a class'], "expected function to throw an error, but it didn't"),
        fail(['substring'], "expected [Function boom] to throw error including 'good' but got 'bad thing'", { expected: 'good', actual: 'bad thing' }),
        fail(['regexp'], "expected [Function boom] to throw error matching /good/ but got 'bad thing'", { expected: '/good/', actual: '"bad thing"' }),
        fail(['class'], 'expected error to be instance of TypeError', { expected: '[Function TypeError]', actual: 'Error {\n  "message": "bad thing",\n}' }),
        fail(['error object'], 'expected a thrown error to be Error: good', {
          expected: 'Error {\n  "message": "good",\n}',
          actual: 'Error {\n  "message": "bad thing",\n}',
        }),
        fail(['asymmetric matcher'], 'expected error to match asymmetric matcher', {
          expected: 'ObjectContaining {\n  "message": "x",\n}',
          actual: 'Error {\n  "message": "bad thing",\n}',
        }),
        fail(['thrown value'], 'expected a thrown value to equal { code: 2 }', { expected: '{\n  "code": 2,\n}', actual: '{\n  "code": 1,\n}' }),
        fail(['thrown string'], "expected [Function] to throw error including 'zz' but got 'oops'", { expected: 'zz', actual: 'oops' }),
        fail(['empty string'], "expected [Function] to throw error matching /^$/ but got 'x'", { expected: '/^$/', actual: '"x"' }),
        fail(['not a function'], 'expected 5 to be a function'),
      ],
      errors: [],
    });
  });
});

describe('.not', () => {
  it('negates every matcher with its own message', () => {
    const result = runTestFile(`
import { it, expect, vi } from 'vitest';
it('passes', () => { expect(1).not.toBe(2); expect([1]).not.toEqual([2]); expect('abc').not.toContain('x'); expect(() => 1).not.toThrow(); });
it('toBe', () => { expect(1).not.toBe(1); });
it('toEqual', () => { expect([1]).not.toEqual([1]); });
it('toStrictEqual', () => { expect([1]).not.toStrictEqual([1]); });
it('toBeCloseTo', () => { expect(1.001).not.toBeCloseTo(1); });
it('toContain', () => { expect([1, 2]).not.toContain(2); });
it('toContainEqual', () => { expect([{ a: 1 }]).not.toContainEqual({ a: 1 }); });
it('toMatch', () => { expect('abc').not.toMatch(/b/); });
it('toMatchObject', () => { expect({ a: 1, b: 2 }).not.toMatchObject({ a: 1 }); });
it('toThrow', () => { expect(() => { throw new Error('abc'); }).not.toThrow(); });
it('toThrow with a message', () => { expect(() => { throw new Error('abc'); }).not.toThrow('b'); });
it('toThrow with a class', () => { expect(() => { throw new TypeError('abc'); }).not.toThrow(TypeError); });
it('toHaveLength', () => { expect([1]).not.toHaveLength(1); });
it('toHaveProperty', () => { expect({ a: 1 }).not.toHaveProperty('a', 1); });
it('toBeTruthy', () => { expect(1).not.toBeTruthy(); });
it('toBeNull', () => { expect(null).not.toBeNull(); });
it('toBeDefined', () => { expect(1).not.toBeDefined(); });
it('toBeInstanceOf', () => { expect([]).not.toBeInstanceOf(Array); });
it('toBeGreaterThan', () => { expect(5).not.toBeGreaterThan(4); });
it('toHaveBeenCalled', () => { const f = vi.fn(); f(3); expect(f).not.toHaveBeenCalled(); });
`);
    expect(result).toEqual({
      tests: [
        pass('passes'),
        fail(['toBe'], 'expected 1 not to be 1 // Object.is equality', { expected: '1', actual: '1' }),
        fail(['toEqual'], 'expected [ 1 ] to not deeply equal [ 1 ]', { expected: '[\n  1,\n]', actual: '[\n  1,\n]' }),
        fail(['toStrictEqual'], 'expected [ 1 ] to not strictly equal [ 1 ]', { expected: '[\n  1,\n]', actual: '[\n  1,\n]' }),
        fail(['toBeCloseTo'], 'expected 1.001 to not be close to 1, received difference is 0.0009999999999998899, but expected 0.005'),
        fail(['toContain'], 'expected [ 1, 2 ] to not include 2'),
        fail(['toContainEqual'], 'expected [ { a: 1 } ] to not deep equally contain { a: 1 }', {
          expected: '{\n  "a": 1,\n}',
          actual: '[\n  {\n    "a": 1,\n  },\n]',
        }),
        fail(['toMatch'], "expected 'abc' not to match /b/", { expected: '/b/', actual: '"abc"' }),
        fail(['toMatchObject'], 'expected { a: 1, b: 2 } to not match object { a: 1 }', { expected: '{\n  "a": 1,\n}', actual: '{\n  "a": 1,\n}' }),
        fail(['toThrow'], "expected [Function] to not throw an error but 'Error: abc' was thrown", { expected: 'undefined', actual: '"Error: abc"' }),
        fail(['toThrow with a message'], "expected [Function] to throw error not including 'b'", { expected: 'b', actual: 'abc' }),
        fail(['toThrow with a class'], 'expected error not to be instance of TypeError', {
          expected: '[Function TypeError]',
          actual: 'TypeError {\n  "message": "abc",\n}',
        }),
        fail(['toHaveLength'], 'expected [ 1 ] to not have a length of 1', { expected: '1', actual: '1' }),
        fail(['toHaveProperty'], 'expected { a: 1 } to not have property "a" with value 1', { expected: '1', actual: '1' }),
        fail(['toBeTruthy'], 'expected 1 to not be truthy', { expected: 'true', actual: '1' }),
        fail(['toBeNull'], 'expected null not to be null', { expected: 'null', actual: 'null' }),
        fail(['toBeDefined'], 'expected 1 to be undefined', { expected: '1', actual: '1' }),
        fail(['toBeInstanceOf'], 'expected [] to not be an instance of Array'),
        fail(['toBeGreaterThan'], 'expected 5 to be not greater than 4'),
        fail(
          ['toHaveBeenCalled'],
          'expected "vi.fn()" to not be called at all, but actually been called 1 times\n\nReceived:\n\n  1st vi.fn() call:\n\n    Array [\n      3,\n    ]\n\n\nNumber of calls: 1\n',
        ),
      ],
      errors: [],
    });
  });
});

describe('.resolves and .rejects', () => {
  it('unwrap promises, fail when they settle the other way, and fail the test when not awaited', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('passes', async () => {
  await expect(Promise.resolve(1)).resolves.toBe(1);
  await expect(Promise.reject(new Error('no'))).rejects.toThrow('no');
  await expect(async () => { throw new TypeError('t'); }).rejects.toBeInstanceOf(TypeError);
  await expect(Promise.resolve(3)).resolves.not.toBe(4);
});
it('resolves to another value', async () => { await expect(Promise.resolve(1)).resolves.toBe(2); });
it('rejects with another message', async () => { await expect(Promise.reject(new Error('no'))).rejects.toThrow('yes'); });
it('rejects with another class', async () => { await expect(Promise.reject(new TypeError('t'))).rejects.toThrow(RangeError); });
it('resolves instead of rejecting', async () => { await expect(Promise.resolve(5)).rejects.toThrow(); });
it('rejects instead of resolving', async () => { await expect(Promise.reject(new Error('no'))).resolves.toBe(1); });
it('not a promise', () => { expect(5).resolves.toBe(5); });
it('not awaited', () => { expect(Promise.resolve(1)).resolves.toBe(2); });
`);
    expect(result).toEqual({
      tests: [
        pass('passes'),
        fail(['resolves to another value'], 'expected 1 to be 2 // Object.is equality', { expected: '2', actual: '1' }),
        fail(['rejects with another message'], "expected [Function] to throw error including 'yes' but got 'no'", { expected: 'yes', actual: 'no' }),
        fail(['rejects with another class'], 'expected error to be instance of RangeError', {
          expected: '[Function RangeError]',
          actual: 'TypeError {\n  "message": "t",\n}',
        }),
        fail(['resolves instead of rejecting'], 'promise resolved "5" instead of rejecting', {
          expected: 'Error {\n  "message": "rejected promise",\n}',
          actual: '5',
        }),
        fail(['rejects instead of resolving'], 'promise rejected "Error: no" instead of resolving'),
        fail(['not a promise'], "You must provide a Promise to expect() when using .resolves, not 'number'.", undefined, 'TypeError'),
        fail(['not awaited'], 'expected 1 to be 2 // Object.is equality', { expected: '2', actual: '1' }),
      ],
      errors: [],
    });
  });
});

describe('asymmetric matchers', () => {
  it('match inside toEqual and toHaveBeenCalledWith, and show in messages and diffs', () => {
    const result = runTestFile(`
import { it, expect, vi } from 'vitest';
it('passes', () => {
  expect({ id: 7, name: 'Ann', tags: ['a', 'b'], total: 1.004 }).toEqual({
    id: expect.any(Number), name: expect.stringContaining('n'), tags: expect.arrayContaining(['b']), total: expect.closeTo(1, 2),
  });
  expect({ a: 1, b: 2 }).toEqual(expect.objectContaining({ a: 1 }));
  expect(null).not.toEqual(expect.anything());
  expect('abc').toEqual(expect.not.stringContaining('x'));
});
it('any and anything', () => { expect({ a: 1, b: 'x' }).toEqual({ a: expect.any(String), b: expect.anything() }); });
it('containing', () => { expect({ s: 'abc', o: { a: 1, b: 2 }, l: [1, 2] }).toEqual({ s: expect.stringContaining('z'), o: expect.objectContaining({ a: 2 }), l: expect.arrayContaining([3]) }); });
it('close to', () => { expect({ n: 1.5 }).toEqual({ n: expect.closeTo(1.6, 1) }); });
it('at the top', () => { expect(5).toEqual(expect.any(String)); });
it('in a call', () => { const f = vi.fn(); f({ id: 1, name: 'x' }); expect(f).toHaveBeenCalledWith(expect.objectContaining({ id: 2 })); });
`);
    expect(result).toEqual({
      tests: [
        pass('passes'),
        fail(['any and anything'], "expected { a: 1, b: 'x' } to deeply equal { a: Any<String>, b: Anything }", {
          expected: '{\n  "a": Any<String>,\n  "b": "x",\n}',
          actual: '{\n  "a": 1,\n  "b": "x",\n}',
        }),
        fail(['containing'], 'expected { s: \'abc\', o: { a: 1, b: 2 }, …(1) } to deeply equal { s: StringContaining "z", …(2) }', {
          expected: '{\n  "l": [\n    3,\n  ],\n  "o": {\n    "a": 2,\n  },\n  "s": StringContaining "z",\n}',
          actual: '{\n  "l": [\n    1,\n    2,\n  ],\n  "o": {\n    "a": 1,\n    "b": 2,\n  },\n  "s": "abc",\n}',
        }),
        fail(['close to'], 'expected { n: 1.5 } to deeply equal { n: NumberCloseTo 1.6 (1 digit) }', {
          expected: '{\n  "n": NumberCloseTo 1.6 (1 digit),\n}',
          actual: '{\n  "n": 1.5,\n}',
        }),
        fail(['at the top'], 'expected 5 to deeply equal Any<String>', { expected: 'Any<String>', actual: '5' }),
        fail(
          ['in a call'],
          'expected "vi.fn()" to be called with arguments: [ ObjectContaining {"id": 2} ]\n\nReceived:\n\n  1st vi.fn() call:\n\n  [\n-   ObjectContaining {\n-     "id": 2,\n+   {\n+     "id": 1,\n+     "name": "x",\n    },\n  ]\n\n\nNumber of calls: 1\n',
        ),
      ],
      errors: [],
    });
  });
});

describe('expect extras', () => {
  it('expect.assertions, expect.hasAssertions, custom messages, expect.unreachable, expect.extend and expect.soft', () => {
    const result = runTestFile(`
import { it, expect, vi } from 'vitest';
expect.extend({
  toBeEven(received) {
    return { pass: received % 2 === 0, message: () => 'expected ' + received + (this.isNot ? ' not' : '') + ' to be even' };
  },
});
it('assertions counted', () => { expect.assertions(2); expect(1).toBe(1); expect(2).toBe(2); });
it('too few assertions', () => { expect.assertions(2); expect(1).toBe(1); });
it('assertions after await', async () => { expect.assertions(2); await expect(Promise.resolve(1)).resolves.toBe(1); });
it('has assertions', () => { expect.hasAssertions(); });
it('custom message', () => { expect(1, 'price').toBe(2); });
it('custom message on a length', () => { expect([1], 'cart').toHaveLength(2); });
it('custom message on a spy', () => { expect(vi.fn(), 'saved').toHaveBeenCalled(); });
it('unreachable', () => { expect.unreachable('should not get here'); });
it('custom matcher', () => { expect(2).toBeEven(); expect(3).not.toBeEven(); expect(3).toBeEven(); });
it('custom matcher negated', () => { expect(2, 'count').not.toBeEven(); });
it('soft', () => { expect.soft(1).toBe(2); expect.soft('a').toBe('b'); expect(3).toBe(3); });
`);
    expect(result).toEqual({
      tests: [
        pass('assertions counted'),
        fail(['too few assertions'], 'expected number of assertions to be 2, but got 1', undefined, 'Error'),
        fail(['assertions after await'], 'expected number of assertions to be 2, but got 1', undefined, 'Error'),
        fail(['has assertions'], 'expected any number of assertion, but got none', undefined, 'Error'),
        fail(['custom message'], 'price: expected 1 to be 2 // Object.is equality', { expected: '2', actual: '1' }),
        fail(['custom message on a length'], 'cart: expected [ 1 ] to have a length of 2 but got 1', { expected: '2', actual: '1' }),
        fail(['custom message on a spy'], 'saved: expected "vi.fn()" to be called at least once'),
        fail(['unreachable'], 'expected "should not get here" not to be reached'),
        fail(['custom matcher'], 'expected 3 to be even', undefined, 'Error'),
        fail(['custom matcher negated'], 'count: expected 2 not to be even', undefined, 'Error'),
        fail(['soft'], 'expected 1 to be 2 // Object.is equality', { expected: '2', actual: '1' }),
      ],
      errors: [],
    });
  });
});

describe('vi', () => {
  it('vi.fn records calls and results; mockReturnValue, mockImplementation, spyOn and restore work', () => {
    const result = runTestFile(`
import { it, expect, vi } from 'vitest';
it('return values', () => {
  const f = vi.fn().mockReturnValue(1).mockReturnValueOnce(2);
  expect([f('a'), f(), f()]).toEqual([2, 1, 1]);
  expect(f.mock.calls).toEqual([['a'], [], []]);
  expect(f.mock.results[0]).toEqual({ type: 'return', value: 2 });
  expect(f).toHaveBeenCalledTimes(3);
  expect(f).toHaveBeenCalledWith('a');
});
it('implementations', () => {
  const f = vi.fn((a, b) => a + b);
  expect(f(1, 2)).toBe(3);
  f.mockImplementation((a) => a * 10);
  expect(f(2)).toBe(20);
  expect(f).toHaveBeenLastCalledWith(2);
  expect(f).toHaveBeenNthCalledWith(1, 1, 2);
});
it('spyOn', () => {
  const cart = { total(x) { return x + 1; } };
  const spy = vi.spyOn(cart, 'total');
  expect(cart.total(1)).toBe(2);
  spy.mockReturnValue(100);
  expect(cart.total(1)).toBe(100);
  spy.mockRestore();
  expect(cart.total(1)).toBe(2);
  expect(vi.isMockFunction(cart.total)).toBe(false);
});
it('never called', () => { const f = vi.fn(); expect(f).toHaveBeenCalled(); });
it('called another number of times', () => { const f = vi.fn().mockName('total'); f(); expect(f).toHaveBeenCalledTimes(2); });
it('called with other arguments', () => { const f = vi.fn(); f(1, 'a'); expect(f).toHaveBeenCalledWith(2, 'b'); });
it('called with arguments but never called', () => { const f = vi.fn(); expect(f).toHaveBeenCalledWith(2); });
it('spy name', () => { const o = { save() {} }; vi.spyOn(o, 'save'); expect(o.save).toHaveBeenCalledTimes(1); });
it('not a spy', () => { expect(() => 1).toHaveBeenCalled(); });
it('spy on a missing method', () => { vi.spyOn({}, 'save'); });
`);
    expect(result).toEqual({
      tests: [
        pass('return values'),
        pass('implementations'),
        pass('spyOn'),
        fail(['never called'], 'expected "vi.fn()" to be called at least once'),
        fail(['called another number of times'], 'expected "total" to be called 2 times, but got 1 times'),
        fail(
          ['called with other arguments'],
          'expected "vi.fn()" to be called with arguments: [ 2, \'b\' ]\n\nReceived:\n\n  1st vi.fn() call:\n\n  [\n-   2,\n-   "b",\n+   1,\n+   "a",\n  ]\n\n\nNumber of calls: 1\n',
        ),
        fail(['called with arguments but never called'], 'expected "vi.fn()" to be called with arguments: [ 2 ]\n\nNumber of calls: 0\n'),
        fail(['spy name'], 'expected "save" to be called 1 times, but got 0 times'),
        fail(['not a spy'], '[Function] is not a spy or a call to a spy!', undefined, 'TypeError'),
        fail(['spy on a missing method'], 'The property "save" is not defined on the object.', undefined, 'Error'),
      ],
      errors: [],
    });
  });
});

describe('modifiers', () => {
  it('skip, todo, skipIf, runIf, concurrent, fails, options objects and a missing function', () => {
    const result = runTestFile(`
import { describe, it, test, expect } from 'vitest';
it('plain', () => {});
it.skip('skipped', () => { throw new Error('never'); });
it.todo('later');
it('without a function');
test.skipIf(true)('skipIf true', () => {});
test.skipIf(false)('skipIf false', () => {});
test.runIf(true)('runIf true', () => {});
test.runIf(false)('runIf false', () => {});
it.concurrent('concurrent', async () => { await Promise.resolve(); });
it.fails('fails, and fails', () => { expect(1).toBe(2); });
it.fails('fails, but passes', () => {});
it('with a timeout', () => {});
it('with options', { skip: true }, () => {});
it('skipped from the context', (context) => { context.skip(); throw new Error('not reached'); });
describe.skip('skipped suite', () => { it('inner', () => {}); describe('deeper', () => { it('deep', () => {}); }); });
describe.todo('todo suite', () => { it('inner', () => {}); });
describe('suite options', { skip: true }, () => { it('inherits skip', () => {}); });
`);
    expect(result).toEqual({
      tests: [
        pass('plain'),
        skip('skipped'),
        todo('later'),
        todo('without a function'),
        skip('skipIf true'),
        pass('skipIf false'),
        pass('runIf true'),
        skip('runIf false'),
        pass('concurrent'),
        pass('fails, and fails'),
        fail(['fails, but passes'], 'Expect test to fail', undefined, 'Error'),
        pass('with a timeout'),
        skip('with options'),
        skip('skipped from the context'),
        skip('skipped suite', 'inner'),
        skip('skipped suite', 'deeper', 'deep'),
        todo('todo suite', 'inner'),
        skip('suite options', 'inherits skip'),
      ],
      errors: [],
    });
  });
});

describe('hooks', () => {
  it('run beforeAll/beforeEach outer first, afterEach/afterAll inner first and in reverse order, then cleanups', () => {
    const result = runTestFile(`
import { describe, it, beforeAll, afterAll, beforeEach, afterEach } from 'vitest';
const log = [];
afterAll(() => { throw new Error(log.join(', ')); });
beforeAll(() => { log.push('file beforeAll'); });
afterAll(() => { log.push('file afterAll'); });
beforeEach(() => { log.push('file beforeEach'); return () => log.push('file cleanup'); });
afterEach(() => { log.push('file afterEach 1'); });
afterEach(() => { log.push('file afterEach 2'); });
describe('outer', () => {
  beforeAll(() => { log.push('outer beforeAll'); });
  afterAll(() => { log.push('outer afterAll'); });
  beforeEach(async () => { await null; log.push('outer beforeEach'); });
  afterEach(() => { log.push('outer afterEach'); });
  it('first', () => { log.push('first'); });
  describe('inner', () => {
    beforeEach(() => { log.push('inner beforeEach'); });
    it('second', () => { log.push('second'); });
  });
});
it('top', () => { log.push('top'); });
`);
    expect(result).toEqual({
      tests: [pass('outer', 'first'), pass('outer', 'inner', 'second'), pass('top')],
      errors: [
        {
          name: 'Error',
          message:
            'file beforeAll, outer beforeAll, file beforeEach, outer beforeEach, first, outer afterEach, file afterEach 2, file afterEach 1, file cleanup, file beforeEach, outer beforeEach, inner beforeEach, second, outer afterEach, file afterEach 2, file afterEach 1, file cleanup, outer afterAll, file beforeEach, top, file afterEach 2, file afterEach 1, file cleanup, file afterAll',
        },
      ],
    });
  });

  it('a failing beforeAll skips the suite’s tests and reports the error on the suite; afterAll still runs', () => {
    const result = runTestFile(`
import { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach } from 'vitest';
describe('checkout', () => {
  beforeAll(() => { throw new Error('database down'); });
  afterAll(() => { throw new TypeError('cleanup failed'); });
  it('a', () => {});
  describe('nested', () => { it('b', () => {}); });
});
describe('each hooks', () => {
  beforeEach(() => { throw new Error('before each'); });
  afterEach(() => { throw new Error('after each'); });
  it('fails with the first error', () => { expect(1).toBe(2); });
});
it('others still run', () => {});
`);
    expect(result).toEqual({
      tests: [
        skip('checkout', 'a'),
        skip('checkout', 'nested', 'b'),
        fail(['each hooks', 'fails with the first error'], 'before each', undefined, 'Error'),
        pass('others still run'),
      ],
      errors: [
        { path: ['checkout'], name: 'Error', message: 'database down' },
        { path: ['checkout'], name: 'TypeError', message: 'cleanup failed' },
      ],
    });
  });

  it('a describe callback that throws fails the file before any test runs', () => {
    const result = runTestFile(`
import { describe, it } from 'vitest';
it('before', () => {});
describe('broken', () => { it('inside', () => {}); throw new Error('describe failed'); });
describe('after', () => { it('x', () => {}); });
`);
    expect(result).toEqual({
      tests: [],
      errors: [{ name: 'Error', message: 'describe failed' }],
    });
  });

  it('an empty describe fails its suite', () => {
    const result = runTestFile(`
import { describe, it } from 'vitest';
describe('empty', () => {});
it('runs', () => {});
`);
    expect(result).toEqual({
      tests: [pass('runs')],
      errors: [{ path: ['empty'], name: 'Error', message: 'No test found in suite empty' }],
    });
  });
});

describe('.only', () => {
  it('runs only the .only tests and suites of the file; the others are skipped', () => {
    const result = runTestFile(`
import { describe, it } from 'vitest';
it('top', () => {});
it.only('top only', () => {});
describe('group', () => {
  it('g1', () => {});
  it.only('g2 only', () => { throw new Error('boom'); });
});
describe.only('only group', () => {
  it('o1', () => {});
  it.skip('o2 skipped', () => {});
  describe('nested', () => { it('n1', () => {}); });
});
describe('third', () => { it('t1', () => {}); });
`);
    expect(result).toEqual({
      tests: [
        skip('top'),
        pass('top only'),
        skip('group', 'g1'),
        fail(['group', 'g2 only'], 'boom', undefined, 'Error'),
        pass('only group', 'o1'),
        skip('only group', 'o2 skipped'),
        pass('only group', 'nested', 'n1'),
        skip('third', 't1'),
      ],
      errors: [],
    });
  });

  it('an .only inside a describe.only narrows it further', () => {
    const result = runTestFile(`
import { describe, it } from 'vitest';
describe.only('only group', () => {
  it('o1', () => {});
  it.only('o2', () => {});
});
it('outside', () => {});
`);
    expect(result).toEqual({
      tests: [skip('only group', 'o1'), pass('only group', 'o2'), skip('outside')],
      errors: [],
    });
  });
});

describe('test name pattern (-t)', () => {
  it('runs tests whose describe names and name, joined by spaces, match the RegExp', () => {
    const result = runTestFile(
      `
import { describe, it } from 'vitest';
describe('checkout', () => {
  describe('totals', () => {
    it('a three-item order with VAT', () => {});
    it('the empty cart', () => {});
  });
  it('totals aside', () => {});
});
it('refunds', () => {});
`,
      { testNamePattern: 'totals a' },
    );
    expect(result).toEqual({
      tests: [
        pass('checkout', 'totals', 'a three-item order with VAT'),
        skip('checkout', 'totals', 'the empty cart'),
        pass('checkout', 'totals aside'),
        skip('refunds'),
      ],
      errors: [],
    });
  });

  it('anchors at the start of the full name and combines with .only', () => {
    const result = runTestFile(
      `
import { describe, it } from 'vitest';
describe('checkout', () => { it('totals', () => {}); it('other', () => {}); });
it('checkout totals', () => {});
it.only('checkout totals, only', () => {});
it.only('only, not matching', () => {});
`,
      { testNamePattern: '^checkout totals' },
    );
    expect(result).toEqual({
      tests: [skip('checkout', 'totals'), skip('checkout', 'other'), skip('checkout totals'), pass('checkout totals, only'), skip('only, not matching')],
      errors: [],
    });
  });
});

describe('.each', () => {
  it('formats titles with printf placeholders, %# and $name, for arrays, objects and tables', () => {
    const result = runTestFile(`
import { describe, it, test } from 'vitest';
it.each([[1, 1, 2], [1, 2, 3]])('add(%i, %i) -> %i', (a, b, expected) => { if (a + b !== expected) throw new Error('wrong'); });
it.each([1, 2])('single %d #%#', () => {});
it.each([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])('object $a and $b', () => {});
it.each([{ a: 1, b: 'x' }])('object %s and %o', () => {});
it.each([['str', 1.5, { k: [1] }, null, undefined, -0, 10n]])('%s %f %j %s %s %f %d', () => {});
it.each([[1, 2]])('%% literal %s %s %s', () => {});
it.each([[[1, 2], { x: 1 }]])('array %s object %s', () => {});
it.each([{ user: { name: 'ann' }, list: [1, 2] }])('nested $user.name $list.0 $missing', () => {});
test.each([{ long: 'a string that is longer than forty characters in total' }])('$long', () => {});
it.each([[1, 2]])('fails %s', (a, b) => { if (a !== b) throw new Error(a + ' != ' + b); });
test.each\`
  a    | b    | expected
  \${1} | \${1} | \${2}
  \${2} | \${1} | \${3}
\`('table $a + $b = $expected', () => {});
describe.each([['x'], ['y']])('suite %s', (name) => { it('inside ' + name, () => {}); });
it.for([[1, 2], [3, 4]])('for %i %i', () => {});
`);
    expect(result).toEqual({
      tests: [
        pass('add(1, 1) -> 2'),
        pass('add(1, 2) -> 3'),
        pass('single 1 #0'),
        pass('single 2 #1'),
        pass("object 1 and 'x'"),
        pass("object 2 and 'y'"),
        pass("object { a: 1, b: 'x' } and undefined"),
        pass('str 1.5 {"k":[1]} null undefined 0 10n'),
        pass('% 1 literal 2 undefined undefined'),
        pass('array 1,2 object { x: 1 }'),
        pass("nested 'ann' 1 undefined"),
        pass("'a string that is longer than forty ch…'"),
        fail(['fails 1'], '1 != 2', undefined, 'Error'),
        pass('table 1 + 1 = 2'),
        pass('table 2 + 1 = 3'),
        pass('suite x', 'inside x'),
        pass('suite y', 'inside y'),
        pass('for 1 2'),
        pass('for 3 4'),
      ],
      errors: [],
    });
  });
});

describe('async tests and thrown values', () => {
  it('awaits returned promises and reports non-Error throws as vitest does', () => {
    const result = runTestFile(`
import { it, expect } from 'vitest';
it('async pass', async () => { await Promise.resolve(); expect(1).toBe(1); });
it('async fail', async () => { await Promise.resolve(); expect(1).toBe(2); });
it('returns a rejected promise', () => Promise.reject(new RangeError('out of range')));
it('throws a string', () => { throw 'boom'; });
it('throws a number', () => { throw 42; });
it('throws an object', () => { throw { message: 'plain object', code: 7 }; });
it('throws null', () => { throw null; });
`);
    expect(result).toEqual({
      tests: [
        pass('async pass'),
        fail(['async fail'], 'expected 1 to be 2 // Object.is equality', { expected: '2', actual: '1' }),
        fail(['returns a rejected promise'], 'out of range', undefined, 'RangeError'),
        fail(['throws a string'], 'boom', undefined, 'Unknown Error'),
        fail(['throws a number'], '42', undefined, 'Unknown Error'),
        fail(['throws an object'], 'plain object', undefined, 'Unknown Error'),
        fail(['throws null'], 'null', undefined, 'Unknown Error'),
      ],
      errors: [],
    });
  });
});

describe('stacks and file errors', () => {
  it('keeps the test file’s frames and drops the shim’s own', () => {
    const result = runWithStacks(`import { it, expect } from 'vitest';
function checkTotal(total) {
  expect(total).toBe(107.09);
}
it('total', () => { checkTotal(107.07); });
it('awaited', async () => { await expect(Promise.resolve(1)).resolves.toBe(2); });
it('lazily compiled part', () => { expect.stringContaining(5); });
`);
    expect(result.tests.map((test) => test.error?.stack)).toEqual([
      '    at checkTotal (tests/x.test.js:3:21)\n    at <anonymous> (tests/x.test.js:5:31)\n',
      '    at <anonymous> (tests/x.test.js:6:61)\n',
      '    at <anonymous> (tests/x.test.js:7:59)\n',
    ]);
  });

  it('fails a file without tests as vitest does', () => {
    const result = runTestFile(`import { expect } from 'vitest';\n`, { filepath: '/repo/tests/x.test.js' });
    expect(result).toEqual({ tests: [], errors: [{ name: 'Error', message: 'No test suite found in file /repo/tests/x.test.js' }] });
  });

  it('reads other modules of the repository', () => {
    const modules = { './total.js': 'export const total = (items) => items.reduce((sum, item) => sum + item, 0);\n' };
    const result = runTestFile(
      `import { it, expect } from 'vitest';\nimport { total } from './total.js';\nit('sums', () => { expect(total([1, 2])).toBe(3); });\n`,
      { modules },
    );
    expect(result).toEqual({ tests: [pass('sums')], errors: [] });
  });
});
