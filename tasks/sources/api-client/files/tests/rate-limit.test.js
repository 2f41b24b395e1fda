import { describe, it, expect } from "vitest";
import { parseRateLimit, percentUsed, throttleDelay } from "../src/rate-limit.js";

const now = Date.parse("2026-10-06T09:00:00Z");
const settings = { throttleBelow: 5, maxThrottleMs: 120000 };

describe("rate limit", () => {
  it("reads the window from the headers, reset in epoch seconds", () => {
    const headers = { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4990", "x-ratelimit-reset": "1791278100" };
    expect(parseRateLimit(headers, now)).toEqual({ limit: 5000, remaining: 4990, resetAt: 1791278100000, resetInMs: 900000 });
  });

  it("never reports a reset in the past, and keeps a remaining count of 0", () => {
    const headers = { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1791277100" };
    expect(parseRateLimit(headers, now)).toEqual({ limit: 60, remaining: 0, resetAt: 1791277100000, resetInMs: 0 });
  });

  it("returns null when a header is missing or unreadable", () => {
    expect(parseRateLimit({ "x-ratelimit-limit": "60", "x-ratelimit-reset": "1791277100" }, now)).toBe(null);
    expect(parseRateLimit({ "x-ratelimit-limit": "60", "x-ratelimit-remaining": "lots", "x-ratelimit-reset": "1" }, now)).toBe(null);
    expect(parseRateLimit({}, now)).toBe(null);
  });

  it("rounds the share used to the nearest percent", () => {
    expect(percentUsed({ limit: 30, remaining: 20 })).toBe(33);
    expect(percentUsed({ limit: 60, remaining: 20 })).toBe(67);
    expect(percentUsed({ limit: 5000, remaining: 5000 })).toBe(0);
    expect(percentUsed({ limit: 1, remaining: 1 })).toBe(0);
    expect(percentUsed({ limit: 0, remaining: 0 })).toBe(100);
  });

  it("waits for the reset once the remaining requests reach the threshold", () => {
    const window = (remaining, resetInMs) => ({ limit: 60, remaining, resetAt: now + resetInMs, resetInMs });
    expect(throttleDelay(null, settings)).toBe(0);
    expect(throttleDelay(window(6, 30000), settings)).toBe(0);
    expect(throttleDelay(window(5, 30000), settings)).toBe(31000);
    expect(throttleDelay(window(0, 0), settings)).toBe(1000);
    expect(throttleDelay(window(0, 600000), settings)).toBe(120000);
  });
});
