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

/** Words of a name: its parts between `-`, `_`, `.`, `/` and spaces, lower-cased. */
const words = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[-_./\s]+/)
    .filter(Boolean);

/**
 * `names` for an error message: all of them when there are at most LISTED_NAMES; else the LISTED_NAMES nearest to
 * `asked`, nearest first, then "… and N more". Nearest: containing `asked`, then sharing more of its words (a
 * generated id such as `shop-green-rename-tax-rate-v1` for `rename-tax-rate`), then by edit distance. Without
 * `asked`, the first LISTED_NAMES. E.g. a 646-task suite's unknown id gets 12 near ids, not 646.
 */
export function listNames(names: readonly string[], asked?: string): string {
  if (names.length === 0) return '(none)';
  if (names.length <= LISTED_NAMES) return names.join(', ');
  let shown: readonly string[] = names.slice(0, LISTED_NAMES);
  if (asked !== undefined && asked !== '') {
    const needle = asked.toLowerCase();
    const wanted = new Set(words(asked));
    const scored = names.map((name, index) => {
      const shared = words(name).filter((word) => wanted.has(word)).length;
      return { name, index, contains: name.toLowerCase().includes(needle) ? 0 : 1, shared, distance: distance(name, asked) };
    });
    scored.sort((a, b) => a.contains - b.contains || b.shared - a.shared || a.distance - b.distance || a.index - b.index);
    shown = scored.slice(0, LISTED_NAMES).map((entry) => entry.name);
  }
  return `${shown.join(', ')} … and ${names.length - shown.length} more`;
}
