import { describe, it, expect } from "vitest";
import { DEFAULTS, MAX_PAGE_SIZE, USER_AGENT } from "../src/config.js";

describe("config", () => {
  it("keeps the defaults documented in the README", () => {
    expect(DEFAULTS).toEqual({
      timeoutMs: 10000,
      maxRetries: 3,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      maxRetryAfterMs: 60000,
      jitter: 1,
      pageSize: 25,
      maxPages: 50,
      throttleBelow: 5,
      maxThrottleMs: 120000,
    });
    expect(MAX_PAGE_SIZE).toBe(100);
    expect(USER_AGENT).toBe("linden-tracker-client/2.3.1");
  });
});
