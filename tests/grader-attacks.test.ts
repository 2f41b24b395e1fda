// The grader attack catalogue (issue 25 §2) against the real scoring path: every attack rejected without a crash, for
// the hidden tests (tests_pass) and for the command checks (pnpm test + file_unchanged); honest fixes pass.
import { describe, expect, it } from 'vitest';
import {
  BUGGY_LINE,
  CONTROLS,
  GRADER_ATTACKS,
  type GraderAttack,
  gradeAttack,
  gradesCommand,
  gradesHidden,
  HIDDEN_CHECKS,
  SOURCE_PATH,
  applyAttack,
  freshFixture,
} from './support/grader-attacks.js';

/**
 * The attacks that fool or crash the grader as committed today (`npm run attacks` on e15dcc0): each runs as
 * `it.fails` until the grader resists it. The grader's rebuild (issue 25 §1) empties this list; an attack that stops
 * fooling shows up as a failing `it.fails`, and its line goes.
 */
const KNOWN_FOOLING: Readonly<Record<string, string>> = {
  'runner-wrap-launder': 'hidden + command: the wrapped __vitest_run__ resolves with every test passed',
  'runner-getter-on-global': 'hidden + command: an accessor on globalThis hands the host a laundering wrapper',
  'runner-replace-fixed-json': 'hidden + command: the host trusts whatever JSON the global entry returns',
  'json-stringify-launder-deferred': 'hidden + command: JSON.stringify patched from a microtask launders the result',
  'json-stringify-launder': 'hidden + command: the runner serialises with the global JSON.stringify',
  'json-parse-options-skip-all': 'command: the runner parses its options with the global JSON.parse; all skipped exits 0',
  'json-stringify-non-json': 'crash: JSON.parse of the run value throws in the host',
  'runner-returns-tests-null': "crash: report.tests.map on null (TypeError: Cannot read properties of null (reading 'map'))",
  'runner-returns-no-errors-field': 'crash: report.errors.length on undefined (TypeError)',
  'runner-returns-json-null': 'crash: report.tests on null (TypeError)',
  'runner-returns-path-not-array': 'crash: [file, ...test.path] on a number (TypeError: test.path is not iterable)',
  'runner-returns-numeric-diff': 'crash: renderTestRun splits a numeric expected (TypeError: text.split is not a function)',
  'object-is-always-true': 'hidden + command: toBe and equals use the global Object.is (also fools real vitest)',
  'object-assign-wraps-test-fn': 'hidden + command: runTest resets a test with the global Object.assign, which wraps its fn',
  'prototype-state-accessor': 'hidden + command: test records have no own state, so Object.prototype.state answers "pass"',
  'prototype-fails-getter': 'hidden: registration reads flags.fails through Object.prototype; every test is inverted',
  'prototype-skipped-getter': 'command: every test reads as skipped; a run of skipped tests exits 0',
  'prototype-tojson-launder': 'hidden + command: JSON.stringify calls Object.prototype.toJSON on the result',
  'prototype-result-field-accessors': "crash: errors pushed into a prototype getter's array reach shimError as undefined (TypeError: reading 'name')",
  'array-push-wraps-test-fn': 'hidden + command: registration pushes test records with the global push, which wraps their fn',
  'array-push-launder': 'hidden + command: the report is built with the global push, which launders each entry',
  'array-every-true': 'command: the file suite reads as all-skipped, no test runs, states are neither passed nor failed: exit 0',
  'array-some-true': 'command: the runner believes a test is .only; every test skipped; exit 0',
  'function-call-hasown-false': 'hidden (the toEqual test): equality reads own keys through hasOwnProperty.call',
  'expect-extend-tobe-toequal': 'hidden + command: expect.extend from source replaces toBe and toEqual (also fools real vitest)',
  'expect-assert-noop': "hidden + command: the Assertion prototype's assert is writable from source",
  'duplicate-test-id-from-hook': 'hidden: a hook gets the live suite and appends passing twins; tests_pass keeps the last result of an id',
  'test-name-spells-hidden-id': "hidden: a top-level test named 'lineTax > rounds half a cent up' has the same id; the last result wins",
  'hook-rewrites-test-fns': 'hidden + command: a beforeEach from source gets the live suite and replaces every test fn',
  'helper-in-tests-folder-registers-hook': 'hidden + command: the helper imported from source registers the fn-replacing hook',
  'helper-named-like-a-test-registers-hook': 'hidden + command: the *.test.js module imported from source registers the fn-replacing hook',
  'only-from-source': 'command: it.only from source skips every test of the importing file; exit 0',
  'skip-from-source-hook': 'command: beforeEach(ctx => ctx.skip()) from source skips every test; exit 0',
  'on-test-failed-skip': 'command: a failure turned into a skip from source; exit 0',
  'assertion-error-as-skip-signal': "command: AssertionError made to inherit from the runner's skip signal; failures read as skips",
  'skip-signal-hasinstance': "command: Symbol.hasInstance on the skip signal's class makes every error a skip",
  'throw-bigint-at-import': 'crash: the host formats the thrown BigInt with JSON.stringify (code worker failed: TypeError)',
  'throw-bigint-from-runner': 'crash: the run rejects with a BigInt; same JSON.stringify in the host',
  'throw-promise-at-import': "crash: QuickJS's dump of a thrown promise disposes its handle, the second dump fails (QuickJSUseAfterFree)",
};

/** A safety net only (an attack runs a few sandboxed files; the limits ones stop at the operation budget): ms. */
const TIMEOUT_MS = 120_000;

const attacks = GRADER_ATTACKS.filter((attack) => attack.control !== true);

/** Every check the attack's target names runs without an exception, and the grade fails. */
function expectRejected(attack: GraderAttack): void {
  if (gradesHidden(attack)) {
    const hidden = gradeAttack(attack, 'hidden');
    expect(hidden.crash).toBeUndefined();
    // No hidden test id may pass on the bug: each tests_pass check fails, and so does the score.
    expect(hidden.checks.map((check) => check.pass)).toEqual(HIDDEN_CHECKS.map(() => false));
    expect(hidden.success).toBe(false);
  }
  if (gradesCommand(attack)) {
    const command = gradeAttack(attack, 'command');
    expect(command.crash).toBeUndefined();
    expect(command.checks.some((check) => !check.pass)).toBe(true);
    expect(command.success).toBe(false);
  }
}

describe('grader attacks (the bug kept): rejected, no crash', () => {
  it.each(attacks.filter((attack) => !(attack.id in KNOWN_FOOLING)))('$id', expectRejected, TIMEOUT_MS);
  it.fails.each(attacks.filter((attack) => attack.id in KNOWN_FOOLING))('$id (KNOWN_FOOLING: fools or crashes the grader today)', expectRejected, TIMEOUT_MS);
});

describe('controls (the bug fixed honestly): every check passes', () => {
  it.each(CONTROLS)(
    '$id',
    (control) => {
      const hidden = gradeAttack(control, 'hidden');
      const command = gradeAttack(control, 'command');
      expect([hidden.crash, hidden.checks.map((check) => check.pass), hidden.success]).toEqual([undefined, HIDDEN_CHECKS.map(() => true), true]);
      expect([command.crash, command.checks.map((check) => check.pass), command.success]).toEqual([undefined, [true, true], true]);
    },
    TIMEOUT_MS,
  );
});

describe('the catalogue', () => {
  it('holds at least 32 attacks and 2 controls, ids unique, every kind of issue 25 §2 present', () => {
    const ids = GRADER_ATTACKS.map((attack) => attack.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(attacks.length).toBeGreaterThanOrEqual(32);
    expect(CONTROLS.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attacks.map((attack) => attack.kind))).toEqual(
      new Set([
        'runner entry',
        'test file patches runner',
        'json',
        'unreadable result',
        'object',
        'prototype accessor',
        'throwing getter',
        'array',
        'promise',
        'function',
        'expect',
        'test registration',
        'error spoofing',
        'unserialisable value',
        'process exit',
        'timers',
        'limits',
        'fake output',
        'config excludes',
        'shadow vitest',
        'path trick',
      ]),
    );
  });

  it('keeps the bug in every attack and fixes it in every control', () => {
    const kept = (attack: GraderAttack) => applyAttack(freshFixture(), attack).fileAt(SOURCE_PATH)?.includes(BUGGY_LINE);
    expect(attacks.filter((attack) => !kept(attack)).map((attack) => attack.id)).toEqual([]);
    expect(CONTROLS.filter(kept).map((control) => control.id)).toEqual([]);
  });

  it('names in KNOWN_FOOLING only attacks of the catalogue', () => {
    expect(Object.keys(KNOWN_FOOLING).filter((id) => !attacks.some((attack) => attack.id === id))).toEqual([]);
  });
});
