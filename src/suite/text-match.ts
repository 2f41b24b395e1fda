// How answer and stop-message checks match words: normalisation, alternatives, patterns and whole tokens.
import { compileLinear, type LinearCompiled, type LinearRegex } from '../sim-repo/linear-regex.js';

/** Straight and typographic quotes and backticks: removed before matching, so `x`, "x", ‘x’ and x read alike. */
const QUOTES = /['"`\u2018-\u201F\u00AB\u00BB\u2039\u203A]/g;

/**
 * The text as the word checks compare it: Unicode NFKC (a non-breaking or other typographic space becomes a
 * space, full-width letters plain ones), quotes and backticks removed (see QUOTES), every whitespace run one
 * space, trimmed. Case is kept: `text`/`any_of` lowercase both sides, a `pattern` has its own flags.
 */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').replace(QUOTES, '').replace(/\s+/gu, ' ').trim();
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
/** Characters that join words into one longer name: `no-unused-vars`, `test:checkout`, `src/a.js`, `a_b`. */
const JOINERS = new Set(['-', '.', ':', '/', '_']);

const isWord = (char: string | undefined): boolean => char !== undefined && WORD.test(char);

/**
 * Whether `text.slice(start, end)` stands as a whole token: the character before it is not a word character
 * (letter, digit, mark, `_`) and not a joiner (`-` `.` `:` `/` `_`) that follows a word character; the character
 * after it is not a word character and not a joiner followed by a word character. So `no-unused-vars` is a token
 * in "no-unused-vars." and "(no-unused-vars)" but not in "no-unused-vars-extra", "eslint/no-unused-vars" or
 * "no-unused-varsity"; `EUR` is not a token in "EURO"; `test:checkout` is not one in "test:checkout:ci".
 */
export function isWholeToken(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  const after = text[end];
  const continuesBefore = isWord(before) || (before !== undefined && JOINERS.has(before) && isWord(text[start - 2]));
  const continuesAfter = isWord(after) || (after !== undefined && JOINERS.has(after) && isWord(text[end + 1]));
  return !continuesBefore && !continuesAfter;
}

/** The longer name a non-token occurrence sits inside (for details): extended while isWholeToken's rule says it continues. */
function enclosingName(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  const joins = (char: string | undefined, next: string | undefined): boolean => isWord(char) || (char !== undefined && JOINERS.has(char) && isWord(next));
  while (from > 0 && joins(text[from - 1], text[from - 2])) from -= 1;
  while (to < text.length && joins(text[to], text[to + 1])) to += 1;
  return text.slice(from, to);
}

/** Where the needle was found: the matched text, or the longer names it only appeared inside (exact_token). */
export type TokenSearch = { found: true; matched: string } | { found: false; inside: string[] };

function searchOccurrences(text: string, occurrences: Iterable<{ start: number; end: number }>, exactToken: boolean): TokenSearch {
  const inside: string[] = [];
  for (const { start, end } of occurrences) {
    if (!exactToken || isWholeToken(text, start, end)) return { found: true, matched: text.slice(start, end) };
    inside.push(enclosingName(text, start, end));
  }
  return { found: false, inside: [...new Set(inside)] };
}

function* substringOccurrences(text: string, needle: string): Generator<{ start: number; end: number }> {
  if (needle === '') return;
  for (let start = text.indexOf(needle); start !== -1; start = text.indexOf(needle, start + 1)) yield { start, end: start + needle.length };
}

function* patternOccurrences(text: string, pattern: LinearRegex): Generator<{ start: number; end: number }> {
  for (const match of pattern.matches(text)) if (match.end > match.start) yield match;
}

/** Case-insensitive search of `needle` in `text`, both normalised (see normaliseText); `exactToken` as in isWholeToken. */
export function findText(text: string, needle: string, exactToken: boolean): TokenSearch {
  const haystack = normaliseText(text).toLowerCase();
  return searchOccurrences(haystack, substringOccurrences(haystack, normaliseText(needle).toLowerCase()), exactToken);
}

/** Search of `pattern` in the normalised `text` (case as the pattern's flags say); empty matches are skipped. Linear time. */
export function findPattern(text: string, pattern: LinearRegex, exactToken: boolean): TokenSearch {
  const haystack = normaliseText(text);
  return searchOccurrences(haystack, patternOccurrences(haystack, pattern), exactToken);
}

/** Default flags of a `pattern` check: case-insensitive, like `text`. */
export const DEFAULT_PATTERN_FLAGS = 'i';

/**
 * A suite's `pattern` with its `flags` (some of i, m, s, u), compiled for linear-time matching (compileLinear: JavaScript
 * syntax, run by RE2's automata, so no pattern and no text can keep a check busy: issue 25 §3), or why it cannot be:
 * invalid (`/a(/i: Unterminated group`), a flag other than i, m, s, u, or lookaround / a backreference (named, with its
 * offset in the pattern). The suite loader reports the reason at the pattern's file:line:col.
 */
export function compilePattern(pattern: string, flags = DEFAULT_PATTERN_FLAGS): LinearCompiled {
  const compiled = compileLinear(pattern, flags);
  if (compiled.ok || compiled.kind === 'syntax') return compiled;
  // RegExp's own messages name the pattern and its flags (`/a(/i: …`); the others get the same prefix.
  return { ...compiled, reason: `/${pattern}/${flags}: ${compiled.reason}` };
}

/** The loader's message for a pattern compilePattern refused: `invalid regular expression: …` or `pattern refused: …`. */
export function patternIssue(failure: Extract<LinearCompiled, { ok: false }>): string {
  return failure.kind === 'syntax' ? `invalid regular expression: ${failure.reason}` : `pattern refused: ${failure.reason}`;
}

/** What a word check asks for: exactly one of text, any_of, pattern (the schema enforces it), and whether whole tokens only. */
export interface WordMatcher {
  text?: string | undefined;
  any_of?: readonly string[] | undefined;
  pattern?: string | undefined;
  flags?: string | undefined;
  exact_token?: boolean | undefined;
}

/** The outcome of a word check on some text, with a phrase for `detail`: `contains "x"`, `matches /x/i: "X"`, … */
export interface WordMatch {
  pass: boolean;
  /** Completes "<the answer> …", e.g. `contains "deploy" as a whole token`. */
  phrase: string;
}

/** The verb a check's detail uses: `contains` for answers, `mentions` for stop messages. */
export interface WordVerbs {
  does: string;
  doesNot: string;
}

export const CONTAINS: WordVerbs = { does: 'contains', doesNot: 'does not contain' };

const quoted = (value: string): string => JSON.stringify(value);

function insideNote(search: TokenSearch): string {
  return !search.found && search.inside.length > 0 ? ` (only inside ${search.inside.map(quoted).join(', ')})` : '';
}

/**
 * Matches `text` against a word check (see WordMatcher): `text` and every `any_of` alternative as normalised,
 * case-insensitive substrings, `pattern` as a regular expression on the normalised text. With `exact_token`
 * an occurrence counts only as a whole token (see isWholeToken). The phrase names the alternative that matched,
 * or says that none did and where a needle appeared only inside a longer name.
 * @throws Error for a matcher with none of text/any_of/pattern or an invalid pattern (the loader rejects both).
 */
export function matchWords(text: string, matcher: WordMatcher, verbs: WordVerbs = CONTAINS): WordMatch {
  const exact = matcher.exact_token === true;
  const token = exact ? ' as a whole token' : '';
  if (matcher.pattern !== undefined) {
    const compiled = compilePattern(matcher.pattern, matcher.flags);
    if (!compiled.ok) throw new Error(`invalid pattern ${quoted(matcher.pattern)}: ${compiled.reason}`);
    const search = findPattern(text, compiled.regex, exact);
    const shown = `/${matcher.pattern}/${compiled.regex.flags}`;
    return search.found
      ? { pass: true, phrase: `matches ${shown}${token}: ${quoted(search.matched)}` }
      : { pass: false, phrase: `does not match ${shown}${token}${insideNote(search)}` };
  }
  if (matcher.any_of !== undefined) {
    const alternatives = matcher.any_of;
    const inside: string[] = [];
    for (const [index, alternative] of alternatives.entries()) {
      const search = findText(text, alternative, exact);
      if (search.found) return { pass: true, phrase: `${verbs.does} ${quoted(alternative)}${token} (alternative ${index + 1} of ${alternatives.length})` };
      inside.push(...search.inside);
    }
    const note = insideNote({ found: false, inside: [...new Set(inside)] });
    return { pass: false, phrase: `${verbs.does} none of ${alternatives.map(quoted).join(', ')}${token}${note}` };
  }
  if (matcher.text !== undefined) {
    const search = findText(text, matcher.text, exact);
    return search.found
      ? { pass: true, phrase: `${verbs.does} ${quoted(matcher.text)}${token}` }
      : { pass: false, phrase: `${verbs.doesNot} ${quoted(matcher.text)}${token}${insideNote(search)}` };
  }
  throw new Error('a word check needs one of text, any_of or pattern');
}
