import { describe, it, expect } from "vitest";
import { isIdempotent, isRetryableStatus, shouldRetry } from "../src/retry-policy.js";

const get = { attempt: 1, maxRetries: 3, method: "GET", headers: {} };

describe("retry policy", () => {
  it("repeats idempotent methods and keyed POSTs only", () => {
    expect(["get", "HEAD", "PUT", "DELETE"].map((method) => isIdempotent(method))).toEqual([true, true, true, true]);
    expect(isIdempotent("POST")).toBe(false);
    expect(isIdempotent("POST", { "idempotency-key": "lc-0123456789abcdef" })).toBe(true);
    expect(isIdempotent("PATCH", { "idempotency-key": "lc-0123456789abcdef" })).toBe(false);
  });

  it("treats 408, 425, 429 and 5xx but 501 as transient", () => {
    const statuses = [400, 404, 408, 409, 425, 429, 430, 499, 500, 501, 502, 503, 599, 600];
    expect(statuses.filter(isRetryableStatus)).toEqual([408, 425, 429, 500, 502, 503, 599]);
  });

  it("retries up to maxRetries times", () => {
    expect(shouldRetry({ status: 503 }, { ...get, attempt: 3 })).toEqual({ retry: true, reason: "status 503" });
    expect(shouldRetry({ status: 503 }, { ...get, attempt: 4 })).toEqual({ retry: false, reason: "gave up after 4 attempts" });
  });

  it("never repeats a POST without an Idempotency-Key", () => {
    expect(shouldRetry({ status: 503 }, { ...get, method: "POST" })).toEqual({
      retry: false,
      reason: "POST without an Idempotency-Key is not retried",
    });
  });

  it("retries timeouts and network errors, not client errors", () => {
    expect(shouldRetry({ timeout: true }, get)).toEqual({ retry: true, reason: "timeout" });
    expect(shouldRetry({ network: true }, get)).toEqual({ retry: true, reason: "network error" });
    expect(shouldRetry({ status: 404 }, get)).toEqual({ retry: false, reason: "status 404 is not transient" });
  });
});
