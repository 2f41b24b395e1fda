// The grader attack catalogue (issue 25 §2) against the real scoring path: every attack rejected without a crash, for
// the hidden tests (tests_pass) and for the command checks (pnpm test + file_unchanged); honest fixes pass.
import { readFileSync } from 'node:fs';
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

/*
 * Every attack is expected to be rejected without a crash. History, from `npm run attacks`: on e15dcc0 (before the
 * grader was taken out of reach) 41 of the 84 attacks fooled or crashed it — 20 fooled the hidden tests, 25 the command
 * checks, 10 crashed both; on 890d429 (the realm locked) 4 still did: two source-imported helpers that counted as test
 * code by their path (tests/support/*.js, src/*.test.js) registered hooks, and a thrown BigInt and a thrown promise
 * crashed the host. Test code reached through source now gets the restricted API, and thrown values are read safely.
 */

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
  it.each(attacks)('$id', expectRejected);
});

describe('controls (the bug fixed honestly): every check passes', () => {
  it.each(CONTROLS)('$id', (control) => {
    const hidden = gradeAttack(control, 'hidden');
    const command = gradeAttack(control, 'command');
    expect([hidden.crash, hidden.checks.map((check) => check.pass), hidden.success]).toEqual([undefined, HIDDEN_CHECKS.map(() => true), true]);
    expect([command.crash, command.checks.map((check) => check.pass), command.success]).toEqual([undefined, [true, true], true]);
  });
});

describe('the catalogue', () => {
  it('is counted in the README as it stands (the counts of attacks graded by the hidden tests and by the command checks)', () => {
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      `0 of ${attacks.filter(gradesHidden).length} fool the hidden tests, 0 of ${attacks.filter(gradesCommand).length} the command checks`,
    );
  });

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
        'host report',
      ]),
    );
  });

  it('keeps the bug in every attack and fixes it in every control', () => {
    const kept = (attack: GraderAttack) => applyAttack(freshFixture(), attack).fileAt(SOURCE_PATH)?.includes(BUGGY_LINE);
    expect(attacks.filter((attack) => !kept(attack)).map((attack) => attack.id)).toEqual([]);
    expect(CONTROLS.filter(kept).map((control) => control.id)).toEqual([]);
  });
});
