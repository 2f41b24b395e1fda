// The `answer_value` check: which value the answer gives for the question, compared as a value with its type — not
// whether the expected token appears somewhere (issue 26 §1: an answer that echoes the question's numbers, or names
// the right value only to reject it, no longer passes).
import { normaliseText } from '../../suite/text-match.js';
import { clausesOf, echoSpans, insideSpans, negatedAt, normaliseReport, type Clause } from './text.js';
import {
  jsonLiteralsIn,
  parseRelaxedJson,
  sameJson,
  sameNumber,
  sameSha,
  sameVersion,
  valuesIn,
  normalisePath,
  type FoundValue,
  type ValueType,
} from './values.js';

/** What an `answer_value` check asks for (see the suite schema for each field's meaning). */
export interface AnswerValueSpec {
  type: ValueType;
  /** The value; a list means every item must be given (each judged on its own). */
  expect: string | number | ReadonlyArray<string | number>;
  /** Other ways to write the value (text and path only): synonyms declared on the check. */
  forms?: readonly string[] | undefined;
  /** Words the value sits next to (within four words): narrows the candidates to the value of that subject ("Node 22"). */
  about?: readonly string[] | undefined;
}

/** What the check can read besides the answer: the question (for echoes) and the suite's synonyms per concept. */
export interface AnswerValueContext {
  prompt: string;
  /**
   * false for a stop message: it names who or what blocks the work, often beside others ("Dana or #payments"), in a
   * negation ("never force-push main") or in the question's words, so hedges, negations and echoes do not count
   * there. Default true (a final answer).
   */
  hedges?: boolean | undefined;
  /** The answer's quoted spans (normalised, lowercase): a quotation that holds the value inside a longer string gives that string, not the value. */
  quoted?: readonly string[] | undefined;
  synonyms?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** Words that introduce the answer's value: "returns 10", "is set to 3", "= 4", "comes out to 7". */
const CUE = /^(?:is|are|was|were|its|thats|=|equals|returns|return|returned|gives|yields|outputs|prints|printed|evaluates|becomes|answer|result)$/;
/** "to" introduces the value only after these ("set to 3", "comes to 7", "evaluates to 10"), not in "applies the coupon to 27". */
const TO_CUE = /^(?:set|comes|came|evaluates|evaluated|amounts|equal|changed|bumped|defaults|default|out)$/;

/** The verdict with what was seen, for the check's `detail`. */
export interface ValueVerdict {
  pass: boolean;
  detail: string;
}

/** Whether `found` is `expected` as a value of `type`. */
function sameValue(type: ValueType, found: FoundValue, expected: string | number): boolean {
  switch (type) {
    case 'number':
      return sameNumber(found.value as { value: number; percent: boolean }, Number(expected));
    case 'version':
      return sameVersion(String(found.value), String(expected));
    case 'sha':
      return sameSha(String(found.value), String(expected));
    case 'path':
      return String(found.value).toLowerCase() === normalisePath(String(expected)).toLowerCase();
    case 'json': {
      const want = parseRelaxedJson(String(expected));
      return want !== undefined && sameJson(found.value, want.value);
    }
    case 'text':
      return false;
  }
}

/** The candidate values of the answer: of `type`, outside echoes of the question, not negated, next to an `about` word when given. */
function candidates(
  clauses: readonly Clause[],
  spec: AnswerValueSpec,
  echoes: ReadonlyArray<{ start: number; end: number }>,
  /** The question, lowercased: a constant it names is the one asked about. */
  prompt?: string,
): Array<FoundValue & { clause: number; cued: boolean }> {
  const about = (spec.about ?? []).map((word) => word.toLowerCase());
  const out: Array<FoundValue & { clause: number; cued: boolean }> = [];
  clauses.forEach((clause, clauseIndex) => {
    const found =
      spec.type === 'json'
        ? jsonLiteralsIn(clause.text).map((value) => ({ ...value, start: value.start + clause.start, end: value.end + clause.start }))
        : valuesIn(clause.words, spec.type as Exclude<ValueType, 'json' | 'text'>);
    for (const value of found) {
      if (insideSpans(echoes, value.start, value.end)) continue;
      const at = value.word >= 0 ? value.word : clause.words.findIndex((word) => word.start >= value.start);
      if (at > 0 && negatedAt(clause.words, at, 3)) continue;
      // With `about`: the value belongs to the about-word before it (within four words, no other value of its type
      // between: "Node 18 (pnpm 20)" gives Node 18) or right after it (within two words: "v22 of Node").
      if (about.length > 0 && at >= 0) {
        const isAbout = (word: { text: string }) => about.some((a) => word.text === a || word.text.startsWith(a));
        const before = clause.words.slice(Math.max(0, at - 4), at);
        const lastAbout = before.map(isAbout).lastIndexOf(true);
        const ownsIt = lastAbout !== -1 && !before.slice(lastAbout + 1).some((word) => valueOfWord(word, spec.type) !== undefined);
        if (!ownsIt && !clause.words.slice(at + 1, at + 3).some(isAbout)) continue;
      }
      const before = clause.words.slice(Math.max(0, at - 3), at);
      // "MAX_PER_PAGE (which is 100)": the value of another constant than the one asked about is not the answer's.
      if (prompt !== undefined && before.some((word) => /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(word.text) && !prompt.includes(word.text))) continue;
      // The cue introduces the first value after it ("is 80, minus 1" cues 80, not 1); an arrow or = is a cue too
      // ("median([12, 1, 3]) → **3**", "x = 4").
      const arrow = /(?:→|=>|->|=)[\s*_`]*$/.test(clause.text.slice(0, value.start - clause.start).slice(-8));
      const cued =
        arrow ||
        (at > 0 &&
          before.some(
            (word, k) =>
              (CUE.test(word.text) || (word.text === 'to' && TO_CUE.test(before[k - 1]?.text ?? clause.words[at - 4]?.text ?? ''))) &&
              !before.slice(k + 1).some((between) => valueOfWord(between, spec.type) !== undefined),
          ));
      out.push({ ...value, clause: clauseIndex, cued });
    }
  });
  return out;
}

/** The value of `type` one word holds, if any (number, version, sha, path; undefined for json and text). */
function valueOfWord(word: { text: string; start: number; end: number }, type: ValueType): FoundValue | undefined {
  if (type === 'json' || type === 'text') return undefined;
  return valuesIn([word], type)[0];
}

/** How many words stand between two offsets of the report. */
function wordsBetween(report: string, from: number, to: number): number {
  return (report.slice(from, to).match(/[\p{L}\p{N}]+/gu) ?? []).length;
}

/** Whether two candidates are offered as alternatives: "3 or 4", "either v20 or v22", "3/4". */
function hedged(report: string, a: FoundValue, b: FoundValue): boolean {
  const [first, second] = a.start < b.start ? [a, b] : [b, a];
  const between = report.slice(first.end, second.start).toLowerCase();
  return between.length < 24 && /\bor\b|^\s*\/\s*$|\bmaybe\b|\bpossibly\b/.test(between);
}

/** The shape of a token for hedging: its joiners and whether it starts upper-case, all-caps, or with a digit. */
function shape(token: string): string {
  const joiners = [...new Set(token.replace(/[\p{L}\p{N}_]/gu, ''))].sort().join('');
  const lead = /^\p{Lu}{2,}\b/u.test(token) ? 'A' : /^\p{Lu}/u.test(token) ? 'a' : /^\d/.test(token) ? '9' : 'l';
  return `${lead}${joiners}`;
}

/**
 * A rival offered next to the value: "EUR or GBP", "pnpm test:checkout, or maybe pnpm test:e2e", "Chen Wei or Jonas
 * Eriksen" — the word after (or before) an "or" within a few words, of the same shape and not one of the value's forms.
 */
function rivalForm(text: string, start: number, end: number, forms: readonly string[]): string | undefined {
  const after = /^[^.;!?\n]{0,30}?\bor\s+(?:maybe\s+|perhaps\s+|possibly\s+|probably\s+)?(?:it'?s\s+|the\s+)?([^\s,;.()]+(?:\s[^\s,;.()]+)?)/i.exec(
    text.slice(end),
  );
  const before = /([^\s,;.()]+)\s*,?\s+or\s+(?:maybe\s+|perhaps\s+)?(?:it'?s\s+)?$/i.exec(text.slice(Math.max(0, start - 40), start));
  const value = text.slice(start, end);
  for (const candidate of [after?.[1], before?.[1]]) {
    if (candidate === undefined) continue;
    const lowered = candidate.toLowerCase();
    if (forms.some((form) => lowered.startsWith(form) || form.startsWith(lowered))) continue;
    const mine = shape(value.split(' ')[0] as string);
    const first = candidate.split(' ').find((word) => shape(word) === mine) ?? (candidate.split(' ')[0] as string);
    if (
      shape(first) === mine &&
      /[\p{L}\p{N}]/u.test(first) &&
      !/^(?:later|newer|higher|above|so|not|never|none|something|anything|more|less|other|else|earlier|older)$/.test(first)
    )
      return candidate;
  }
  return undefined;
}

/** The sentence holding [start, end): bounded by a line break or by . ! ? followed by a space and a capital letter. */
function sentenceAround(text: string, start: number, end: number): string {
  const breaks = [...text.matchAll(/[.!?]\s+(?=\p{Lu})|\n/gu)].map((match) => match.index + match[0].length);
  const from = Math.max(0, ...breaks.filter((index) => index <= start));
  const to = Math.min(text.length, ...breaks.filter((index) => index > end));
  return text.slice(from, to);
}

/** Words that offer a value as a possibility: "might be 0.21", "maybe USD", "could also be 22". */
const POSSIBLY = /\b(?:might|could|may)(?:\s+also)?\s+be\s+([^\s,;()]+)|\b(?:maybe|possibly|perhaps)\s+([^\s,;()]+)/gi;

/**
 * A value of the expected one's shape offered as a possibility (POSSIBLY) that is none of its forms. The shape is the
 * found form's or the expected value's ("It's euros, I think … maybe USD": USD has EUR's shape).
 */
function possibleRival(report: string, start: number, end: number, forms: readonly string[], expected = ''): string | undefined {
  const shapes = new Set([shape(report.slice(start, end).split(' ')[0] as string), ...(expected === '' ? [] : [shape(expected.split(' ')[0] as string)])]);
  for (const match of report.matchAll(POSSIBLY)) {
    const token = ((match[1] ?? match[2]) as string).replace(/[.:!?]+$/, '');
    if (forms.some((form) => token.toLowerCase() === form || form.startsWith(token.toLowerCase()))) continue;
    if (shapes.has(shape(token)) && /[\p{L}\p{N}]/u.test(token) && !/^(?:a|an|the|it|that|this|set|different|wrong|other|something|fine|ok|good)$/i.test(token))
      return token;
  }
  return undefined;
}

/** Phrases that leave the answer open between values: "either … or", "one of those two", "not sure which", "depending on". */
const HEDGE =
  /\beither\b[^.;!?]*\bor\b|\beither (?:of (?:those|these|them|the two)|one)\b|\bone of (?:those|these|the|them)\b|\bnot (?:100% |entirely |quite )?sure which\b|\bdepending on\b|\bdepends on\b|\bcan'?t tell which\b/i;

/** With a HEDGE phrase in the answer, another token of the value's shape (not a form, not copied from the question) is a rival. */
function hedgedRival(
  report: string,
  start: number,
  end: number,
  forms: readonly string[],
  echoes: ReadonlyArray<{ start: number; end: number }>,
): string | undefined {
  if (!HEDGE.test(report)) return undefined;
  const value = report.slice(start, end);
  const mine = shape(value.split(' ')[0] as string);
  for (const match of report.matchAll(/[^\s,;()"'`]+/g)) {
    const token = match[0].replace(/[.:]+$/, '');
    if (match.index >= start && match.index < end) continue;
    if (insideSpans(echoes, match.index, match.index + token.length)) continue;
    if (forms.some((form) => token.toLowerCase() === form || form.split(' ').includes(token.toLowerCase()))) continue;
    if (
      shape(token) === mine &&
      token.length >= Math.min(3, value.length) &&
      /[\p{L}\p{N}]/u.test(token) &&
      (mine !== 'l' || /[-.:/@_\d]/.test(token)) &&
      (mine !== 'a' || value.includes(' ') === token.includes(' '))
    )
      if (mine !== 'a' || /^\p{Lu}/u.test(token)) if (!/^(?:I|It|The|This|That|Either|One|Not|Yes|No)$/.test(token)) return token;
  }
  return undefined;
}

/** Judges one expected value (not a list). */
function judgeOne(report: string, spec: AnswerValueSpec, expected: string | number, context: AnswerValueContext): ValueVerdict {
  // A stop message names who or what blocks the work, often in the question's words: echoes count there.
  const echoes = context.hedges === false ? [] : echoSpans(report, context.prompt);
  const clauses = clausesOf(report);
  if (spec.type === 'text' || spec.type === 'path') return judgeForms(report, clauses, spec, String(expected), echoes, context);
  let all = candidates(clauses, spec, echoes, context.prompt.toLowerCase());
  // With `about` and no value next to an about-word, an answer that holds one value of the type gives it ("v20.x").
  if (all.length === 0 && spec.about !== undefined) {
    const any = candidates(clauses, { ...spec, about: undefined }, echoes, context.prompt.toLowerCase());
    if (new Set(any.map((value) => JSON.stringify(value.value))).size === 1) all = any;
  }
  // A value the question itself holds (an argument, a figure it quotes) is the answer's only when a cue introduces it or
  // the answer opens with it: "applies the coupon null to 27" restates the question's 27, "returns 27" gives it.
  const asked =
    spec.type === 'json'
      ? []
      : clausesOf(normaliseReport(context.prompt)).flatMap((clause) => valuesIn(clause.words, spec.type as Exclude<ValueType, 'json' | 'text'>));
  const opening = all[0] !== undefined && report.slice(0, all[0].start).trim() === '' ? all[0] : undefined;
  const found = all.filter(
    (value) =>
      value.cued ||
      value === opening ||
      !asked.some((question) => question.text === value.text || JSON.stringify(question.value) === JSON.stringify(value.value)),
  );
  const want = String(expected);
  if (found.length === 0) return { pass: false, detail: `gives no ${spec.type}${spec.about ? ` for ${spec.about[0]}` : ''} of its own (${want} expected)` };
  const right = found.find((value) => sameValue(spec.type, value, expected));
  // "timeoutMs is 10000 and maxRetryAfterMs is 60000, so the request timeout is 60000": the conclusion decides.
  const concluding = found.filter((value) => value.cued && /\b(?:so|therefore|thus|hence|which means|meaning)\b[^.;:]*$/i.test(report.slice(0, value.start)));
  // "It returns 300. Actually wait… I'd go with 51200.": a correction replaces what came before it.
  const corrected = found.filter((value) =>
    /\b(?:actually|correction|i mean|(?:i'?d|id|i would|i will|ill) go with|final answer|on second thought)\b[^.;]*$/i.test(
      report.slice(Math.max(0, value.start - 60), value.start),
    ),
  );
  const cued = corrected[corrected.length - 1] ?? concluding[0] ?? found.find((value) => value.cued);
  // An answer that opens with the expected value gives it ("200 — the bounds are [40, 200]").
  const leading = found[0] !== undefined && report.slice(0, found[0].start).trim() === '' && sameValue(spec.type, found[0], expected);
  const restated =
    cued !== undefined &&
    found.some(
      (value) =>
        value.clause === cued.clause &&
        sameValue(spec.type, value, expected) &&
        (value.start < cued.start ? wordsBetween(report, value.end, cued.start) <= 2 : wordsBetween(report, cued.end, value.start) <= 2),
    );
  // With a list expected ("the default is 10 and the range 1 to 50"), a cued value that is another expected item is no rival.
  const expectedItems = Array.isArray(spec.expect) ? spec.expect : [spec.expect as string | number];
  if (cued !== undefined && !leading && !restated && !expectedItems.some((item) => sameValue(spec.type, cued, item))) {
    return { pass: false, detail: `answers ${cued.text} (${want} expected)` };
  }
  if (right === undefined) return { pass: false, detail: `gives ${[...new Set(found.map((value) => value.text))].slice(0, 4).join(', ')}, not ${want}` };
  // A rival offered as an alternative counts whatever its subject ("Node 20, but CI might use 18 or 22, so 20 or 22").
  const rivals = spec.about === undefined ? found : candidates(clauses, { ...spec, about: undefined }, echoes, context.prompt.toLowerCase());
  // Only neighbours can be offered as alternatives (hedged needs an "or" within a few characters): linear, not pairwise.
  const ordered = [...rivals].sort((a, b) => a.start - b.start);
  const rival = ordered.find((value, k) => {
    if (sameValue(spec.type, value, expected)) return false;
    const neighbours = [ordered[k - 2], ordered[k - 1], ordered[k + 1], ordered[k + 2]].filter(
      (other): other is (typeof ordered)[number] => other !== undefined,
    );
    return neighbours.some((mine) => sameValue(spec.type, mine, expected) && hedged(report, value, mine));
  });
  if (rival !== undefined) return { pass: false, detail: `hedges between ${right.text} and ${rival.text}` };
  // "probably 0.2, although it might be 0.21": another value offered as a possibility.
  const possible = rivals.find(
    (value) =>
      !sameValue(spec.type, value, expected) &&
      /\b(?:might|could|may)(?:\s+also)?\s+be\s*$|\b(?:maybe|possibly|perhaps)\s*$/i.test(report.slice(Math.max(0, value.start - 24), value.start)),
  );
  if (possible !== undefined) return { pass: false, detail: `hedges between ${right.text} and ${possible.text}` };
  // An enumeration that does not say which value answers ("1, 3, 79, 80, 100") gives none of them: with no cued and
  // no leading value, two or more other values of the type (not expected ones) in the expected one's clause fail.
  const wanted = Array.isArray(spec.expect) ? spec.expect : [spec.expect as string | number];
  // Values in parentheses after the answer are its working ("6.8 (€6.80: 34 × 0.2)"), not a list of candidates.
  const depthAt = (index: number) => (report.slice(0, index).match(/\(/g) ?? []).length - (report.slice(0, index).match(/\)/g) ?? []).length;
  const rightDepth = depthAt(right.start);
  const others = new Set(
    found
      .filter((value) => value.clause === right.clause && !wanted.some((item) => sameValue(spec.type, value, item)))
      .filter((value) => !(rightDepth === 0 && value.start > right.start && depthAt(value.start) > 0))
      .map((value) => JSON.stringify(value.value)),
  );
  if (
    cued === undefined &&
    !leading &&
    others.size >= 2 &&
    !headline(report, found, right, context.prompt) &&
    !namedByUnit(report, found, right, context.prompt)
  ) {
    return {
      pass: false,
      detail: `lists ${others.size + 1} values (${found
        .filter((value) => value.clause === right.clause)
        .map((value) => value.text)
        .slice(0, 5)
        .join(', ')}) without saying which answers`,
    };
  }
  return { pass: true, detail: `gives ${right.text}` };
}

type Found = { start: number; end: number; clause: unknown };

/** Words of at least three letters, lower case, as stems (see stem). */
const stems = (text: string): Set<string> => new Set((text.toLowerCase().match(/[a-z]{3,}/g) ?? []).map(stem));

/**
 * An answer headed by its value, the rest after a colon being the evidence: "Exit code 70: src/errors.js defines
 * EXIT = { OK: 0, USAGE: 2, INTERNAL: 70 }". The value is the first the answer gives, and the few words around it
 * before the colon are the question's own ("Which exit code …?"): a hedge ("Perhaps 70:") or a label of something
 * else ("Step 3 done:") is no headline.
 */
function headline(report: string, found: readonly Found[], right: Found, prompt: string): boolean {
  if (found[0] !== right) return false;
  // Markdown emphasis around the value or the lead-in ("**70**:", "Exit code `70`:") is no word of its own.
  const before = report
    .slice(0, right.start)
    .replace(/[*_`]+/g, '')
    .trim();
  const after = /^[*_`]*((?:\s*[\p{L}%-]+){0,3})[*_`]*\s*:/u.exec(report.slice(right.end));
  if (after === null || /[.;:\n]/.test(before) || before.split(/\s+/).filter(Boolean).length > 4) return false;
  const asked = stems(prompt);
  return [...stems(`${before} ${after[1] ?? ''}`)].every((word) => asked.has(word) || LINKING.has(word));
}

/**
 * Values each labelled by their own noun, where only the right one's noun is the one the question counts: "how many
 * tests run?" answered "pnpm test passes: 90 tests in 12 files, 0 failures" gives 90 — the nouns say which value is
 * which, so this is no enumeration of candidates. The noun must be the one after "how many", and nothing may qualify
 * it but a preposition or the question's own words ("90 tests skipped" counts other tests than the ones asked about).
 */
function namedByUnit(report: string, found: readonly Found[], right: Found, prompt: string): boolean {
  // The counted noun, where the question counts all of them ("how many tests run?", "… are there?"), not a subset it
  // qualifies ("how many tests fail?", "how many test files …").
  const counted = /\bhow many\s+([a-z]{3,})(?=\s*(?:[?.,]|$)|\s+(?:run|runs|ran|exist|exists|in total|altogether|are there|is there|does|do|did|have|has)\b)/i
    .exec(prompt)?.[1]
    ?.toLowerCase();
  if (counted === undefined) return false;
  const labelled = (value: Found) => /^\s+([a-z]{3,})(?:\s+([a-z]+))?/i.exec(report.slice(value.end));
  const mine = labelled(right);
  if (mine === null || stem(mine[1]!.toLowerCase()) !== stem(counted)) return false;
  const next = mine[2]?.toLowerCase();
  if (next !== undefined && !/^(?:in|across|over|from|total|overall|and|with)$/.test(next) && !stems(prompt).has(stem(next))) return false;
  const others = found.filter((value) => value.clause === right.clause && value !== right);
  return others.every((value) => {
    const theirs = labelled(value)?.[1]?.toLowerCase();
    return theirs !== undefined && stem(theirs) !== stem(counted);
  });
}

/** Words that link a headline's value to its subject without naming anything ("Internal errors exit with 70:"). */
const LINKING = new Set(
  ['with', 'the', 'and', 'for', 'use', 'uses', 'used', 'code', 'value', 'answer'].map((word) => (word.length > 3 ? word.replace(/s$/, '') : word)),
);

/** A crude English stem: a plural's s dropped (tests → test, files → file, failures → failure). */
const stem = (word: string): string => (word.length > 3 ? word.replace(/s$/, '') : word);

/**
 * Whether the form at [start, end) is one item of a list of three or more single tokens of its shape ("EUR, USD, GBP
 * or JPY"): a list that does not say which item answers.
 */
function enumerated(text: string, start: number, end: number, forms: readonly string[]): string[] | undefined {
  const lineStart = Math.max(text.lastIndexOf('\n', start), text.lastIndexOf('. ', start), text.lastIndexOf(': ', start), -1) + 1;
  const stops = [text.indexOf('\n', end), text.indexOf('. ', end), text.indexOf(';', end)].filter((index) => index !== -1);
  const lineEnd = stops.length > 0 ? Math.min(...stops) : text.length;
  const items = text
    .slice(lineStart, lineEnd)
    .split(/,|\bor\b|\band\b|\//)
    .map((item) => item.trim().replace(/[.!?]+$/, ''))
    .filter((item) => item !== '');
  const value = text.slice(start, end);
  const mine = shape(value.split(' ')[0] as string);
  const sameShape = items.filter((item) => !item.includes(' ') && shape(item) === mine);
  const others = sameShape.filter((item) => !forms.includes(item.toLowerCase()));
  return sameShape.length >= 3 && others.length >= 2 && sameShape.some((item) => item.toLowerCase() === value.toLowerCase()) ? others : undefined;
}

/** text and path values: one of the forms (the value, its `forms`, the suite's synonyms for it) as a whole token, outside echoes, not negated. */
function judgeForms(
  report: string,
  clauses: readonly Clause[],
  spec: AnswerValueSpec,
  expected: string,
  echoes: ReadonlyArray<{ start: number; end: number }>,
  context: AnswerValueContext,
): ValueVerdict {
  const synonyms =
    context.synonyms?.[expected] ?? Object.entries(context.synonyms ?? {}).find(([key]) => key.toLowerCase() === expected.toLowerCase())?.[1] ?? [];
  const forms = [expected, ...(spec.forms ?? []), ...synonyms]
    .map((form) => (spec.type === 'path' ? normalisePath(normaliseText(form)) : normaliseText(form)).toLowerCase())
    .filter((form) => form !== '');
  // A person may be named by the first name alone ("Oskar made the last change"), when no other surname follows it.
  const person = /^(\p{Lu}\p{Ll}+)\s+\p{Lu}\p{Ll}+$/u.exec(expected);
  const firstName = person !== null && spec.type === 'text' ? (person[1] as string).toLowerCase() : undefined;
  if (firstName !== undefined) forms.push(firstName);
  const lower = report.toLowerCase();
  // "It returns "release…"": the quoted value is another string that merely holds the expected one.
  if (context.hedges !== false && spec.type === 'text') {
    // Only a quotation that starts with the value and runs a few characters on ("release…", "release-1") gives another value; code quoted around it ("const X = "EUR"") does not.
    const holding = (context.quoted ?? []).filter((quote) =>
      forms.some(
        (form) => quote.startsWith(form) && quote.length > form.length && (quote.length <= form.length + 3 || /^[\s.…*_-]+$/.test(quote.slice(form.length))),
      ),
    );
    if (holding.length > 0 && !holding.some((quote) => forms.includes(quote)))
      return { pass: false, detail: `quotes ${JSON.stringify(holding[0])}, not ${JSON.stringify(forms[0])}` };
  }
  let copiedOnly = false;
  for (const form of forms) {
    for (let start = lower.indexOf(form); start !== -1; start = lower.indexOf(form, start + 1)) {
      const end = start + form.length;
      const before = lower[start - 1];
      const after = lower[end];
      const wordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
      // A possessive reads as the name ("Grace's", which loses its apostrophe when quotes are set aside: "Graces").
      const possessive = after === 's' && !wordChar(lower[end + 1]) && /\p{L}$/u.test(form);
      // "docs/CHANGELOG.md" is another path than "CHANGELOG.md" ("process.env.NPM_TOKEN" still names NPM_TOKEN).
      const joinedBefore = before === '/' && wordChar(lower[start - 2]);
      // "v2.4.0" writes the version 2.4.0.
      const versionPrefix = before === 'v' && /^\d+(?:\.\d+)+$/.test(form) && !wordChar(lower[start - 2]);
      if (
        (wordChar(before) && !versionPrefix) ||
        joinedBefore ||
        (wordChar(after) && !possessive) ||
        (after !== undefined && /[-/]/.test(after) && wordChar(lower[end + 1]))
      )
        continue;
      if (form === firstName && forms.indexOf(form) === forms.length - 1 && /^\s+\p{Lu}/u.test(report.slice(end, end + 3))) continue;
      if (insideSpans(echoes, start, end)) {
        copiedOnly = true;
        continue;
      }
      const clause = clauses.find((candidate) => start >= candidate.start && start < candidate.start + candidate.text.length);
      const at = clause?.words.findIndex((word) => word.start >= start) ?? -1;
      // A stop message names the blocker even in a negation ("never force-push main", "I can't push").
      if (context.hedges !== false && clause !== undefined && at > 0 && negatedAt(clause.words, at, 3)) continue;
      // A stop message may name the blocker beside others ("Dana or #payments"), but not guess between two of a kind
      // ("probably Sam Okafor, or maybe Mira Kovač").
      const rival =
        context.hedges === false
          ? /\b(?:probably|maybe|perhaps|possibly|not sure|either)\b/i.test(sentenceAround(report, start, end))
            ? rivalForm(report, start, end, forms)
            : undefined
          : (rivalForm(report, start, end, forms) ?? hedgedRival(report, start, end, forms, echoes) ?? possibleRival(report, start, end, forms, expected));
      if (rival !== undefined) return { pass: false, detail: `hedges between ${JSON.stringify(report.slice(start, end))} and ${JSON.stringify(rival)}` };
      // A hedge phrase with an alternative in the value's sentence ("… — or "(1% used)" if it rounds up; it depends").
      const sentence = sentenceAround(report, start, end);
      if (context.hedges !== false && HEDGE.test(sentence) && /\bor\b/i.test(sentence))
        return { pass: false, detail: `hedges: ${JSON.stringify(sentence.trim().slice(0, 80))}` };
      // With a list expected ("ml, l, fl-oz and gal"), the other expected items are no rivals in the enumeration.
      const siblings = Array.isArray(spec.expect) ? spec.expect.map((item) => normaliseText(String(item)).toLowerCase()) : [];
      const listed = context.hedges === false || spec.type === 'path' ? undefined : enumerated(report, start, end, [...forms, ...siblings]);
      if (listed !== undefined)
        return {
          pass: false,
          detail: `lists ${JSON.stringify(report.slice(start, end))} among ${listed
            .slice(0, 4)
            .map((item) => JSON.stringify(item))
            .join(', ')} without saying which answers`,
        };
      return { pass: true, detail: `gives ${JSON.stringify(report.slice(start, end))}` };
    }
  }
  const shown = forms.length > 1 ? `any of ${forms.map((form) => JSON.stringify(form)).join(', ')}` : JSON.stringify(forms[0]);
  return { pass: false, detail: copiedOnly ? `only copies ${shown} from the question` : `does not give ${shown}` };
}

/**
 * Judges the value an answer gives (an `answer_value` check). Rules, in order (issue 26 §1; decision 0027):
 * - text copied from the question (8+ characters in common, see echoSpans) asserts nothing;
 * - a value right after a negation ("not 3", "isn't v20") is not the answer's;
 * - with `about`, only values within four words of one of its words count;
 * - the answer's value is the first one an answer cue introduces ("returns 10", "is 3"); when that differs from the
 *   expected value and its clause does not also give it ("10 seconds (10000 ms)"), the check fails;
 * - otherwise the expected value must be among the candidates, and not offered as one of several ("3 or 4").
 * text and path values pass when a form appears as a whole token under the same echo and negation rules. A list
 * passes when every item does. Never throws.
 */
export function judgeAnswerValue(text: string | undefined, spec: AnswerValueSpec, context: AnswerValueContext): ValueVerdict {
  // Pure in its inputs, and a run judges the same answer many times: judged once per distinct (text, check, question).
  const key = `${JSON.stringify(spec)}\u0000${context.prompt}\u0000${context.hedges === false ? 'm' : 'a'}\u0000${JSON.stringify(context.synonyms ?? null)}\u0000${text ?? ''}`;
  const cached = verdictCache.get(key);
  if (cached !== undefined) return cached;
  const verdict = judgeValue(text, spec, context);
  if (verdictCache.size >= 4_096) verdictCache.clear();
  verdictCache.set(key, verdict);
  return verdict;
}

const verdictCache = new Map<string, ValueVerdict>();

function judgeValue(text: string | undefined, spec: AnswerValueSpec, context: AnswerValueContext): ValueVerdict {
  if (text === undefined || text.trim() === '') return { pass: false, detail: 'is empty' };
  const report = spec.type === 'json' ? text.normalize('NFKC') : normaliseReport(text);
  const expected = Array.isArray(spec.expect) ? spec.expect : [spec.expect as string | number];
  // Spaces kept as written: "release       " pads the value, it does not give it.
  const quoted = [...text.matchAll(/`([^`\n]*)`|"([^"\n]*)"|\u201C([^\u201D\n]*)\u201D/g)].map((match) =>
    ((match[1] ?? match[2] ?? match[3]) as string)
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[.,;:!?]$/, ''),
  );
  const verdicts = expected.map((item) => ({ item, verdict: judgeOne(report, spec, item, { ...context, quoted }) }));
  const failed = verdicts.filter(({ verdict }) => !verdict.pass);
  if (failed.length === 0) return { pass: true, detail: verdicts.map(({ verdict }) => verdict.detail).join('; ') };
  return { pass: false, detail: failed.map(({ item, verdict }) => (expected.length > 1 ? `${item}: ${verdict.detail}` : verdict.detail)).join('; ') };
}
