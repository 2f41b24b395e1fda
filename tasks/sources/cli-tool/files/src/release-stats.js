// Release statistics: intervals between releases, their median and mean, cadence, and commit type shares.
import { DAY_MS, daysBetween, parseDay } from "./dates.js";

/** The middle value of `values` (the mean of the two middle ones for an even count); null for none. */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `part` of `whole` in percent, one decimal (12.5); 0 when `whole` is 0. */
export function percent(part, whole) {
  if (whole === 0) return 0;
  return Math.round((part / whole) * 1000) / 10;
}

/**
 * Statistics of release `tags` ({ date: "YYYY-MM-DD" | null }, newest first) as of `nowMs`: { releases, intervals
 * (days between consecutive releases, newest first), medianDays, meanDays (one decimal), daysSinceLast, perMonth
 * (releases in the last 90 days per 30 days, one decimal), stale (daysSinceLast > staleAfterDays) }. Undated tags
 * are left out.
 */
export function releaseStats(tags, nowMs, { staleAfterDays = 90 } = {}) {
  const days = tags.map((tag) => parseDay(tag.date ?? "")).filter((ms) => ms !== null);
  const intervals = [];
  for (let index = 1; index < days.length; index += 1) intervals.push(daysBetween(days[index], days[index - 1]));
  const total = intervals.reduce((sum, value) => sum + value, 0);
  const recent = days.filter((ms) => nowMs - ms <= 90 * DAY_MS).length;
  const daysSinceLast = days.length > 0 ? daysBetween(days[0], nowMs) : null;
  return {
    releases: days.length,
    intervals,
    medianDays: median(intervals),
    meanDays: intervals.length > 0 ? Math.round((total / intervals.length) * 10) / 10 : null,
    daysSinceLast,
    perMonth: Math.round((recent / 3) * 10) / 10,
    stale: daysSinceLast !== null && daysSinceLast > staleAfterDays,
  };
}

/** Commits per type ({ type, count, share } with share in percent), most first, ties by name; unparsed as "other". */
export function typeBreakdown(commits) {
  const counts = new Map();
  for (const commit of commits) {
    const type = commit === null ? "other" : commit.type;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts]
    .map(([type, count]) => ({ type, count, share: percent(count, commits.length) }))
    .sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
}
