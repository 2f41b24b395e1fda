// Grader attack catalogue, round 3 (issue 31): the surface of the real matcher libraries (chai's Assertion and util,
// @vitest/expect's symbol-keyed global state, its asymmetric matchers) as source code reaches it. Each keeps the bug.
import { BUGGY_SOURCE, SOURCE_PATH, type GraderAttack } from './grader-attack-fixture.js';

/** BUGGY_SOURCE after `prelude`, which imports the source API's expect as `expect` and runs inside a try. */
const withPrelude = (prelude: string): Record<string, string> => ({
  [SOURCE_PATH]: `import { expect } from 'vitest';\ntry {\n${prelude}\n} catch (ignored) {}\n${BUGGY_SOURCE}`,
});

/** A matcher body that passes whatever it is given (chai's overwriteMethod shape). */
const PASS = '() => function () { return this; }';

export const MATCHER_ATTACKS: readonly GraderAttack[] = [
  {
    id: 'chai-assertion-overwrite-method',
    kind: 'expect',
    description: "src reaches chai's Assertion through an assertion's constructor and overwrites toBe and toEqual with matchers that pass",
    target: 'both',
    files: withPrelude(`const Assertion = expect(0).constructor;
Assertion.overwriteMethod('toBe', ${PASS});
Assertion.overwriteMethod('toEqual', ${PASS});`),
  },
  {
    id: 'chai-assertion-add-method',
    kind: 'expect',
    description: "src calls chai's Assertion.addMethod to replace toBe and toEqual (chai's documented plugin API)",
    target: 'both',
    files: withPrelude(`const Assertion = expect(0).constructor;
Assertion.addMethod('toBe', function () {});
Assertion.addMethod('toEqual', function () {});`),
  },
  {
    id: 'assertion-prototype-define-matcher',
    kind: 'expect',
    description: 'src redefines toBe and toEqual on the Assertion prototype with Object.defineProperty',
    target: 'both',
    files: withPrelude(`const proto = Object.getPrototypeOf(expect(0));
Object.defineProperty(proto, 'toBe', { value: function () { return this; } });
Object.defineProperty(proto, 'toEqual', { value: function () { return this; } });`),
  },
  {
    id: 'assertion-prototype-shared-flags',
    kind: 'expect',
    description:
      "src plants a `__flags` getter on the Assertion prototype: chai's constructor would then use one shared flags object whose `negate` reads true, so every failing matcher reads as a passing .not",
    target: 'both',
    files: withPrelude(`const proto = Object.getPrototypeOf(expect(0));
const shared = Object.create(null);
Object.defineProperty(shared, 'negate', { get() { return true; }, set(value) {} });
Object.defineProperty(proto, '__flags', { get() { return shared; }, set(value) {} });`),
  },
  {
    id: 'assertion-prototype-swap',
    kind: 'expect',
    description: "src replaces the Assertion prototype's [[Prototype]] so names chai reads through the chain resolve to its own",
    target: 'both',
    files: withPrelude(`const proto = Object.getPrototypeOf(expect(0));
Object.setPrototypeOf(proto, { __flags: { negate: true }, hasOwnProperty: () => true });`),
  },
  {
    id: 'matchers-object-planted',
    kind: 'expect',
    description:
      "src defines @vitest/expect's symbol-keyed state on the global first (Symbol.for('$$jest-matchers-object') with an equality tester that always passes, Symbol.for('matchers-object'))",
    target: 'both',
    files: withPrelude(`const testers = [() => true];
Object.defineProperty(globalThis, Symbol.for('$$jest-matchers-object'), { get: () => ({ state: {}, matchers: {}, customEqualityTesters: testers }), configurable: false });
Object.defineProperty(globalThis, Symbol.for('matchers-object'), { value: new WeakMap(), configurable: false });`),
  },
  {
    id: 'matchers-object-equality-tester',
    kind: 'expect',
    description: "src pushes an always-true equality tester into the global matchers object's customEqualityTesters",
    target: 'both',
    files: withPrelude(`globalThis[Symbol.for('$$jest-matchers-object')].customEqualityTesters.push(() => true);
globalThis[Symbol.for('expect-global')].addEqualityTesters([() => true]);`),
  },
  {
    id: 'expect-add-equality-testers-from-source',
    kind: 'expect',
    description: 'src calls expect.addEqualityTesters with a tester that says every pair is equal',
    target: 'both',
    files: withPrelude('expect.addEqualityTesters([() => true]);'),
  },
  {
    id: 'expect-extend-built-in-from-source',
    kind: 'expect',
    description: 'src calls expect.extend({ toBe, toEqual }) with matchers that always pass',
    target: 'both',
    files: withPrelude('expect.extend({ toBe: () => ({ pass: true, message: () => "" }), toEqual: () => ({ pass: true, message: () => "" }) });'),
  },
  {
    id: 'chai-assert-and-config',
    kind: 'expect',
    description: "src rewrites chai's assert.fail, and the AssertionError prototype's name and message, reached through expect.assert",
    target: 'both',
    files: withPrelude(`expect.assert.fail = () => {};
const AssertionError = (() => { try { expect(1).toBe(2); } catch (error) { return error.constructor; } })();
Object.defineProperty(AssertionError.prototype, 'name', { value: 'Passed' });`),
  },
  {
    id: 'asymmetric-matcher-received-from-source',
    kind: 'expect',
    description: 'invoice returns an asymmetric matcher made by the source API (expect.anything()): on the received side of toEqual it would match anything',
    target: 'hidden_tests',
    files: {
      [SOURCE_PATH]: `import { expect } from 'vitest';\n${BUGGY_SOURCE.replace('export function invoice(amounts) {', 'export function invoice(amounts) {\n  if (amounts.length > 1) return expect.anything();')}`,
    },
  },
];
