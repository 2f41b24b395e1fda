// Calendar days in UTC: strict YYYY-MM-DD parsing, day arithmetic and "3 weeks ago" wording.
export const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds of midnight UTC of a YYYY-MM-DD day, or null when the text is not a real calendar day (2026-02-30). */
export function parseDay(text) {
  const match = DAY.exec(String(text).trim());
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/** The YYYY-MM-DD day (UTC) of a time in ms. */
export function formatDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole days from `fromMs` to `toMs`, counted between their UTC midnights (negative when `toMs` is earlier). */
export function daysBetween(fromMs, toMs) {
  return Math.round((startOfDay(toMs) - startOfDay(fromMs)) / DAY_MS);
}

function startOfDay(ms) {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * An age in days as people say it: "today", "yesterday", "5 days ago" (under two weeks), "3 weeks ago" (under
 * 60 days, rounded to the nearest week), "4 months ago" (under a year, months of 30.44 days), "2 years ago".
 */
export function relativeAge(days) {
  if (days < 0) return "in the future";
  if (days === 0) return "today";
  if (days === 1) return "yesterday";
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.round(days / 7)} weeks ago`;
  if (days < 365) return `${Math.round(days / 30.44)} months ago`;
  const years = Math.floor(days / 365);
  return years === 1 ? "a year ago" : `${years} years ago`;
}
