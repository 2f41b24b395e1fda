// vitest --exclude globs from the agent are matched in linear time (issue 25 §3), with picomatch's answers.
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { linearGlob } from '../src/sim-repo/linear-glob.js';

const GLOBS = [
  'tests/e2e',
  'tests/e2e/**',
  '**/node_modules/**',
  '**/.git/**',
  '**/*.test.js',
  'src/**/*.{js,ts}',
  '*.?(c|m)js',
  'a/*',
  '**/*a*a*a*c',
  '[abc]?.js',
  'tests/**/*.spec.*',
  '+(a|b)/c',
  '@(x|y)/**',
  '**/e2e/**',
  'tests/*.test.js',
  '**/{cart,checkout}.test.js',
];
const PATHS = [
  'tests/e2e',
  'tests/e2e/checkout.test.js',
  'tests/cart.test.js',
  'tests/unit/cart.spec.ts',
  'node_modules/vitest/index.js',
  'src/node_modules/x.js',
  '.git/HEAD',
  'src/a.js',
  'src/lib/b.ts',
  'src/lib/b.tsx',
  'a.cjs',
  'a.mjs',
  'a.js',
  'a/b',
  'a/b/c',
  'aaxac',
  'lib/aaac',
  'b.js',
  'ab.js',
  'a/c',
  'ab/c',
  'x/y/z',
  '.hidden/a.test.js',
  'tests/checkout.test.js',
];

describe('linearGlob', () => {
  it.each(GLOBS)('%s matches the paths picomatch (dot: true) matches', (glob) => {
    const expected = picomatch(glob, { dot: true });
    const actual = linearGlob(glob);
    expect(PATHS.filter((path) => actual(path))).toEqual(PATHS.filter((path) => expected(path)));
  });

  it('answers a catastrophic glob on a 60-character file name (picomatch’s RegExp takes hours)', () => {
    const matches = linearGlob('*a*a*a*a*a*a*a*a*a*a*c');
    expect(matches('a'.repeat(60))).toBe(false);
    expect(matches(`${'a'.repeat(60)}c`)).toBe(true);
    expect(linearGlob('+(+(a))')(`${'a'.repeat(60)}b`)).toBe(false);
  });

  it('matches no path for a glob that needs lookaround (an !(…) extglob, a leading !)', () => {
    expect(PATHS.filter((path) => linearGlob('!(x)/*.js')(path))).toEqual([]);
    expect(PATHS.filter((path) => linearGlob('!tests/**')(path))).toEqual([]);
  });

  it('agrees with picomatch on generated globs and normalised paths', () => {
    const segment = fc.array(fc.constantFrom('a', 'b', 'c', '.js', '-x'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    const globPart = fc.constantFrom('a', 'b', '*', '**', '?', '.js', '{a,b}', '[ab]', '@(a|c)', '?(b)', '+(a)', '*(c)');
    const globSegment = fc.array(globPart, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
    const glob = fc.array(globSegment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (pattern, paths) => {
        const expected = picomatch(pattern, { dot: true });
        const actual = linearGlob(pattern);
        expect(paths.filter((item) => actual(item))).toEqual(paths.filter((item) => expected(item)));
      }),
      { numRuns: 500, seed: 25 },
    );
  });
});
