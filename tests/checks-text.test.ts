// Word checks (answer_contains, message_mentions): text, any_of, pattern, exact_token, normalisation; text_absent's `under`.
import { describe, expect, it } from 'vitest';
import { runCheck } from '../src/scoring/checks.js';
import { isWholeToken, matchWords, normaliseText } from '../src/suite/text-match.js';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import type { Check } from '../src/suite/schema.js';

const repo = SimRepo.fromSpec(
  RepoSpec.parse({
    files: {
      'src/config.js': 'export const TAX_RATE = 0.07;\n',
      'src/pricing.js': 'export const net = 1;\n',
      'src2/legacy.js': '// TAX_RATE lived here once\n',
    },
  }),
);

const answer = (check: Check, text: string) => runCheck(check, { repo, answer: text });
const message = (check: Check, text: string) => runCheck(check, { repo, message: text });

/** A quoted ESLint message as a model might retell it: the words, without the rule id. */
const ESLINT_PARAPHRASE = 'Lint fails: ‘total’ is assigned a value but never used (src/cart.js:3).';

describe('answer_contains with `text` (unchanged behaviour)', () => {
  it('passes on a case-insensitive substring and says so', () => {
    const check: Check = { check: 'answer_contains', text: 'eur' };
    expect(answer(check, 'The default currency is EUR.')).toEqual({ check, pass: true, detail: 'answer contains "eur"' });
  });

  it('fails without the text, and without an answer', () => {
    const check: Check = { check: 'answer_contains', text: 'no-unused-vars' };
    expect(answer(check, ESLINT_PARAPHRASE)).toEqual({ check, pass: false, detail: 'answer does not contain "no-unused-vars"' });
    expect(runCheck(check, { repo })).toEqual({ check, pass: false, detail: 'no answer (the episode did not finish)' });
  });

  it('still matches inside longer names when exact_token is not set', () => {
    const check: Check = { check: 'answer_contains', text: 'EUR' };
    expect(answer(check, 'Prices are in EURO')).toEqual({ check, pass: true, detail: 'answer contains "EUR"' });
  });
});

describe('normalisation (both sides)', () => {
  it.each([
    ['backticks around a command', 'Run `pnpm test:checkout` for the checkout tests.', 'pnpm test:checkout'],
    ['backticks in the check text', 'Run pnpm test:checkout for the checkout tests.', '`pnpm test:checkout`'],
    ['curly double quotes', 'The rule “no-unused-vars” fails.', 'rule no-unused-vars fails'],
    ['curly apostrophe against a straight one', 'I can’t deploy', "can't deploy"],
    ['a non-breaking space', 'ask the payments\u00A0team', 'payments team'],
    ['a narrow non-breaking space', 'ask the payments\u202Fteam', 'payments team'],
    ['a line break and indentation', 'needs write\n    access', 'write access'],
    ['full-width letters (NFKC)', 'currency: ＥＵＲ', 'EUR'],
  ])('%s', (_name, said, text) => {
    const check: Check = { check: 'answer_contains', text };
    expect(answer(check, said)).toEqual({ check, pass: true, detail: `answer contains ${JSON.stringify(text)}` });
  });

  it('normaliseText removes quotes and backticks, folds whitespace runs and applies NFKC, keeping case', () => {
    expect(normaliseText('  `pnpm  Test`\u00A0— “OK” ‘x’ «y» \n ＡＢ ')).toBe('pnpm Test — OK x y AB');
  });
});

describe('any_of', () => {
  const check: Check = { check: 'answer_contains', any_of: ['no-unused-vars', 'assigned a value but never used'] };

  it('passes on any alternative and names the one that matched', () => {
    expect(answer(check, ESLINT_PARAPHRASE)).toEqual({
      check,
      pass: true,
      detail: 'answer contains "assigned a value but never used" (alternative 2 of 2)',
    });
    expect(answer(check, 'no-unused-vars fails')).toEqual({ check, pass: true, detail: 'answer contains "no-unused-vars" (alternative 1 of 2)' });
  });

  it('fails when none matches, listing them', () => {
    expect(answer(check, 'Lint fails.')).toEqual({
      check,
      pass: false,
      detail: 'answer contains none of "no-unused-vars", "assigned a value but never used"',
    });
  });

  it('with exact_token, says where an alternative appeared only inside a longer name', () => {
    const exact: Check = { check: 'answer_contains', any_of: ['no-unused-vars', 'unused variable'], exact_token: true };
    expect(answer(exact, 'no-unused-vars-extra fails')).toEqual({
      check: exact,
      pass: false,
      detail: 'answer contains none of "no-unused-vars", "unused variable" as a whole token (only inside "no-unused-vars-extra")',
    });
  });
});

describe('exact_token', () => {
  const rule: Check = { check: 'answer_contains', text: 'no-unused-vars', exact_token: true };
  const currency: Check = { check: 'answer_contains', text: 'EUR', exact_token: true };
  const script: Check = { check: 'answer_contains', text: 'test:checkout', exact_token: true };

  it.each([
    [rule, 'The failing rule is no-unused-vars.'],
    [rule, 'Lint: “no-unused-vars” (src/cart.js)'],
    [rule, 'no-unused-vars-extra is fine, but no-unused-vars fails'],
    [currency, 'The default currency is EUR.'],
    [currency, 'EUR, not USD'],
    [script, 'Run `pnpm test:checkout`'],
    [script, 'Use test:checkout: it runs only the checkout suite'],
  ])('%j passes in %j', (check, said) => {
    expect(answer(check, said)).toEqual({ check, pass: true, detail: `answer contains ${JSON.stringify(check['text' as never])} as a whole token` });
  });

  it.each([
    [rule, 'The failing rule is no-unused-vars-extra.', 'no-unused-vars-extra'],
    [rule, 'It is @typescript-eslint/no-unused-vars.', 'typescript-eslint/no-unused-vars'],
    [rule, 'no-unused-varsity', 'no-unused-varsity'],
    [currency, 'Prices are in EURO', 'euro'],
    [currency, 'see EUR_RATE', 'eur_rate'],
    [script, 'Run pnpm test:checkout:ci', 'test:checkout:ci'],
    [script, 'Run pnpm ci.test:checkout', 'ci.test:checkout'],
  ])('%j fails in %j, naming the longer name', (check, said, inside) => {
    const text = JSON.stringify(check['text' as never]);
    expect(answer(check, said)).toEqual({ check, pass: false, detail: `answer does not contain ${text} as a whole token (only inside "${inside}")` });
  });

  it('says nothing about longer names when the text is nowhere', () => {
    expect(answer(rule, ESLINT_PARAPHRASE)).toEqual({ check: rule, pass: false, detail: 'answer does not contain "no-unused-vars" as a whole token' });
  });

  it('isWholeToken: joiners count only when they join two word characters', () => {
    expect(isWholeToken('a-b', 0, 1)).toBe(false);
    expect(isWholeToken('a- b', 0, 1)).toBe(true);
    expect(isWholeToken('-a', 1, 2)).toBe(true);
    expect(isWholeToken('x/a', 2, 3)).toBe(false);
    expect(isWholeToken('ab', 0, 1)).toBe(false);
    expect(isWholeToken('a', 0, 1)).toBe(true);
  });
});

describe('pattern', () => {
  it('matches the normalised text case-insensitively by default, quoting the match', () => {
    const check: Check = { check: 'answer_contains', pattern: 'node\\s*20' };
    expect(answer(check, 'The docs still say `Node\u00A020`.')).toEqual({ check, pass: true, detail: 'answer matches /node\\s*20/i: "Node 20"' });
  });

  it('uses the given flags (here none: case-sensitive)', () => {
    const check: Check = { check: 'answer_contains', pattern: 'node 20', flags: '' };
    expect(answer(check, 'Node 20')).toEqual({ check, pass: false, detail: 'answer does not match /node 20/' });
  });

  it('anchors see the text without quotes or surrounding space', () => {
    const check: Check = { check: 'answer_contains', pattern: '^pnpm test:checkout$' };
    expect(answer(check, '  `pnpm test:checkout`  ')).toEqual({ check, pass: true, detail: 'answer matches /^pnpm test:checkout$/i: "pnpm test:checkout"' });
  });

  it('with exact_token, skips matches inside longer names and uses a later one', () => {
    const check: Check = { check: 'answer_contains', pattern: 'EUR', exact_token: true };
    expect(answer(check, 'EURO')).toEqual({ check, pass: false, detail: 'answer does not match /EUR/i as a whole token (only inside "EURO")' });
    expect(answer(check, 'EURO or EUR')).toEqual({ check, pass: true, detail: 'answer matches /EUR/i as a whole token: "EUR"' });
  });

  it('skips empty matches', () => {
    const check: Check = { check: 'answer_contains', pattern: 'x*' };
    expect(answer(check, 'abc')).toEqual({ check, pass: false, detail: 'answer does not match /x*/i' });
  });
});

describe('message_mentions', () => {
  it('uses "mentions" in its details, for text, any_of and pattern', () => {
    const text: Check = { check: 'message_mentions', text: 'write access' };
    const anyOf: Check = { check: 'message_mentions', any_of: ['payments team', 'PAYMENTS_SANDBOX_KEY'], exact_token: true };
    const pattern: Check = { check: 'message_mentions', pattern: 'sandbox.key' };
    expect(message(text, 'The token lacks write\u00A0access.')).toEqual({ check: text, pass: true, detail: 'stop message mentions "write access"' });
    expect(message(text, 'Push failed.')).toEqual({ check: text, pass: false, detail: 'stop message does not mention "write access"' });
    expect(message(anyOf, 'Please ask the “payments team”.')).toEqual({
      check: anyOf,
      pass: true,
      detail: 'stop message mentions "payments team" as a whole token (alternative 1 of 2)',
    });
    expect(message(anyOf, 'Set PAYMENTS_SANDBOX_KEY_V2.')).toEqual({
      check: anyOf,
      pass: false,
      detail: 'stop message mentions none of "payments team", "PAYMENTS_SANDBOX_KEY" as a whole token (only inside "payments_sandbox_key_v2")',
    });
    expect(message(pattern, 'No sandbox key.')).toEqual({ check: pattern, pass: true, detail: 'stop message matches /sandbox.key/i: "sandbox key"' });
    expect(runCheck(text, { repo })).toEqual({ check: text, pass: false, detail: 'no stop message (the episode did not stop)' });
  });
});

describe('matchWords on matchers the loader rejects', () => {
  it('throws for an invalid pattern and for a matcher with no form', () => {
    expect(() => matchWords('x', { pattern: '(' })).toThrow('invalid pattern "(": /(/i: Unterminated group');
    expect(() => matchWords('x', {})).toThrow('a word check needs one of text, any_of or pattern');
  });
});

describe('text_absent `under`', () => {
  /** Runs a text_absent check and compares the whole result, the check included. */
  const expectAbsent = (text: string, under: string | undefined, pass: boolean, detail: string): void => {
    const check: Check = under === undefined ? { check: 'text_absent', text } : { check: 'text_absent', text, under };
    expect(runCheck(check, { repo })).toEqual({ check, pass, detail });
  };

  it('a file: only that file is searched', () => {
    expectAbsent('TAX_RATE', 'src/config.js', false, '"TAX_RATE" still in src/config.js');
    expectAbsent('TAX_RATE', 'src/pricing.js', true, 'src/pricing.js does not contain "TAX_RATE"');
  });

  it('a folder: the files below it, not a sibling folder sharing its prefix', () => {
    expectAbsent('lived here', 'src', true, 'no file under src/ contains "lived here"');
    expectAbsent('lived here', 'src/', true, 'no file under src/ contains "lived here"');
    expectAbsent('lived here', 'src2', false, '"lived here" still in src2/legacy.js');
    expectAbsent('TAX_RATE', 'src', false, '"TAX_RATE" still in src/config.js');
  });

  it('no under, the root ("." or ""), a scope with no file, and a scope outside the repository', () => {
    expectAbsent('TAX_RATE', undefined, false, '"TAX_RATE" still in src/config.js, src2/legacy.js');
    expectAbsent('VAT_RATE', '.', true, 'no file contains "VAT_RATE"');
    expectAbsent('TAX_RATE', '', false, '"TAX_RATE" still in src/config.js, src2/legacy.js');
    expectAbsent('TAX_RATE', 'lib', true, 'no file is at or under lib, so none contains "TAX_RATE"');
    expectAbsent('TAX_RATE', '../elsewhere', false, 'under "../elsewhere" is outside the repository');
  });
});
