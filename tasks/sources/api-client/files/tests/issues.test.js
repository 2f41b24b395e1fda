import { describe, it, expect } from "vitest";
import { ageInDays, breachesSla, compareForTriage, hoursLeft, slaDeadline, summarize } from "../src/issues.js";

const now = Date.parse("2026-10-06T09:00:00Z");
const HOUR = 3600000;
const DAY = 24 * HOUR;
const issue = (number, priority, ageMs, state = "open") => ({ number, priority, state, createdAt: now - ageMs, labels: [], closedAt: null });

describe("issues", () => {
  it("counts whole days of age, rounding down", () => {
    expect(ageInDays(issue(1, null, 3 * DAY), now)).toBe(3);
    expect(ageInDays(issue(1, null, 3 * DAY - 1), now)).toBe(2);
    expect(ageInDays(issue(1, null, 2.6 * DAY), now)).toBe(2);
    expect(ageInDays(issue(1, null, -HOUR), now)).toBe(0);
  });

  it("sets the deadline from the priority's hours", () => {
    const deadlines = ["p0", "p1", "p2", "p3"].map((priority) => (slaDeadline(issue(1, priority, 0)) - now) / HOUR);
    expect(deadlines).toEqual([4, 24, 72, 168]);
    expect(slaDeadline(issue(1, null, 0))).toBe(null);
  });

  it("breaches only after the deadline, and only while open", () => {
    expect(breachesSla(issue(1, "p1", 24 * HOUR), now)).toBe(false);
    expect(breachesSla(issue(1, "p1", 24 * HOUR + 1), now)).toBe(true);
    expect(breachesSla(issue(1, "p1", 30 * HOUR, "closed"), now)).toBe(false);
    expect(breachesSla(issue(1, null, 300 * DAY), now)).toBe(false);
  });

  it("rounds the hours left up", () => {
    expect(hoursLeft(issue(1, "p1", 23.75 * HOUR), now)).toBe(1);
    expect(hoursLeft(issue(1, "p1", 2 * HOUR), now)).toBe(22);
    expect(hoursLeft(issue(1, "p1", 25.5 * HOUR), now)).toBe(-1);
    expect(hoursLeft(issue(1, null, 0), now)).toBe(null);
  });

  it("orders by priority, then age, then number", () => {
    const list = [
      issue(7, null, 9 * DAY),
      issue(6, "p3", 8 * DAY),
      issue(5, "p3", 9 * DAY),
      issue(4, "p2", 7 * DAY),
      issue(3, "p1", 3 * DAY),
      issue(2, "p1", 3 * DAY),
      issue(1, "p0", 1 * HOUR),
    ];
    expect(list.sort(compareForTriage).map((entry) => entry.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("summarizes open issues: counts, SLA breaches in triage order, oldest and median age", () => {
    const list = [
      issue(10, "p2", 10 * DAY),
      issue(11, "p0", 5 * HOUR),
      issue(12, null, 8 * DAY),
      issue(13, "p3", 3 * DAY),
      issue(14, "p1", 40 * DAY, "closed"),
    ];
    expect(summarize(list, now)).toEqual({ open: 4, closed: 1, breached: [11, 10], oldestOpenDays: 10, medianOpenDays: 5.5 });
    expect(summarize(list.slice(1), now).medianOpenDays).toBe(3);
    expect(summarize([issue(20, "p2", 2 * DAY)], now)).toEqual({ open: 1, closed: 0, breached: [], oldestOpenDays: 2, medianOpenDays: 2 });
    expect(summarize([], now)).toEqual({ open: 0, closed: 0, breached: [], oldestOpenDays: null, medianOpenDays: null });
  });
});
