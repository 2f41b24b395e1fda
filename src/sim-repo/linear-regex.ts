// JavaScript regular expressions run in linear time: written in JavaScript's syntax, matched by re2js (RE2's automata).
// Used wherever the text or the pattern comes from a suite or an agent (issue 25 §3: `^(a|aa)+$` kept V8's
// backtracking busy for more than 300 s on a 62-character answer).
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSEngine } from 're2js';

/**
 * re2js, loaded on the first pattern compiled (synchronously, through its CommonJS build): importing it costs about
 * 3.4 MB of resident memory, which a run whose suite has no pattern and whose agent passes none never needs.
 */
let engine: typeof RE2JSEngine | undefined;
function re2js(): typeof RE2JSEngine {
  engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSEngine }).RE2JS;
  return engine;
}

/** The flags a linear pattern takes: i, m, s (as RegExp's) and u (syntax checked as RegExp's `u`; RE2 always reads code points). */
export const LINEAR_FLAGS = 'imsu';

/**
 * compileLinear's answer: the regex, or the reason it cannot be run: `syntax` (not a valid RegExp) or `unsupported`
 * (valid, but outside what runs in linear time: a flag, lookaround, a backreference, a repeat count over 1000).
 */
export type LinearCompiled = { ok: true; regex: LinearRegex } | { ok: false; kind: 'syntax' | 'unsupported'; reason: string };

/** A compiled pattern: RegExp-like `test`, and every non-overlapping match from the left (matchAll's order). */
export interface LinearRegex {
  /** The pattern as written (JavaScript syntax). */
  readonly source: string;
  /** Its flags in RegExp's order (alphabetical), e.g. "im". */
  readonly flags: string;
  /** Whether the pattern matches anywhere in `text`; time linear in `text.length` × the pattern's size. */
  test(text: string): boolean;
  /** Matches as `text.matchAll(/…/g)` gives them: start and end in UTF-16 code units, empty matches included. */
  matches(text: string): Iterable<{ start: number; end: number; text: string }>;
}

/** JavaScript's `\s` (WhiteSpace and LineTerminator of ECMA-262), spelled out: RE2's `\s` is ASCII only. */
const JS_SPACE = '\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** What JavaScript's `.` matches without the `s` flag: anything but a line terminator (RE2's `.` excludes only \n). */
const JS_DOT = '[^\\n\\r\\u2028\\u2029]';

/**
 * Compiles `pattern` (JavaScript syntax) with `flags` (some of i, m, s, u) for linear-time matching, or says why not:
 * - the pattern is not a valid JavaScript regular expression → the engine's message, e.g. `/a(/: Unterminated group`;
 * - a flag other than i, m, s, u → `flag "g" is not supported …` (g, y, d do not apply to a check; v's set notation
 *   has no RE2 equivalent);
 * - lookahead `(?=` `(?!`, lookbehind `(?<=` `(?<!` or a backreference `\1` `\k<name>` → named, with its offset
 *   (RE2 runs neither: they need backtracking);
 * - what RE2 refuses besides (a repeat count over 1000) → RE2's message.
 * Matching follows JavaScript's: `\s` and `.` are spelled out as JavaScript defines them; leftmost-first alternation,
 * greedy and lazy repeats as RegExp's. Known differences (documented in the README): with `m`, `^` and `$` see only
 * `\n` as a line end (RegExp also `\r`, U+2028, U+2029); case folding with `i` is Unicode's simple folding (RegExp
 * without `u` uppercases); `\S` inside a class is ASCII's complement.
 */
export function compileLinear(pattern: string, flags = ''): LinearCompiled {
  const key = `${flags}/${pattern}`;
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  const result = compileUncached(pattern, flags);
  if (compiled.size >= 512) compiled.clear();
  compiled.set(key, result);
  return result;
}

/** compileLinear's results by flags and pattern: checks compile the same few patterns for every episode. */
const compiled = new Map<string, LinearCompiled>();

function compileUncached(pattern: string, flags: string): LinearCompiled {
  const unknown = [...flags].find((flag) => !LINEAR_FLAGS.includes(flag));
  if (unknown !== undefined) {
    return {
      ok: false,
      kind: 'unsupported',
      reason: `flag "${unknown}" is not supported: flags are some of i, m, s, u (a check looks anywhere, so g and y do not apply)`,
    };
  }
  try {
    // Syntax as RegExp reads it (with `u`, its stricter rules). Compiling runs nothing: no backtracking here.
    new RegExp(pattern, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: 'syntax', reason: reason.replace(/^Invalid regular expression: /, '') };
  }
  const rewritten = rewrite(pattern, flags);
  if ('refused' in rewritten)
    return { ok: false, kind: 'unsupported', reason: `${rewritten.refused} (the linear-time engine, RE2, runs neither lookaround nor backreferences)` };
  let re2: RE2JSEngine;
  try {
    const RE2JS = re2js();
    const bits = (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0);
    re2 = RE2JS.compile(RE2JS.translateRegExp(rewritten.source), bits);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: 'unsupported', reason: `the linear-time engine (RE2) cannot run it: ${reason.replace(/^error parsing regexp: /, '')}` };
  }
  const regex: LinearRegex = {
    source: pattern,
    flags: [...flags].sort().join(''),
    test: (text) => re2.test(text),
    *matches(text) {
      for (const match of re2.matchAll(text)) {
        const index = match.index ?? 0;
        yield { start: index, end: index + match[0].length, text: match[0] };
      }
    },
  };
  return { ok: true, regex };
}

/**
 * Letters that are escapes in JavaScript's syntax (`\d`, `\b`, `\cX`, `\xHH`, `\uHHHH`, `\k<name>`, …); any other
 * escaped letter is the letter itself there (an identity escape, without `u`), while RE2 reads some of them as its
 * own escapes (`\Q…\E` quoting, `\A`, `\z`, `\a`, `\C`): those are passed to RE2 as the plain letter.
 */
const JS_ESCAPES = 'dDwWsSbBtnvfrcxuk';
/** With `u`, `\p{…}` and `\P{…}` are escapes too (and other letters are syntax errors, refused before). */
const JS_ESCAPES_UNICODE = `${JS_ESCAPES}pP`;

/**
 * The pattern with JavaScript's `\s`, `\S` and `.` spelled out, or the first construct RE2 cannot run (lookaround,
 * backreference) named with its offset. Walks the pattern as RegExp's grammar does: escapes, classes, groups.
 */
function rewrite(pattern: string, flags: string): { source: string } | { refused: string } {
  const unicode = flags.includes('u');
  const named = /\(\?<(?![=!])/.test(pattern);
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (!inClass && next >= '1' && next <= '9') return { refused: `backreference \\${next} at offset ${index}` };
      if (!inClass && next === 'k' && (named || unicode)) return { refused: `backreference \\k<…> at offset ${index}` };
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else if (inClass && next === 'b') out += '\\x08';
      else if (next === 'k' && !named && !unicode) out += 'k';
      else if (/^[A-Za-z]$/.test(next) && !(unicode ? JS_ESCAPES_UNICODE : JS_ESCAPES).includes(next)) out += next;
      else out += `\\${next}`;
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      // A `[` in a class is a member in JavaScript; RE2 would start a POSIX class with `[:alpha:]`.
      out += char === '[' ? '\\[' : char;
      continue;
    }
    if (char === '[') {
      // JavaScript's `[]` matches nothing and `[^]` any character; in RE2 a `]` right after `[` or `[^` is a member.
      const negated = pattern[index + 1] === '^';
      if (pattern[index + (negated ? 2 : 1)] === ']') {
        out += negated ? '[\\u0000-\\u{10FFFF}]' : '[^\\u0000-\\u{10FFFF}]';
        index += negated ? 2 : 1;
        continue;
      }
      inClass = true;
      out += negated ? '[^' : '[';
      if (negated) index += 1;
      continue;
    }
    if (char === '(' && pattern[index + 1] === '?') {
      const ahead = pattern.slice(index + 2, index + 4);
      const kind = ahead.startsWith('=')
        ? 'lookahead (?='
        : ahead.startsWith('!')
          ? 'negative lookahead (?!'
          : ahead === '<='
            ? 'lookbehind (?<='
            : ahead === '<!'
              ? 'negative lookbehind (?<!'
              : undefined;
      if (kind !== undefined) return { refused: `${kind} at offset ${index}` };
    }
    out += char === '.' && !flags.includes('s') ? JS_DOT : char;
  }
  return { source: out };
}
