import { describe, expect, it } from "vitest";
import { addDays, bucketKey, bucketStart, daysBetween, daysInMonth, isLeapYear, isoWeek, nextBucket, parseDate } from "../src/dates.js";

const utc = (text) => new Date(`${text}T00:00:00Z`);

describe("calendar", () => {
  it("knows leap years", () => {
    expect([1900, 2000, 2024, 2026, 2100, 2400].map(isLeapYear)).toEqual([false, true, true, false, false, true]);
  });

  it("knows month lengths", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => daysInMonth(2026, month))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2024, 2)).toBe(29);
  });
});

describe("parseDate", () => {
  it("parses dates and times as UTC", () => {
    expect(parseDate("2026-03-14")).toEqual(utc("2026-03-14"));
    expect(parseDate(" 2026-03-14T08:05Z ")).toEqual(new Date("2026-03-14T08:05:00Z"));
    expect(parseDate("2026-03-14T23:59:59")).toEqual(new Date("2026-03-14T23:59:59Z"));
    expect(parseDate("2024-02-29")).toEqual(utc("2024-02-29"));
    expect(parseDate("2026-12-31")).toEqual(utc("2026-12-31"));
    expect(parseDate("2026-01-01")).toEqual(utc("2026-01-01"));
  });

  it("refuses dates that do not exist", () => {
    for (const text of ["2026-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-01-32", "2026-01-01T24:00", "2026-01-01T10:60", "2026-01-01T10:00:60", "14/03/2026", "2026-3-14"]) {
      expect(parseDate(text), text).toBe(null);
    }
  });
});

describe("day arithmetic", () => {
  it("counts whole days between UTC midnights", () => {
    expect(daysBetween(utc("2026-01-01"), utc("2026-03-01"))).toBe(59);
    expect(daysBetween(new Date("2026-01-01T23:00:00Z"), new Date("2026-01-02T01:00:00Z"))).toBe(1);
    expect(daysBetween(utc("2026-01-10"), utc("2026-01-03"))).toBe(-7);
    expect(addDays(utc("2026-02-27"), 2)).toEqual(utc("2026-03-01"));
    expect(addDays(utc("2026-01-01"), -1)).toEqual(utc("2025-12-31"));
  });
});

describe("ISO weeks", () => {
  it("puts the year's first Thursday in week 1", () => {
    expect(isoWeek(utc("2026-01-01"))).toEqual({ year: 2026, week: 1 });
    expect(isoWeek(utc("2025-12-29"))).toEqual({ year: 2026, week: 1 });
    expect(isoWeek(utc("2025-12-28"))).toEqual({ year: 2025, week: 52 });
    expect(isoWeek(utc("2024-12-30"))).toEqual({ year: 2025, week: 1 });
    expect(isoWeek(utc("2026-12-31"))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(utc("2027-01-03"))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(utc("2027-01-04"))).toEqual({ year: 2027, week: 1 });
    expect(isoWeek(new Date("2026-03-15T23:59:00Z"))).toEqual({ year: 2026, week: 11 });
    expect(isoWeek(utc("2026-03-16"))).toEqual({ year: 2026, week: 12 });
  });
});

describe("buckets", () => {
  const at = new Date("2026-08-16T15:30:00Z"); // a Sunday

  it("finds the first instant of each bucket", () => {
    expect(bucketStart(at, "day")).toEqual(utc("2026-08-16"));
    expect(bucketStart(at, "week")).toEqual(utc("2026-08-10"));
    expect(bucketStart(utc("2026-08-10"), "week")).toEqual(utc("2026-08-10"));
    expect(bucketStart(at, "month")).toEqual(utc("2026-08-01"));
    expect(bucketStart(at, "quarter")).toEqual(utc("2026-07-01"));
    expect(bucketStart(utc("2026-09-30"), "quarter")).toEqual(utc("2026-07-01"));
    expect(bucketStart(utc("2026-10-01"), "quarter")).toEqual(utc("2026-10-01"));
    expect(bucketStart(at, "year")).toEqual(utc("2026-01-01"));
    expect(() => bucketStart(at, "fortnight")).toThrow('unknown bucket unit "fortnight" (day, week, month, quarter or year)');
  });

  it("labels buckets", () => {
    expect(bucketKey(at, "day")).toBe("2026-08-16");
    expect(bucketKey(utc("2026-01-05"), "day")).toBe("2026-01-05");
    expect(bucketKey(at, "week")).toBe("2026-W33");
    expect(bucketKey(utc("2027-01-02"), "week")).toBe("2026-W53");
    expect(bucketKey(utc("2026-01-04"), "week")).toBe("2026-W01");
    expect(bucketKey(at, "month")).toBe("2026-08");
    expect(bucketKey(utc("2026-12-31"), "month")).toBe("2026-12");
    expect(bucketKey(at, "quarter")).toBe("2026-Q3");
    expect(bucketKey(utc("2026-03-31"), "quarter")).toBe("2026-Q1");
    expect(bucketKey(utc("2026-12-01"), "quarter")).toBe("2026-Q4");
    expect(bucketKey(at, "year")).toBe("2026");
  });

  it("steps to the next bucket across month and year ends", () => {
    expect(nextBucket(utc("2026-12-31"), "day")).toEqual(utc("2027-01-01"));
    expect(nextBucket(utc("2026-12-28"), "week")).toEqual(utc("2027-01-04"));
    expect(nextBucket(utc("2026-12-01"), "month")).toEqual(utc("2027-01-01"));
    expect(nextBucket(utc("2026-10-01"), "quarter")).toEqual(utc("2027-01-01"));
    expect(nextBucket(utc("2026-01-01"), "year")).toEqual(utc("2027-01-01"));
  });
});
