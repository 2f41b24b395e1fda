// The esbuild entry of the sandbox's matcher libraries: real chai 6, @vitest/expect, @vitest/spy and @vitest/utils, set up as vitest 4.1.12 does.
//
// Bundled by scripts/build-sandbox-vitest.ts into dist/sandbox-vitest-libraries.js, evaluated by QuickJS once per engine
// before the `vitest` module (src/sim-repo/sandbox/vitest-api.ts), which takes `__stratbench_vitest_libraries__` and
// deletes the global. The bundle runs with a private `globalThis` (an object inheriting from the real one), so the
// symbol-keyed state @vitest/expect keeps on the global (matchers, custom equality testers, expect states) is out of
// repository code's reach; see docs/decisions/0043-real-vitest-matchers-in-the-sandbox.md.
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  ChaiStyleAssertions,
  GLOBAL_EXPECT,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  addCustomEqualityTesters,
  chai,
  customMatchers,
  getState,
  setState,
} from '@vitest/expect';
import { createMockInstance, fn, isMockFunction, spyOn, clearAllMocks, resetAllMocks, restoreAllMocks } from '@vitest/spy';
import { inspect } from '@vitest/utils/display';
import { processError } from '@vitest/utils/error';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  getCurrentTest,
  it,
  onTestFailed,
  onTestFinished,
  startTests,
  suite,
  test,
} from '@vitest/runner';
import { setSafeTimers } from '@vitest/utils/timers';
import { disableDefaultColors } from 'tinyrainbow';

/** Declared by the bundle's wrapper (scripts/build-sandbox-vitest.ts): asymmetric matchers that may decide from the received side. */
declare const __stratbench_genuine_matchers: WeakSet<object>;

// vitest's reporters print messages without colour when the output is not a terminal (the JSON report the tests read).
disableDefaultColors();
// @vitest/runner's timeouts use the timers vitest's worker captures first (setSafeTimers): here the sandbox's virtual
// timers as the snapshot has them, kept on the bundle's private global, so repository code replacing the realm's
// setTimeout cannot disarm a test's timeout.
setSafeTimers();

// node_modules/vitest/dist/chunks/test.*.js, vitest 4.1.12: the plugins, in this order (SnapshotPlugin has no sandbox use).
chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(ChaiStyleAssertions);
chai.use(JestAsymmetricMatchers);

/** The runner's current test as @vitest/expect reads it (flag `vitest-test`: soft errors, unawaited promises). */
export interface SandboxTest {
  type: 'test';
  fullTestName: string;
  promises?: Promise<unknown>[];
  result?: { state: string; errors?: unknown[] };
  onFinished?: Array<() => unknown>;
}
type Expect = ((value: unknown, message?: string) => unknown) & Record<string, unknown>;
type Factories = Record<string, (...args: never[]) => unknown>;
interface ExpectState {
  assertionCalls: number;
  currentTestName?: string;
  expectedAssertionsNumber: number | null;
  expectedAssertionsNumberErrorGen: (() => Error) | null;
  isExpectingAssertions: boolean;
  isExpectingAssertionsError: Error | null;
}
// @vitest/expect types these with its full ExpectStatic; the sandbox's expect is built field by field like vitest's.
const stateOf = getState as unknown as (expect: Expect) => ExpectState | undefined;
const updateState = setState as unknown as (state: object, expect: Expect) => void;

/** The factories JestAsymmetricMatchers adds to chai.expect (@vitest/expect 4.1.12), with a sample argument each. */
const ASYMMETRIC_SAMPLES: Record<string, unknown[]> = {
  anything: [],
  any: [Number],
  stringContaining: [''],
  objectContaining: [{}],
  arrayContaining: [[]],
  stringMatching: [''],
  closeTo: [0],
  schemaMatching: [{ '~standard': { version: 1, vendor: 'stratbench', validate: (value: unknown) => ({ value }) } }],
};
const chaiFactories = chai.expect as unknown as Factories & { not: Factories };
/** The `this` source code's factories run with (chai's addMethod wrapper records flags on it; source's expect is frozen). */
const sourceReceiver = {};

/** The asymmetric matcher factories as JestAsymmetricMatchers made them: what source code's expect gets (not genuine). */
export const sourceAsymmetric: { factories: Factories; not: Factories } = {
  factories: Object.fromEntries(Object.keys(ASYMMETRIC_SAMPLES).map((name) => [name, (...args: never[]) => chaiFactories[name]!.apply(sourceReceiver, args)])),
  not: { ...chaiFactories.not },
};

/** Registers what an asymmetric factory made as genuine (it may decide an equality from the received side). */
function genuine<T extends (...args: never[]) => unknown>(factory: T): T {
  return function (this: unknown, ...args: Parameters<T>) {
    const made = factory.apply(this, args);
    if (typeof made === 'object' && made !== null) __stratbench_genuine_matchers.add(made);
    return made;
  } as T;
}

/**
 * vitest's createExpect (test.*.js, 4.1.12) without expect.poll (no sandbox use) and with the worker's state reduced to
 * the current test: `getCurrentTest()` supplies what the worker's state would. `test` given: a test context's local expect.
 */
export function createExpect(getCurrentTest: () => SandboxTest | null, test?: SandboxTest): Expect {
  const expect = ((value: unknown, message?: string) => {
    const { assertionCalls } = stateOf(expect)!;
    updateState({ assertionCalls: assertionCalls + 1 }, expect);
    const assertion = chai.expect(value, message) as unknown as { withTest(test: SandboxTest): unknown };
    const current = test ?? getCurrentTest();
    return current ? assertion.withTest(current) : assertion;
  }) as Expect;
  Object.assign(expect, chai.expect);
  for (const name of Object.keys(ASYMMETRIC_SAMPLES)) expect[name] = genuine(chaiFactories[name]!);
  // Asymmetric forms of expect.extend's matchers, kept on the global as vitest's createExpect copies them.
  const asymmetric = (globalThis as unknown as Record<symbol, Factories>)[ASYMMETRIC_MATCHERS_OBJECT]!;
  for (const [name, factory] of Object.entries(asymmetric)) expect[name] = genuine(factory);
  // Its own `not` (vitest shares chai.expect.not, which is frozen here): expect.extend defines its negated matchers on it.
  expect['not'] = Object.fromEntries(Object.entries(sourceAsymmetric.not).map(([name, factory]) => [name, genuine(factory)]));
  expect['getState'] = () => stateOf(expect);
  expect['setState'] = (state: object) => updateState(state, expect);
  const globalState = stateOf((globalThis as unknown as Record<symbol, Expect>)[GLOBAL_EXPECT]!) ?? ({} as Partial<ExpectState>);
  updateState(
    {
      ...globalState,
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName: test ? test.fullTestName : globalState.currentTestName,
    },
    expect,
  );
  expect['assert'] = chai.assert;
  expect['extend'] = (matchers: object) => (chai.expect as unknown as { extend(expect: Expect, matchers: object): void }).extend(expect, matchers);
  expect['addEqualityTesters'] = (testers: never[]) => addCustomEqualityTesters(testers);
  expect['soft'] = (value: unknown, message?: string) => (expect(value, message) as { withContext(context: object): unknown }).withContext({ soft: true });
  expect['unreachable'] = (message?: string) => {
    chai.assert.fail(`expected${message ? ` "${message}" ` : ' '}not to be reached`);
  };
  function assertions(expected: number): void {
    const errorGen = () => new Error(`expected number of assertions to be ${expected}, but got ${stateOf(expect)!.assertionCalls}`);
    updateState({ expectedAssertionsNumber: expected, expectedAssertionsNumberErrorGen: errorGen }, expect);
  }
  function hasAssertions(): void {
    updateState({ isExpectingAssertions: true, isExpectingAssertionsError: new Error('expected any number of assertion, but got none') }, expect);
  }
  chai.util.addMethod(expect, 'assertions', assertions);
  chai.util.addMethod(expect, 'hasAssertions', hasAssertions);
  (expect['extend'] as (matchers: object) => void)(customMatchers);
  return expect;
}

/** vitest's global expect (GLOBAL_EXPECT), made once: the runner resets its state before every test as vitest's does. */
export function createGlobalExpect(getCurrentTest: () => SandboxTest | null): Expect {
  const expect = createExpect(getCurrentTest);
  Object.defineProperty(globalThis, GLOBAL_EXPECT, { value: expect, writable: true, configurable: true });
  return expect;
}

/** Resets the global expect's per-test state (vitest's TestRunner.onBeforeTryTask). */
export function resetExpectState(expect: Expect, currentTestName: string): void {
  updateState(
    {
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName,
    },
    expect,
  );
}

/** vitest's TestRunner.onAfterTryTask: the error expect.assertions / hasAssertions asks for, if any. */
export function assertionCountError(expect: Expect): Error | undefined {
  const state = stateOf(expect)!;
  if (state.expectedAssertionsNumber !== null && state.assertionCalls !== state.expectedAssertionsNumber) return state.expectedAssertionsNumberErrorGen!();
  if (state.isExpectingAssertions && state.assertionCalls === 0) return state.isExpectingAssertionsError!;
  return undefined;
}

/**
 * Locks what grades a test against repository code (docs/decisions/0043): every existing member of chai's
 * Assertion.prototype becomes non-writable and non-configurable (the prototype stays extensible, so a test file's
 * expect.extend adds new matchers as in vitest; chai 6 keeps an assertion's flags in an own `__flags` class field, so
 * nothing planted on the prototype is read for them), and chai's namespaces, config, Assertion, AssertionError,
 * chai.expect, chai.assert and the asymmetric matchers' classes freeze.
 */
export function lockMatchers(): void {
  const prototype = chai.Assertion.prototype as object;
  for (const key of Reflect.ownKeys(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    Object.defineProperty(prototype, key, 'value' in descriptor ? { writable: false, configurable: false } : { configurable: false });
  }
  const frozen: object[] = [chai, chai.util, chai.config, chai.config.proxyExcludedKeys, chai.Assertion, chai.AssertionError, chai.AssertionError.prototype];
  frozen.push(chai.expect, (chai.expect as unknown as { not: object }).not, chai.assert);
  for (const [name, sample] of Object.entries(ASYMMETRIC_SAMPLES)) {
    const made = sourceAsymmetric.factories[name]!(...(sample as never[]));
    for (let link = Object.getPrototypeOf(made); link !== null && link !== Object.prototype; link = Object.getPrototypeOf(link))
      frozen.push(link, link.constructor);
  }
  for (const object of frozen) Object.freeze(object);
}

/** Whether a name was on chai's Assertion.prototype before test code's expect.extend added any (a built-in matcher or property). */
export function isBuiltInMatcher(name: string, addedByTests: ReadonlySet<string>): boolean {
  return Object.hasOwn(chai.Assertion.prototype, name) && !addedByTests.has(name);
}

/**
 * vi.spyOn. `intrinsicSlot(object, key)`, given only for test code, returns a `{ set, restore }` slot when the property
 * is a locked intrinsic (src/sim-repo/sandbox/lockdown.ts), where @vitest/spy's redefinition would be refused.
 */
export function spyOnWithSlot(
  object: Record<PropertyKey, unknown>,
  key: PropertyKey,
  accessor: 'get' | 'set' | undefined,
  intrinsicSlot?: (object: object, key: PropertyKey) => { set(value: unknown): void; restore(): void } | undefined,
): unknown {
  const slot = accessor === undefined && intrinsicSlot !== undefined && object != null ? intrinsicSlot(object, key) : undefined;
  if (slot === undefined) return (spyOn as (object: unknown, key: PropertyKey, accessor?: string) => unknown)(object, key, accessor);
  const original = object[key] as (...args: unknown[]) => unknown;
  if (isMockFunction(original)) return original;
  const mock = createMockInstance({ restore: () => slot.restore(), originalImplementation: original, resetToMockName: true });
  Object.defineProperty(mock, 'name', { value: String(key) });
  slot.set(mock);
  return mock;
}

export {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  chai,
  clearAllMocks,
  describe,
  fn,
  getCurrentTest,
  inspect,
  isMockFunction,
  it,
  onTestFailed,
  onTestFinished,
  processError,
  resetAllMocks,
  restoreAllMocks,
  startTests,
  suite,
  test,
};
