import { describe, it, expect } from "vitest";
import { parseCommitMessage } from "../src/conventional.js";
import { median, percent, releaseStats, typeBreakdown } from "../src/release-stats.js";

const NOW = Date.UTC(2026, 9, 6, 9, 0);

describe("median and percent", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([])).toBeNull();
    expect(median([7])).toBe(7);
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([3, 1])).toBe(2);
  });

  it("gives percentages with one decimal", () => {
    expect(percent(1, 8)).toBe(12.5);
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(2, 3)).toBe(66.7);
    expect(percent(1, 6)).toBe(16.7);
    expect(percent(3, 0)).toBe(0);
  });
});

describe("releaseStats", () => {
  const tags = [
    { date: "2026-10-01" },
    { date: "2026-09-14" },
    { date: null },
    { date: "2026-09-01" },
    { date: "2026-08-01" },
    { date: "2026-07-08" },
  ];

  it("measures intervals, cadence and the age of the last release", () => {
    expect(releaseStats(tags, NOW)).toEqual({
      releases: 5,
      intervals: [17, 13, 31, 24],
      medianDays: 20.5,
      meanDays: 21.3,
      daysSinceLast: 5,
      perMonth: 1.3,
      stale: false,
    });
  });

  it("counts a release exactly 90 days old in the cadence", () => {
    const edge = [{ date: "2026-07-08" }];
    expect(releaseStats(edge, Date.UTC(2026, 9, 6)).perMonth).toBe(0.3);
    expect(releaseStats(edge, Date.UTC(2026, 9, 6, 0, 0, 1)).perMonth).toBe(0);
  });

  it("is stale only past the limit", () => {
    const last = [{ date: "2026-09-06" }];
    expect(releaseStats(last, NOW, { staleAfterDays: 30 })).toMatchObject({ daysSinceLast: 30, stale: false, intervals: [], medianDays: null, meanDays: null });
    expect(releaseStats(last, NOW, { staleAfterDays: 29 }).stale).toBe(true);
    expect(releaseStats([], NOW)).toMatchObject({ releases: 0, daysSinceLast: null, stale: false, perMonth: 0 });
  });

  it("is stale after 90 days by default", () => {
    expect(releaseStats([{ date: "2026-07-08" }], Date.UTC(2026, 9, 6)).stale).toBe(false);
    expect(releaseStats([{ date: "2026-07-07" }], Date.UTC(2026, 9, 6)).stale).toBe(true);
  });

  it("gives the one interval of two releases as mean and median, and rounds the cadence", () => {
    expect(releaseStats([{ date: "2026-10-01" }, { date: "2026-09-20" }], NOW)).toMatchObject({ intervals: [11], meanDays: 11, medianDays: 11, perMonth: 0.7 });
  });

  it("rounds the mean to one decimal", () => {
    const three = [{ date: "2026-10-01" }, { date: "2026-09-30" }, { date: "2026-09-28" }, { date: "2026-09-26" }];
    expect(releaseStats(three, NOW).meanDays).toBe(1.7);
  });
});

describe("typeBreakdown", () => {
  it("counts types, most first, ties by name, unparsed as other", () => {
    const commits = ["fix: a", "feat: b", "fix: c", "docs: d", "Merge branch 'x'", "chore: e", "fix: f", "feat: g"].map(parseCommitMessage);
    expect(typeBreakdown(commits)).toEqual([
      { type: "fix", count: 3, share: 37.5 },
      { type: "feat", count: 2, share: 25 },
      { type: "chore", count: 1, share: 12.5 },
      { type: "docs", count: 1, share: 12.5 },
      { type: "other", count: 1, share: 12.5 },
    ]);
  });
});
