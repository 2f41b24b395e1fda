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
 * The attacks that fool or crash the grader as committed today (`npm run attacks` on 3a6cbd0, the grader of 890d429):
 * each runs as `it.fails` until the grader resists it, so the suite stays green; an attack that stops fooling shows
 * up as a failing `it.fails`, and its line goes. (Before 890d429, on e15dcc0, 41 of the 84 attacks fooled or crashed
 * it: 20 fooled the hidden tests, 25 the command checks, 10 crashed both.)
 */
const KNOWN_FOOLING: Readonly<Record<string, string>> = {
  'helper-in-tests-folder-registers-hook':
    'command: tests/support/warm-cache.js is test code by its folder, so the vitest it imports may register hooks; imported from src, its beforeEach replaces every test fn of the visible file (exit 0, the test file unchanged)',
  'helper-named-like-a-test-registers-hook':
    'command: src/cache.test.js is test code by its name; imported from src, its beforeEach replaces every test fn of the visible file (exit 0)',
  'throw-bigint-at-import':
    'crash (hidden and command): the host formats the thrown value with JSON.stringify, which throws on a BigInt (code worker failed: TypeError: Do not know how to serialize a BigInt)',
  'throw-promise-at-import':
    "crash (hidden and command): quickjs-emscripten's dump of a promise disposes its handle; the second dump of the thrown value fails (code worker failed: QuickJSUseAfterFree: Lifetime not alive)",
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
