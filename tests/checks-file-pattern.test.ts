// file_contains with a pattern: the whole file matched by a regular expression, and the schema's errors for it.
import { describe, expect, it } from 'vitest';
import { runCheck } from '../src/scoring/checks.js';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';
import { Check } from '../src/suite/schema.js';

const nvmrc = (content: string) => SimRepo.fromSpec(RepoSpec.parse({ files: { '.nvmrc': content } }));
const check = Check.parse({ check: 'file_contains', path: '.nvmrc', pattern: '^\\s*(v?22(\\.\\d+){0,2}|lts/jod)\\s*$' });

describe('file_contains with pattern', () => {
  it('anchors ^ and $ on the whole file without flags', () => {
    expect(runCheck(check, { repo: nvmrc('22\n') })).toEqual({ check, pass: true, detail: '.nvmrc matches /^\\s*(v?22(\\.\\d+){0,2}|lts/jod)\\s*$/' });
    expect(runCheck(check, { repo: nvmrc('lts/jod\n') }).pass).toBe(true);
    expect(runCheck(check, { repo: nvmrc('20\n22\n') })).toEqual({
      check,
      pass: false,
      detail: '.nvmrc does not match /^\\s*(v?22(\\.\\d+){0,2}|lts/jod)\\s*$/',
    });
    expect(runCheck(check, { repo: nvmrc('22.x\n') }).pass).toBe(false);
  });

  it('takes flags, and fails for a missing file', () => {
    const readme = Check.parse({ check: 'file_contains', path: 'README.md', pattern: 'node(\\.js)? v?22\\b', flags: 'i' });
    expect(runCheck(readme, { repo: SimRepo.fromSpec(RepoSpec.parse({ files: { 'README.md': '- Node.js 22\n' } })) }).pass).toBe(true);
    expect(runCheck(readme, { repo: nvmrc('22') })).toEqual({ check: readme, pass: false, detail: 'README.md does not exist' });
  });

  it('rejects both or neither of text and pattern, flags without a pattern, and an invalid pattern', () => {
    const messages = (value: unknown) => {
      const parsed = Check.safeParse(value);
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    };
    expect(messages({ check: 'file_contains', path: 'a', text: 'x', pattern: 'x' })).toEqual(['file_contains takes exactly one of `text` or `pattern`']);
    expect(messages({ check: 'file_contains', path: 'a' })).toEqual(['file_contains takes exactly one of `text` or `pattern`']);
    expect(messages({ check: 'file_contains', path: 'a', text: 'x', flags: 'i' })).toEqual(['`flags` needs a `pattern`']);
    expect(messages({ check: 'file_contains', path: 'a', pattern: '(' })[0]).toMatch(/^invalid regular expression: /);
  });
});
