// How the rules read an answer or stop-message check: what it asks for, in words, and whether some text shows it.
import { DEFAULT_PATTERN_FLAGS, matchWords, type WordMatcher } from '../suite/text-match.js';

/** The matcher of a recorded word check (answer_contains, message_mentions); undefined when it holds no usable words. */
function wordMatcher(check: Record<string, unknown>): WordMatcher | undefined {
  if (check['check'] === 'answer_value') {
    // The value and its forms, as whole tokens: what a tool output must show for the report to have been able to give it.
    const values = [...(Array.isArray(check['expect']) ? check['expect'] : [check['expect']]), ...(Array.isArray(check['forms']) ? check['forms'] : [])]
      .filter((value): value is string | number => typeof value === 'string' || typeof value === 'number')
      .map(String);
    return values.length > 0 ? { any_of: values, exact_token: true } : undefined;
  }
  const { text, any_of: anyOf, pattern, flags, exact_token: exactToken } = check;
  const matcher: WordMatcher = { exact_token: exactToken === true };
  if (typeof text === 'string') matcher.text = text;
  else if (Array.isArray(anyOf) && anyOf.length > 0 && anyOf.every((alternative): alternative is string => typeof alternative === 'string'))
    matcher.any_of = anyOf;
  else if (typeof pattern === 'string') {
    matcher.pattern = pattern;
    if (typeof flags === 'string') matcher.flags = flags;
  } else return undefined;
  return matcher;
}

/**
 * What a word check asks for, for an explanation: `"API_TOKEN"` (text), `any of "no-unused-vars", "unused variable"`
 * (any_of), `/no-unused-vars|unused/i` (pattern with its flags, default i), followed by ` as a whole token` with
 * exact_token. A check with none of them is named by its kind.
 */
export function describeWords(check: Record<string, unknown>): string {
  const matcher = wordMatcher(check);
  if (matcher === undefined) return String(check['check']);
  const token = matcher.exact_token === true ? ' as a whole token' : '';
  if (matcher.text !== undefined) return `${JSON.stringify(matcher.text)}${token}`;
  if (matcher.any_of !== undefined) return `any of ${matcher.any_of.map((alternative) => JSON.stringify(alternative)).join(', ')}${token}`;
  return `/${matcher.pattern}/${matcher.flags ?? DEFAULT_PATTERN_FLAGS}${token}`;
}

/**
 * Whether `text` holds what the word check asks for, matched as the check itself matches (normalised, case-insensitive
 * text or alternatives, the pattern with its flags, whole tokens with exact_token). False for a check without usable
 * words or with a pattern that does not compile (the suite loader refuses both).
 */
export function showsWords(text: string, check: Record<string, unknown>): boolean {
  const matcher = wordMatcher(check);
  if (matcher === undefined) return false;
  try {
    return matchWords(text, matcher).pass;
  } catch {
    return false;
  }
}
