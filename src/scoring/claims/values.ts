// Typed values in a report: numbers, versions, commit shas, paths and JSON literals, found with their offsets and
// compared as values (7 = 7.0, v22 = 22.x = 22.1.0 when 22 is asked, 9c41e07 = 9c41e07f3…), not as substrings.
import type { Word } from './text.js';

/** The kinds of value an `answer_value` check compares (see VALUE_TYPES in the suite schema). */
export type ValueType = 'number' | 'version' | 'sha' | 'path' | 'json' | 'text';

/** A value found in a report: its type, its text as written, its parsed form, and its offsets in the normalised report. */
export interface FoundValue {
  type: ValueType;
  text: string;
  value: unknown;
  start: number;
  end: number;
  /** Index of its (first) word in the clause's words, or -1 for a value that spans several words (JSON). */
  word: number;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  twenty: 20,
  hundred: 100,
};

/** A word that is a number as written: 12, 1,000, 86_400_000, 107.07, 25.0%; 4.9k is not (a unit glued to it is not a number). */
const NUMERIC = /^(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+|\d+)(?:\.\d+)?%?$/;
/** A commit sha: 7 to 40 lowercase hex digits with at least one digit and one letter (so "deadbeef" and "1234567" are not). */
const SHA = /^[0-9a-f]{7,40}$/;
/** A version: v22, 22, 22.1, 22.1.0, 22.x, v1.4.2-rc.1 (a bare integer counts only where a version is asked for). */
const VERSION = /^v?\d+(?:\.(?:\d+|x))*(?:-[0-9a-z.]+)?$/;

/** The number a word stands for (digits, grouped thousands, a percentage as its fraction too), or undefined. */
export function parseNumber(word: string): { value: number; percent: boolean } | undefined {
  const lower = word.toLowerCase();
  if (Object.hasOwn(NUMBER_WORDS, lower)) return { value: NUMBER_WORDS[lower] as number, percent: false };
  if (!NUMERIC.test(word)) return undefined;
  const percent = word.endsWith('%');
  return { value: Number(word.replace(/[,_%]/g, '')), percent };
}

/** Whether two numbers are the same value: equal, or the percentage written for a fraction (25.0% = 0.25). */
export function sameNumber(found: { value: number; percent: boolean }, expected: number): boolean {
  if (found.value === expected) return true;
  return found.percent && Math.abs(found.value / 100 - expected) < 1e-12;
}

/** Whether `found` is the version `expected` asks for: the components expected gives must match (22 ⇐ v22.1.0, 22.x). */
export function sameVersion(found: string, expected: string): boolean {
  const parts = (text: string) =>
    text
      .toLowerCase()
      .replace(/^v/, '')
      .split(/[.-]/)
      .filter((part) => part !== 'x');
  const want = parts(expected);
  const have = parts(found);
  return want.length > 0 && want.every((part, index) => have[index] === part);
}

/** Whether two shas name the same commit: one is a prefix of the other, at least 7 digits long. */
export function sameSha(found: string, expected: string): boolean {
  const a = found.toLowerCase();
  const b = expected.toLowerCase();
  return Math.min(a.length, b.length) >= 7 && (a.startsWith(b) || b.startsWith(a));
}

/** A repo-relative path as compared: no leading ./ or /, no trailing /, no :line:col. */
export function normalisePath(path: string): string {
  return path
    .replace(/^\.?\//, '')
    .replace(/\/$/, '')
    .replace(/(?::\d+){1,2}$/, '');
}

/** The values of `type` among `words` (one clause's words): each word that parses as one. */
export function valuesIn(words: readonly Word[], type: Exclude<ValueType, 'json' | 'text'>): FoundValue[] {
  const found: FoundValue[] = [];
  words.forEach((word, index) => {
    const text = word.text.replace(/[.,:]+$/, '');
    if (type === 'number') {
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return;
      // A major version asked as a number: "v20", "20.x".
      const number = parseNumber(text) ?? (/^v?\d+(?:\.x)?$/i.test(text) ? parseNumber(text.replace(/^v|\.x$/gi, '')) : undefined);
      if (number !== undefined) found.push({ type, text, value: number, start: word.start, end: word.start + text.length, word: index });
    } else if (type === 'version') {
      if (VERSION.test(text)) found.push({ type, text, value: text, start: word.start, end: word.start + text.length, word: index });
    } else if (type === 'sha') {
      if (SHA.test(text) && /\d/.test(text) && /[a-f]/.test(text))
        found.push({ type, text, value: text, start: word.start, end: word.start + text.length, word: index });
    } else if (/[/.]/.test(text) && /[\p{L}]/u.test(text) && !/^https?:/.test(text)) {
      found.push({ type, text, value: normalisePath(text), start: word.start, end: word.start + text.length, word: index });
    }
  });
  return found;
}

/**
 * The JSON literals of a report: every balanced `[…]` or `{…}` span that parses as JSON once relaxed (single quotes
 * read as double quotes, unquoted keys quoted, `undefined` read as null), with its offsets. Linear in the text.
 */
export function jsonLiteralsIn(text: string): FoundValue[] {
  const found: FoundValue[] = [];
  const stack: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '[' || char === '{') stack.push(i);
    else if ((char === ']' || char === '}') && stack.length > 0) {
      const start = stack.pop() as number;
      if (stack.length > 0) continue;
      const literal = text.slice(start, i + 1);
      const value = parseRelaxedJson(literal);
      if (value !== undefined) found.push({ type: 'json', text: literal, value: value.value, start, end: i + 1, word: -1 });
    }
  }
  return found;
}

/** JSON.parse after relaxing a model's spelling of a literal (see jsonLiteralsIn); undefined when it still does not parse. */
export function parseRelaxedJson(text: string): { value: unknown } | undefined {
  const attempts = [
    text,
    text
      .replace(/'/g, '"')
      .replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":')
      .replace(/\bundefined\b/g, 'null'),
  ];
  for (const attempt of attempts) {
    try {
      return { value: JSON.parse(attempt) as unknown };
    } catch {
      // the next spelling
    }
  }
  return undefined;
}

/** Deep equality of JSON values (numbers by value, objects by keys regardless of order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((key) => Object.hasOwn(b as object, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
