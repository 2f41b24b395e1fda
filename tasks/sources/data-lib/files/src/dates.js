// Calendar dates in UTC: strict parsing, leap years, ISO weeks, and the buckets a time series is grouped into.

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?Z?)?$/;

/** True for Gregorian leap years: every 4th year, except centuries not divisible by 400. */
export function isLeapYear(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1–12) of `year`. */
export function daysInMonth(year, month) {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS][Z]` as UTC. Returns null for anything else, including dates that do
 * not exist (2026-02-29, 2026-04-31, month 13, hour 24).
 */
export function parseDate(text) {
  const match = ISO_DATE.exec(text.trim());
  if (match === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

/** Whole days from `from` to `to` (negative when `to` is earlier), counted between UTC midnights. */
export function daysBetween(from, to) {
  return Math.round((startOfDay(to) - startOfDay(from)) / DAY_MS);
}

/** `date` moved by `days` (may be negative). */
export function addDays(date, days) {
  return new Date(date.getTime() + days * DAY_MS);
}

function startOfDay(date) {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/**
 * The ISO 8601 week of `date`: weeks start on Monday and week 1 holds the year's first Thursday, so
 * 2026-12-31 is in 2026-W53 and 2027-01-01 too; 2024-12-30 is in 2025-W01.
 */
export function isoWeek(date) {
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = addDays(new Date(startOfDay(date)), 3 - weekday);
  const year = thursday.getUTCFullYear();
  const week = Math.floor(daysBetween(new Date(Date.UTC(year, 0, 1)), thursday) / 7) + 1;
  return { year, week };
}

const pad = (value, width = 2) => String(value).padStart(width, "0");

/** The first instant of the bucket holding `date`; units: day, week (ISO, Monday), month, quarter, year. */
export function bucketStart(date, unit) {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (unit) {
    case "day":
      return new Date(startOfDay(date));
    case "week":
      return addDays(new Date(startOfDay(date)), -((date.getUTCDay() + 6) % 7));
    case "month":
      return new Date(Date.UTC(year, month, 1));
    case "quarter":
      return new Date(Date.UTC(year, month - (month % 3), 1));
    case "year":
      return new Date(Date.UTC(year, 0, 1));
    default:
      throw new RangeError(`unknown bucket unit "${unit}" (day, week, month, quarter or year)`);
  }
}

/** The label of the bucket holding `date`: 2026-03-14, 2026-W11, 2026-03, 2026-Q1, 2026. */
export function bucketKey(date, unit) {
  const start = bucketStart(date, unit);
  const year = start.getUTCFullYear();
  switch (unit) {
    case "day":
      return `${year}-${pad(start.getUTCMonth() + 1)}-${pad(start.getUTCDate())}`;
    case "week": {
      const week = isoWeek(start);
      return `${week.year}-W${pad(week.week)}`;
    }
    case "month":
      return `${year}-${pad(start.getUTCMonth() + 1)}`;
    case "quarter":
      return `${year}-Q${Math.floor(start.getUTCMonth() / 3) + 1}`;
    default:
      return String(year);
  }
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start, unit) {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth();
  if (unit === "day") return addDays(start, 1);
  if (unit === "week") return addDays(start, 7);
  if (unit === "month") return new Date(Date.UTC(year, month + 1, 1));
  if (unit === "quarter") return new Date(Date.UTC(year, month + 3, 1));
  return new Date(Date.UTC(year + 1, 0, 1));
}
