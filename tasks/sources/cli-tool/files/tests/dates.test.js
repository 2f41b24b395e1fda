import { describe, it, expect } from "vitest";
import { daysBetween, formatDay, parseDay, relativeAge } from "../src/dates.js";

describe("parseDay", () => {
  it("reads real calendar days as midnight UTC", () => {
    expect(parseDay("2026-10-06")).toBe(Date.UTC(2026, 9, 6));
    expect(parseDay("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
    expect(parseDay("2026-12-31")).toBe(Date.UTC(2026, 11, 31));
    expect(parseDay("2026-01-01")).toBe(Date.UTC(2026, 0, 1));
  });

  it("refuses days that do not exist and other shapes", () => {
    expect(parseDay("2026-02-29")).toBeNull();
    expect(parseDay("2026-04-31")).toBeNull();
    expect(parseDay("2026-13-01")).toBeNull();
    expect(parseDay("2026-00-10")).toBeNull();
    expect(parseDay("2026-05-00")).toBeNull();
    expect(parseDay("6/10/2026")).toBeNull();
  });
});

describe("day arithmetic", () => {
  it("formats a time as its UTC day", () => {
    expect(formatDay(Date.UTC(2026, 9, 6, 23, 59))).toBe("2026-10-06");
  });

  it("counts calendar days between two times, whatever the hour", () => {
    expect(daysBetween(Date.UTC(2026, 9, 5, 23, 0), Date.UTC(2026, 9, 6, 1, 0))).toBe(1);
    expect(daysBetween(Date.UTC(2026, 9, 6, 1, 0), Date.UTC(2026, 9, 6, 23, 0))).toBe(0);
    expect(daysBetween(Date.UTC(2026, 8, 1), Date.UTC(2026, 9, 6, 9))).toBe(35);
    expect(daysBetween(Date.UTC(2026, 9, 6), Date.UTC(2026, 9, 1))).toBe(-5);
  });
});

describe("relativeAge", () => {
  it("says today, yesterday and days up to two weeks", () => {
    expect(relativeAge(-1)).toBe("in the future");
    expect(relativeAge(0)).toBe("today");
    expect(relativeAge(1)).toBe("yesterday");
    expect(relativeAge(2)).toBe("2 days ago");
    expect(relativeAge(13)).toBe("13 days ago");
  });

  it("rounds weeks under 60 days and months under a year", () => {
    expect(relativeAge(14)).toBe("2 weeks ago");
    expect(relativeAge(17)).toBe("2 weeks ago");
    expect(relativeAge(18)).toBe("3 weeks ago");
    expect(relativeAge(59)).toBe("8 weeks ago");
    expect(relativeAge(60)).toBe("2 months ago");
    expect(relativeAge(76)).toBe("2 months ago");
    expect(relativeAge(77)).toBe("3 months ago");
    expect(relativeAge(364)).toBe("12 months ago");
  });

  it("counts whole years from 365 days", () => {
    expect(relativeAge(365)).toBe("a year ago");
    expect(relativeAge(729)).toBe("a year ago");
    expect(relativeAge(730)).toBe("2 years ago");
  });
});
