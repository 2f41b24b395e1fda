// Owns how an error message lists names (task ids, strategies): the closest ones to what was asked, then a few.

/** Names listed in full at most; a longer list shows this many and a count of the rest. */
export const LISTED_NAMES = 12;

/** Edit distance (Levenshtein: insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * `names` for an error message: all of them when there are at most LISTED_NAMES; else the LISTED_NAMES closest to
 * `asked` (edit distance; names containing it first), in their original order, then "… and N more". E.g. a
 * 646-task suite's unknown id gets 12 near ids, not 646.
 */
export function listNames(names: readonly string[], asked?: string): string {
  if (names.length === 0) return '(none)';
  if (names.length <= LISTED_NAMES) return names.join(', ');
  let shown: readonly string[] = names.slice(0, LISTED_NAMES);
  if (asked !== undefined && asked !== '') {
    const needle = asked.toLowerCase();
    const scored = names.map((name, index) => ({ index, score: (name.toLowerCase().includes(needle) ? 0 : 1_000) + distance(name, asked) }));
    scored.sort((a, b) => a.score - b.score || a.index - b.index);
    const closest = new Set(scored.slice(0, LISTED_NAMES).map((entry) => entry.index));
    shown = names.filter((_, index) => closest.has(index));
  }
  return `${shown.join(', ')} … and ${names.length - shown.length} more`;
}
