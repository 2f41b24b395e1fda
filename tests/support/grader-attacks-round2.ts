// Grader attack catalogue, round 2 (issue 25 §2): attacks found against the locked grader of 0024 (the realm locked,
// the restricted vitest API for source, pristine test code for hidden tests), and controls — honest fixes plus
// ordinary JavaScript — that the lockdown refuses although Node 20 and real vitest run them. Each attack keeps the bug
// of GRADER_FIXTURE; each control fixes it. Found failing when added (see the commit that added this file).
import { BUGGY_SOURCE, FIXED_SOURCE, SOURCE_PATH, type GraderAttack } from './grader-attack-fixture.js';

/** A hook body that marks every test of the file passed (the suite tree is reachable from a hook's second argument). */
const PASS_EVERY_TEST = `(context, suite) => {
  let top = suite;
  while (top.suite) top = top.suite;
  const walk = (node) => { for (const task of node.tasks) { if (task.type === 'suite') walk(task); else { task.state = 'pass'; task.errors = []; } } };
  walk(top);
}`;

/** Attacks that fool or hang the locked grader. */
export const ROUND2_ATTACKS: readonly GraderAttack[] = [
  {
    id: 'assertion-proto-negate-accessor',
    kind: 'expect',
    description:
      "src adds accessors for the instance fields `_negate` (always true) and `_obj` (a fresh object) to Assertion.prototype, which is still extensible: the constructor's `this._negate = false` hits the setter, every comparison fails, and every failure reads as a passing `.not`",
    target: 'both',
    files: {
      [SOURCE_PATH]: `import { expect } from 'vitest';
const __assertionProto = Object.getPrototypeOf(expect(0));
Object.defineProperty(__assertionProto, '_negate', { get() { return true; }, set(value) {} });
Object.defineProperty(__assertionProto, '_obj', { get() { return {}; }, set(value) {} });
${BUGGY_SOURCE}`,
    },
  },
  {
    id: 'assertion-proto-prototype-swap',
    kind: 'expect',
    description:
      'src replaces the [[Prototype]] of Assertion.prototype (not locked, extensible) with an object holding the same two accessors: the instance fields resolve through it',
    target: 'both',
    files: {
      [SOURCE_PATH]: `import { expect } from 'vitest';
const __assertionProto = Object.getPrototypeOf(expect(0));
const __fields = Object.create(Object.prototype, {
  _negate: { get() { return true; }, set(value) {} },
  _obj: { get() { return {}; }, set(value) {} },
});
Object.setPrototypeOf(__assertionProto, __fields);
${BUGGY_SOURCE}`,
    },
  },
  {
    id: 'bracket-named-module-full-vitest-api',
    kind: 'test registration',
    description:
      "a root module named '[setup].js', imported by src: the module loader treats an importer whose name starts with '[' as the harness's own code, so its `import 'vitest'` gets the full API; its afterEach hook reaches the suite tree and marks every test passed",
    target: 'both',
    files: {
      '[setup].js': `import { afterEach } from 'vitest';\nafterEach(${PASS_EVERY_TEST});\n`,
      [SOURCE_PATH]: `import '../[setup].js';\n${BUGGY_SOURCE}`,
    },
  },
  {
    id: 'bracket-named-module-replaces-test-fns',
    kind: 'test registration',
    description:
      "the same '[…].js' loophole, with a beforeAll hook that replaces every registered test's function by a no-op (the suite is the hook's argument)",
    target: 'both',
    files: {
      '[hooks].js': `import { beforeAll } from 'vitest';
beforeAll((suite) => {
  const walk = (node) => { for (const task of node.tasks) { if (task.type === 'suite') walk(task); else task.fn = () => {}; } };
  walk(suite);
});
`,
      [SOURCE_PATH]: `import '../[hooks].js';\n${BUGGY_SOURCE}`,
    },
  },
  {
    id: 'actual-claims-asymmetric',
    kind: 'object',
    description:
      'invoice() returns its (wrong) totals plus an `asymmetricMatch: () => true` method: equals() treats the actual as an asymmetric matcher and lets it decide toEqual (real vitest is fooled the same way; the value is not equal)',
    target: 'hidden_tests',
    files: {
      [SOURCE_PATH]: BUGGY_SOURCE.replace(
        'return { net: cents(net), tax: cents(tax), total: cents(net + tax) };',
        'return { net: cents(net), tax: cents(tax), total: cents(net + tax), asymmetricMatch: () => true };',
      ),
    },
  },
  {
    id: 'dynamic-import-loop-uncharged',
    kind: 'limits',
    description:
      "src awaits import() of a new missing module in an endless loop: the module loader's host work (resolution tries 14 paths per specifier) is not charged to the operation budget, so the run ends only at the 10 s host-time limit (the verdict depends on the machine's speed)",
    target: 'both',
    files: {
      [SOURCE_PATH]: `let __n = 0;
for (;;) { try { await import('./missing-' + __n++); } catch (ignored) {} }
${BUGGY_SOURCE}`,
    },
  },
];

/** Honest fixes with ordinary code that Node 20 and real vitest run: their grade must pass. */
export const ROUND2_CONTROLS: readonly GraderAttack[] = [
  {
    id: 'control-symbol-dispose-polyfill',
    kind: 'control',
    description:
      "the fix, plus TypeScript's documented polyfill for `using` at the top of the module (`Symbol.dispose ??= Symbol(...)`): a no-op on Node 20, which has Symbol.dispose; QuickJS lacks it and Symbol is frozen, so the import throws",
    target: 'both',
    control: true,
    files: {
      [SOURCE_PATH]: `Symbol.dispose ??= Symbol('Symbol.dispose');\nSymbol.asyncDispose ??= Symbol('Symbol.asyncDispose');\n${FIXED_SOURCE}`,
    },
  },
  {
    id: 'control-error-stack-trace-limit',
    kind: 'control',
    description: 'the fix, plus `Error.stackTraceLimit = 50` at module load (CLI tools do it for longer traces): Node allows it; the frozen Error throws',
    target: 'both',
    control: true,
    files: { [SOURCE_PATH]: `Error.stackTraceLimit = 50;\n${FIXED_SOURCE}` },
  },
  {
    id: 'control-extend-in-before-each',
    kind: 'control',
    description:
      'the fix, plus a new test file that registers its own matcher with expect.extend in beforeEach (so twice): real vitest re-registers it; the grader reports the second call as replacing a built-in matcher (tampered_grader)',
    target: 'both',
    control: true,
    files: {
      [SOURCE_PATH]: FIXED_SOURCE,
      'tests/cents.test.js': `import { beforeEach, describe, expect, it } from 'vitest';
import { lineTax } from '../src/pricing.js';

const toBeWholeCents = (received) => ({
  pass: Math.abs(received * 100 - Math.round(received * 100)) < 1e-9,
  message: () => 'expected ' + received + ' to be a whole number of cents',
});
beforeEach(() => {
  expect.extend({ toBeWholeCents });
});

describe('lineTax', () => {
  it('gives whole cents for 1.50', () => {
    expect(lineTax(1.5)).toBeWholeCents();
  });
  it('gives whole cents for 0.50', () => {
    expect(lineTax(0.5)).toBeWholeCents();
  });
});
`,
    },
  },
  {
    id: 'control-spy-on-json-parse',
    kind: 'control',
    description:
      "the fix, plus a new test that spies on JSON.parse (vi.spyOn(JSON, 'parse') … mockRestore) to check that lineTax parses nothing: real vitest allows it; the grader reports it as tampering",
    target: 'both',
    control: true,
    files: {
      [SOURCE_PATH]: FIXED_SOURCE,
      'tests/no-parse.test.js': `import { expect, it, vi } from 'vitest';
import { lineTax } from '../src/pricing.js';

it('computes the tax without parsing anything', () => {
  const parse = vi.spyOn(JSON, 'parse');
  expect(lineTax(1.5)).toBe(0.11);
  expect(parse).not.toHaveBeenCalled();
  parse.mockRestore();
});
`,
    },
  },
  {
    id: 'control-structured-clone-date',
    kind: 'control',
    description:
      "the fix, plus an invoice snapshot made with structuredClone and a test that its Date stays a Date: Node clones a Date as a Date; the sandbox's structuredClone is JSON.parse(JSON.stringify(…)) (a string; Map → {}, undefined dropped) — a prelude gap, not the lockdown",
    target: 'both',
    control: true,
    files: {
      [SOURCE_PATH]: `${FIXED_SOURCE}\nexport const snapshot = (order) => structuredClone(order);\n`,
      'tests/snapshot.test.js': `import { expect, it } from 'vitest';
import { snapshot } from '../src/pricing.js';

it('keeps the issue date a Date', () => {
  const copy = snapshot({ issued: new Date('2026-01-01T00:00:00Z'), lines: [1.5] });
  expect(copy.issued).toBeInstanceOf(Date);
  expect(copy.issued.getTime()).toBe(Date.UTC(2026, 0, 1));
});
`,
    },
  },
];
