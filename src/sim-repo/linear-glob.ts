// Globs an agent writes (`vitest --exclude`), matched in linear time: picomatch's translation, run by RE2 (issue 25 §3).
// picomatch's own RegExp backtracks: `*a*a*a*a*a*a*a*a*a*a*c` took 3.7 s on a 40-character file name, and hours at 60.
import picomatch from 'picomatch';
import { compileLinear } from './linear-regex.js';

/**
 * picomatch's (4.x, `dot: true`) lookaheads that only keep `.` and `..` segments out, and `(?=.)` that only keeps a
 * `*` from matching an empty rest: a repository path is normalised (no `.`, `..` or empty segment, never empty), so
 * dropping them changes no answer, and what remains is regular.
 */
const DOT_SEGMENT_GUARDS: ReadonlyArray<readonly [string, string]> = [
  ['(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?', '.*?'],
  ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', ''],
  ['(?!\\.{1,2}(?:\\/|$))', ''],
  ['(?=.)', ''],
];

/**
 * A matcher of repository paths (normalised, relative, e.g. `tests/e2e/a.test.js`) for `glob`, as
 * `picomatch(glob, { dot: true })` matches them (vitest's file search), in time linear in the path's length: the
 * glob is translated by picomatch and run by RE2 (compileLinear). A glob whose translation still needs lookaround
 * (an `!(…)` extglob, a leading `!` negation) matches no path: nothing runs it in linear time.
 */
export function linearGlob(glob: string): (path: string) => boolean {
  let source: string;
  try {
    source = picomatch.makeRe(glob, { dot: true }).source;
  } catch {
    return () => false;
  }
  for (const [guard, replacement] of DOT_SEGMENT_GUARDS) source = source.split(guard).join(replacement);
  const compiled = compileLinear(source);
  if (!compiled.ok) return () => false;
  const regex = compiled.regex;
  return (path) => regex.test(path);
}
