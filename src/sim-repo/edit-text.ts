// Owns exact-text replacement in one file's content: uniqueness, replace-all and the CRLF policy (HB04, HB05).
import { repoError, type RepoResult } from './results.js';

/** A successful replacement: the new content, how many occurrences changed, whether line endings were adapted. */
export interface EditedText {
  content: string;
  replacements: number;
  /** True when LF in `old`/`new` was converted to CRLF to match a CRLF file. */
  crlfAdapted: boolean;
}

/**
 * Replaces `old` with `replacement` in `content`; never changes anything else.
 *
 * - `old` empty → `empty_old`. Not present → `old_not_found`.
 * - Present more than once and `replaceAll` false → `ambiguous_match`, naming the count and the 1-based
 *   line of each match. With `replaceAll` every (non-overlapping) occurrence is replaced.
 * - CRLF policy: when the file uses CRLF line endings (it has `\r\n` and no bare `\n`) and `old` contains
 *   `\n` but no `\r\n`, every `\n` in `old` — and likewise in `replacement`, if it has no `\r\n` — becomes
 *   `\r\n` before matching. Uniqueness is checked after this adaptation. Bytes outside the match are kept,
 *   so the file stays CRLF and a diff shows only the edited lines. LF and mixed files are matched as given.
 *
 * `displayPath` is only used in messages.
 */
export function replaceText(content: string, old: string, replacement: string, replaceAll: boolean, displayPath: string): RepoResult<EditedText> {
  if (old === '') {
    return repoError('empty_old', `old text is empty; ${displayPath} was not changed. Give the exact existing text to replace.`);
  }
  let target = old;
  let substitute = replacement;
  const crlfAdapted = usesCrlf(content) && old.includes('\n') && !old.includes('\r\n');
  if (crlfAdapted) {
    target = old.replaceAll('\n', '\r\n');
    if (!replacement.includes('\r\n')) substitute = replacement.replaceAll('\n', '\r\n');
  }
  const positions = occurrences(content, target);
  if (positions.length === 0) {
    return repoError(
      'old_not_found',
      `old text not found in ${displayPath}; the file was not changed. Read the file and copy the exact text to replace, including indentation and whitespace.`,
    );
  }
  if (positions.length > 1 && !replaceAll) {
    const lines = positions.map((position) => lineOf(content, position));
    return repoError(
      'ambiguous_match',
      `old text matches ${positions.length} times in ${displayPath} (at lines ${joinList(lines)}); the file was not changed. ` +
        'Include more surrounding lines in old so it matches exactly once, or set replace_all to true to replace every occurrence.',
    );
  }
  const edited = replaceAll
    ? content.split(target).join(substitute)
    : content.slice(0, positions[0]!) + substitute + content.slice(positions[0]! + target.length);
  return { ok: true, content: edited, replacements: replaceAll ? positions.length : 1, crlfAdapted };
}

/** True when every line break in `content` is CRLF (and there is at least one). */
export function usesCrlf(content: string): boolean {
  return content.includes('\r\n') && !/(^|[^\r])\n/.test(content);
}

/** Start offsets of the non-overlapping occurrences of `needle`, left to right. */
function occurrences(haystack: string, needle: string): number[] {
  const positions: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    positions.push(index);
  }
  return positions;
}

/** 1-based line number of character `offset`. */
function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let index = content.indexOf('\n'); index !== -1 && index < offset; index = content.indexOf('\n', index + 1)) line++;
  return line;
}

/** `[3]` → "3", `[3, 9]` → "3 and 9", `[3, 9, 12]` → "3, 9 and 12". */
function joinList(items: number[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
