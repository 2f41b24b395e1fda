// How the attribution rules read answer and stop-message checks: described in words, matched as the check matches.
import { describe, expect, it } from 'vitest';
import { describeWords, showsWords } from '../src/attribution/word-checks.js';

describe('describeWords', () => {
  it('names the text, the alternatives or the pattern with its flags, and whole-token matching', () => {
    expect(
      [
        { check: 'message_mentions', text: 'API_TOKEN' },
        { check: 'message_mentions', any_of: ['no-unused-vars', 'assigned a value but never used'], exact_token: true },
        { check: 'answer_contains', pattern: 'EUR|€' },
        { check: 'answer_contains', pattern: '^v20\\.', flags: 'm' },
        { check: 'answer_contains' },
      ].map(describeWords),
    ).toEqual(['"API_TOKEN"', 'any of "no-unused-vars", "assigned a value but never used" as a whole token', '/EUR|€/i', '/^v20\\./m', 'answer_contains']);
  });
});

describe('showsWords', () => {
  it('matches as the check does: normalised and case-insensitive text, any alternative, the pattern, whole tokens', () => {
    const output = 'src/pricing.js\n  3:7  error  `rate` is assigned a value but never used  no-unused-vars-extra';
    expect(showsWords(output, { text: 'IS ASSIGNED A VALUE' })).toBe(true);
    expect(showsWords(output, { any_of: ['no-console', 'never used'] })).toBe(true);
    expect(showsWords(output, { pattern: 'no-unused-vars\\b', flags: '' })).toBe(true);
    expect(showsWords(output, { text: 'no-unused-vars', exact_token: true })).toBe(false);
    expect(showsWords(output, { pattern: 'NO-UNUSED', flags: '' })).toBe(false);
  });

  it('is false for a check without usable words or with a pattern that does not compile', () => {
    expect(showsWords('anything', { check: 'answer_contains' })).toBe(false);
    expect(showsWords('anything', { any_of: [] })).toBe(false);
    expect(showsWords('a(', { pattern: 'a(' })).toBe(false);
  });
});
