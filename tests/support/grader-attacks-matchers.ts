// Grader attack catalogue, round 3 (issue 31): the surface of the real matcher libraries (chai's Assertion and util,
// @vitest/expect's symbol-keyed global state, its asymmetric matchers) as source code reaches it. Each keeps the bug,
// and each but expect-extend-built-in-from-source (stopped twice) fooled the grader when its defence was taken out
// (docs/decisions/0043 says which, and how it was checked).
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
    id: 'matchers-object-equality-tester',
    kind: 'expect',
    description: "src pushes an always-true equality tester into the global matchers object's customEqualityTesters",
    target: 'both',
    files: withPrelude("globalThis[Symbol.for('$$jest-matchers-object')].customEqualityTesters.push(() => true);"),
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
    id: 'asymmetric-matcher-received-from-source',
    kind: 'expect',
    description: 'invoice returns an asymmetric matcher made by the source API (expect.anything()): on the received side of toEqual it would match anything',
    target: 'hidden_tests',
    files: {
      [SOURCE_PATH]: `import { expect } from 'vitest';\n${BUGGY_SOURCE.replace('export function invoice(amounts) {', 'export function invoice(amounts) {\n  if (amounts.length > 1) return expect.anything();')}`,
    },
  },
  {
    id: 'global-url-hasinstance',
    kind: 'expect',
    description: "src plants globalThis.URL whose Symbol.hasInstance says yes: @vitest/expect's equals then compares the two values' href (both undefined)",
    target: 'hidden_tests',
    files: withPrelude('globalThis.URL = class { static [Symbol.hasInstance]() { return true; } };'),
  },
  {
    id: 'global-url-plain-prototype',
    kind: 'expect',
    description: 'src plants a plain function URL whose prototype is Object.prototype: every object is then an instance, and equals compares href',
    target: 'hidden_tests',
    files: withPrelude('function URL() {}\nURL.prototype = Object.prototype;\nglobalThis.URL = URL;'),
  },
];
