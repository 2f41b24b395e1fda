// How the claim checks read a report: normalised text, clauses, words with their offsets, negation and echoes.
import { normaliseText } from '../../suite/text-match.js';

/** One word of a clause: its lowercase text and where it starts and ends in the normalised report. */
export interface Word {
  text: string;
  start: number;
  end: number;
}

/** A clause: the span between clause breaks (see CLAUSE_BREAK), with its words. */
export interface Clause {
  text: string;
  start: number;
  words: Word[];
  /** The break before it, lowercased and trimmed: "." "but" "while" … ("" for the first clause). */
  after: string;
}

/**
 * What ends a clause: a sentence end (. ! ? followed by a space or the end), ; and a line break, and the
 * contrastive joins "but", "while", "whereas", "although", "though", "however", "except" (so "tests pass but lint
 * fails" is two claims). The dot of an abbreviation that brings an example or a comparison (e.g., vs.) and a dot inside a name (`src/a.js`, `107.07`, `v22.1`) does not end a clause.
 */
const CLAUSE_BREAK = /(?<!\b(?:e\.g|vs|cf|approx))[.!?]+(?=\s|$)|[;\n]|\s[-–—]\s|\s(?:but|while|whereas|although|though|however|except|yet)\b/giu;

/** A word: letters, digits, and the joiners that keep a name whole (`no-unused-vars`, `test:checkout`, `src/a.js`, `107.07`, `#payments`). */
const WORD = /[#@$]?[\p{L}\p{N}_]+(?:[-.:/@'’+][\p{L}\p{N}_]+|,\d{3}(?!\d))*%?/gu;

/** The report as the claim checks read it: normaliseText (NFKC, no quotes or backticks, single spaces) but line breaks kept. */
export function normaliseReport(text: string): string {
  // Zero-width characters hide nothing: "pa\u200Bsses" reads "passes".
  return markResults(text.replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, ''))
    .split('\n')
    .map((line) => normaliseText(line))
    .filter((line) => line !== '')
    .join('\n');
}

/** Status marks a report lists results with ("- lint ❌", "✅ pnpm test"), read as the words they stand for. */
export function markResults(text: string): string {
  return text.replace(/\u2705|\u2714\uFE0F?|\u2713/g, ' passes ').replace(/\u274C|\u2716\uFE0F?|\u2717|\u2718/g, ' fails ');
}

/** The clauses of a normalised report, in order, each with its words. Linear in the text's length. */
export function clausesOf(text: string): Clause[] {
  const clauses: Clause[] = [];
  let from = 0;
  let after = '';
  const push = (end: number): void => {
    const body = text.slice(from, end);
    if (body.trim() !== '') clauses.push({ text: body, start: from, words: wordsOf(body, from), after });
  };
  for (const match of text.matchAll(CLAUSE_BREAK)) {
    push(match.index);
    from = match.index + match[0].length;
    after = match[0].trim().toLowerCase();
  }
  push(text.length);
  return clauses;
}

/** The words of `text` (offsets shifted by `offset`), lowercased. */
export function wordsOf(text: string, offset = 0): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({ text: match[0].toLowerCase(), start: offset + match.index, end: offset + match.index + match[0].length }));
}

/** Words that negate what follows them within a few words ("not", "n't", "never", "no", "without", "instead of" …). */
const NEGATORS = new Set([
  'not',
  'never',
  'no',
  'none',
  'nothing',
  'without',
  'cannot',
  "can't",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "haven't",
  "hasn't",
  "hadn't",
  "couldn't",
  'neither',
  'nor',
  'instead',
  'rather',
  'unlike',
  // the same without the apostrophe normaliseText removes
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'wont',
  'havent',
  'hasnt',
  'hadnt',
  'couldnt',
  'cant',
  'shouldnt',
  'wouldnt',
]);

/** Whether a word negates (a NEGATORS word, or any word ending in n't / n’t). */
export function isNegator(word: string): boolean {
  return NEGATORS.has(word.replace(/’/g, "'")) || /n['’]t$/.test(word);
}

/** Words that may stand between a negator and what it negates ("not all passing", "none of them fail", "isn't yet clean"). */
const BETWEEN_NEGATION =
  /^(?:going|gonna|to|get|got|gotten|make|getting|making|keep|be|been|being|is|are|was|were|do|does|did|have|has|had|yet|all|really|fully|quite|actually|even|any|a|an|the|entirely|completely|always|ever|currently|now|still|of|them|these|those|it|they|so|far|longer|more)$/;

/**
 * Whether a negator stands before index `at` in `words`, within `window` words, with only auxiliaries, adverbs and
 * determiners between (BETWEEN_NEGATION): "don't pass", "none of them fail", "not yet green" are negated; in "is not set
 * (401 Unauthorized)" the "not" negates "set", not "Unauthorized". `floor`: no word before it is read (a negator
 * before the subject does not reach a result after it).
 */
export function negatedAt(words: readonly Word[], at: number, window = 3, floor = 0): boolean {
  let reach = window;
  for (let i = at - 1; i >= Math.max(floor, at - reach); i -= 1) {
    const word = words[i] as Word;
    if (isNegator(word.text)) return true;
    // "haven't changed or pushed anything": a negated verb coordinated with this one.
    if (/^(?:or|nor)$/.test(word.text) && /(?:ed|en)$/.test(words[i - 1]?.text ?? '')) {
      i -= 1;
      reach += 2;
      continue;
    }
    if (!BETWEEN_NEGATION.test(word.text)) return false;
  }
  return false;
}

/**
 * Spans of `text` copied from `prompt`: every stretch of at least `min` characters (default 8) that also occurs in the
 * prompt, both compared in lowercase with spaces collapsed. An answer that echoes the question ("clamp(15, 0, 10)
 * returns …") asserts nothing by the copied part. O(|text| × |prompt|) with a rolling longest-common-suffix table;
 * the text is searched in its first 8,000 characters and the prompt in its first 4,000 (32M steps at most).
 */
export function echoSpans(text: string, prompt: string, min = 8): Array<{ start: number; end: number }> {
  const a = text.slice(0, 8_000).toLowerCase();
  const b = normaliseText(prompt).slice(0, 4_000).toLowerCase();
  if (a.length < min || b.length < min) return [];
  // best[i] = length of the longest prompt substring ending at a[i-1]
  let previous = new Uint16Array(b.length + 1);
  let current = new Uint16Array(b.length + 1);
  const longestEndingAt = new Uint16Array(a.length + 1);
  for (let i = 1; i <= a.length; i += 1) {
    let best = 0;
    for (let j = 1; j <= b.length; j += 1) {
      const value = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? Math.min((previous[j - 1] as number) + 1, 65_535) : 0;
      current[j] = value;
      if (value > best) best = value;
    }
    longestEndingAt[i] = best;
    [previous, current] = [current, previous];
  }
  const spans: Array<{ start: number; end: number }> = [];
  for (let i = a.length; i >= 1; ) {
    const length = longestEndingAt[i] as number;
    if (length >= min) {
      spans.push({ start: i - length, end: i });
      i -= length;
    } else i -= 1;
  }
  return spans.reverse();
}

/** Whether [start, end) lies inside one of `spans`. */
export function insideSpans(spans: ReadonlyArray<{ start: number; end: number }>, start: number, end: number): boolean {
  return spans.some((span) => start >= span.start && end <= span.end);
}
