import { describe, it, expect } from "vitest";
import { backoffCeiling, backoffDelay, parseRetryAfter, retryDelay } from "../src/backoff.js";

const options = { baseDelayMs: 250, maxDelayMs: 8000, jitter: 1, maxRetryAfterMs: 60000 };
const now = Date.parse("2026-10-06T09:00:00Z");

describe("backoff", () => {
  it("doubles the ceiling from the base delay up to the maximum", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffCeiling(attempt, options))).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffCeiling(3, { baseDelayMs: 100, maxDelayMs: 300 })).toBe(300);
  });

  it("refuses attempt 0", () => {
    expect(() => backoffCeiling(0, options)).toThrow("attempt must be 1 or more, got 0");
  });

  it("draws full jitter below the ceiling, rounded down to the ms", () => {
    expect(backoffDelay(3, options, () => 0.1234)).toBe(123);
    expect(backoffDelay(3, options, () => 0.9996)).toBe(999);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it("keeps part of the ceiling with partial jitter and clamps jitter to [0, 1]", () => {
    expect(backoffDelay(3, { ...options, jitter: 0.5 }, () => 0.5)).toBe(750);
    expect(backoffDelay(3, { ...options, jitter: 0 }, () => 0.5)).toBe(1000);
    expect(backoffDelay(3, { ...options, jitter: 2 }, () => 0.5)).toBe(500);
    expect(backoffDelay(3, { ...options, jitter: -1 }, () => 0.5)).toBe(1000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("120", now)).toBe(120000);
    expect(parseRetryAfter(" 3 ", now)).toBe(3000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("Tue, 06 Oct 2026 09:00:30 GMT", now)).toBe(30000);
    expect(parseRetryAfter("Tue, 06 Oct 2026 08:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBe(null);
    expect(parseRetryAfter("", now)).toBe(null);
    expect(parseRetryAfter(undefined, now)).toBe(null);
  });

  it("obeys Retry-After up to the limit and backs off without it", () => {
    expect(retryDelay(2, null, options, () => 0.5)).toBe(250);
    expect(retryDelay(2, 30000, options, () => 0.5)).toBe(30000);
    expect(retryDelay(2, 60000, options, () => 0.5)).toBe(60000);
    expect(retryDelay(2, 60001, options, () => 0.5)).toBe(null);
  });
});
