// Suite patterns run in linear time (issue 25 §3): catastrophic patterns finish with the right answer, patterns RE2
// cannot run are refused at load with the reason and file:line:col, and matching keeps RegExp's meaning.
import { describe, expect, it } from 'vitest';
import { runCheck } from '../src/scoring/checks.js';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { compileLinear } from '../src/sim-repo/linear-regex.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { Check } from '../src/suite/schema.js';
import { TINY_SUITE } from './support/tiny-suite.js';

const SUITE = TINY_SUITE;

const withCheck = (lines: string): string => SUITE.replace('      - check: answer_contains\n        text: hello\n', lines);

function loadErrors(text: string): string[] {
  const result = parseSuite(text, 'tiny.yaml');
  return result.ok ? [] : result.errors.map(formatSuiteError);
}

describe('catastrophic patterns (the issue’s examples) finish with the right answer', () => {
  it('answer_contains ^(a|aa)+$ against 61 a’s and a trailing b, and against 62 a’s', () => {
    const check = Check.parse({ check: 'answer_contains', pattern: '^(a|aa)+$' });
    const repo = SimRepo.fromSpec(RepoSpec.parse({ files: {} }));
    expect(runCheck(check, { repo, answer: `${'a'.repeat(61)}b` })).toEqual({ check, pass: false, detail: 'answer does not match /^(a|aa)+$/i' });
    expect(runCheck(check, { repo, answer: 'a'.repeat(62) })).toEqual({ check, pass: true, detail: `answer matches /^(a|aa)+$/i: "${'a'.repeat(62)}"` });
  });

  it('file_contains ^(a+)+$ against a 50 KB file, with and without a trailing b', () => {
    const check = Check.parse({ check: 'file_contains', path: 'big.txt', pattern: '^(a+)+$' });
    const repoWith = (content: string) => SimRepo.fromSpec(RepoSpec.parse({ files: { 'big.txt': content } }));
    expect(runCheck(check, { repo: repoWith(`${'a'.repeat(50_000)}b`) })).toEqual({ check, pass: false, detail: 'big.txt does not match /^(a+)+$/' });
    expect(runCheck(check, { repo: repoWith('a'.repeat(50_000)) })).toEqual({ check, pass: true, detail: 'big.txt matches /^(a+)+$/' });
  });

  it('message_mentions (x+x+)+y against 5,000 x’s', () => {
    const check = Check.parse({ check: 'message_mentions', pattern: '(x+x+)+y' });
    const repo = SimRepo.fromSpec(RepoSpec.parse({ files: {} }));
    expect(runCheck(check, { repo, message: 'x'.repeat(5_000) }).pass).toBe(false);
    expect(runCheck(check, { repo, message: `${'x'.repeat(5_000)}y` }).pass).toBe(true);
  });

  it('a suite with a catastrophic but regular pattern loads', () => {
    expect(loadErrors(withCheck('      - check: answer_contains\n        pattern: "^(a|aa)+$"\n'))).toEqual([]);
  });
});

describe('patterns RE2 cannot run are refused at load, with the reason and file:line:col', () => {
  it('lookahead, lookbehind and backreferences, named with their offset in the pattern', () => {
    expect(loadErrors(withCheck('      - check: answer_contains\n        pattern: "(?<=v)22"\n'))).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].pattern  pattern refused: /(?<=v)22/i: lookbehind (?<= at offset 0 (the linear-time engine, RE2, runs neither lookaround nor backreferences)',
    ]);
    expect(loadErrors(withCheck('      - check: message_mentions\n        pattern: "deploy(?!ed)"\n        flags: ""\n'))).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].pattern  pattern refused: /deploy(?!ed)/: negative lookahead (?! at offset 6 (the linear-time engine, RE2, runs neither lookaround nor backreferences)',
    ]);
    expect(loadErrors(withCheck('      - check: file_contains\n        path: a.txt\n        pattern: "(l)\\\\1"\n'))).toEqual([
      'tiny.yaml:16:9  tasks[0].checks[0].pattern  pattern refused: /(l)\\1/: backreference \\1 at offset 3 (the linear-time engine, RE2, runs neither lookaround nor backreferences)',
    ]);
    expect(loadErrors(withCheck('      - check: answer_contains\n        pattern: "(?<q>l)\\\\k<q>"\n'))).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].pattern  pattern refused: /(?<q>l)\\k<q>/i: backreference \\k<…> at offset 7 (the linear-time engine, RE2, runs neither lookaround nor backreferences)',
    ]);
  });

  it('a repeat count over 1000, with RE2’s reason', () => {
    expect(loadErrors(withCheck('      - check: answer_contains\n        pattern: "a{1001}"\n'))).toEqual([
      'tiny.yaml:15:9  tasks[0].checks[0].pattern  pattern refused: /a{1001}/i: the linear-time engine (RE2) cannot run it: invalid repeat count: `{1001}`',
    ]);
  });

  it('flags other than i, m, s, u, on word checks and on file_contains', () => {
    const message = 'flags are some of i, m, s, u (g and y do not apply: a check looks anywhere; v is not supported)';
    expect(loadErrors(withCheck('      - check: answer_contains\n        pattern: hello\n        flags: v\n'))).toEqual([
      `tiny.yaml:16:9  tasks[0].checks[0].flags  ${message}`,
    ]);
    expect(loadErrors(withCheck('      - check: file_contains\n        path: a.txt\n        pattern: hello\n        flags: g\n'))).toEqual([
      `tiny.yaml:17:9  tasks[0].checks[0].flags  ${message}`,
    ]);
  });
});

describe('linear patterns mean what RegExp means', () => {
  // [pattern, flags, text]: each compared with RegExp on a text short enough for backtracking.
  const cases: Array<[string, string, string]> = [
    ['node(\\.js)? v?22\\b', 'i', 'Node.js v22 now'],
    ['^\\s*(v?22(\\.\\d+){0,2}|lts/jod)\\s*$', '', 'v22.1\n'],
    ['^b', 'm', 'a\nb'],
    ['^b', '', 'a\nb'],
    ['a$', '', 'a\n'],
    ['a.b', '', 'a\rb'],
    ['a.b', 's', 'a\rb'],
    ['a.b', '', 'a\u2028b'],
    ['a\\sb', '', 'a\u00a0b'],
    ['a\\Sb', '', 'a\u00a0b'],
    ['[\\s-]x', '', '\u3000x'],
    ['a[]b', '', 'ab'],
    ['a[^]b', '', 'a\nb'],
    ['[\\]]', '', ']'],
    ['\\k<n>', '', 'k<n>'],
    ['(?<year>\\d{4})-\\d\\d', '', 'in 2024-05'],
    ['\\u00e9t\\u00e9', 'i', 'ÉTÉ'],
    ['\\u{1F600}', 'u', '😀'],
    ['HELLO', 'i', 'hello'],
    ['colou?r', '', 'color'],
  ];
  it.each(cases)('/%s/%s on %j', (pattern, flags, text) => {
    const compiled = compileLinear(pattern, flags);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.regex.test(text)).toBe(new RegExp(pattern, flags).test(text));
  });

  it('finds matches where matchAll does, in UTF-16 offsets', () => {
    const compiled = compileLinear('é|b+', 'u');
    if (!compiled.ok) throw new Error(compiled.reason);
    const text = '😀é bb';
    expect([...compiled.regex.matches(text)]).toEqual([...text.matchAll(/é|b+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] })));
  });

  it('reports RegExp’s own syntax errors as syntax', () => {
    expect(compileLinear('a(', '')).toEqual({ ok: false, kind: 'syntax', reason: '/a(/: Unterminated group' });
    expect(compileLinear('\\-', 'u')).toMatchObject({ ok: false, kind: 'syntax' });
  });
});

describe('patterns RE2 would read otherwise are read as JavaScript reads them (review 6)', () => {
  it.each([
    ['[[:alpha:]]', '', 'a'],
    ['[[:alpha:]]', '', '[:]'],
    ['unit[[:space:]]celsius', '', 'unit celsius'],
    ['\\Q.\\E', '', 'Q.E'],
    ['\\Q.\\E', '', '.'],
    ['a\\z', '', 'az'],
    ['\\Aab', '', 'Aab'],
    ['[\\b]', '', '\b'],
    ['\\k', '', 'k'],
    ['(?<y>\\d{4})-\\d\\d', 'u', '2026-12'],
  ])('/%s/%s on %j: the same verdict as RegExp', (pattern, flags, text) => {
    const compiled = compileLinear(pattern, flags);
    expect(compiled.ok && compiled.regex.test(text)).toBe(new RegExp(pattern, flags).test(text));
  });
});
