import { describe, it, expect } from "vitest";
import { idempotencyKey, normalizeHeaders, redactHeaders, requestHeaders } from "../src/headers.js";

describe("headers", () => {
  it("sends the token, media type and user agent", () => {
    expect(requestHeaders({ token: "lt_test_1", userAgent: "ua/1", method: "GET" })).toEqual({
      accept: "application/vnd.linden.v3+json",
      "user-agent": "ua/1",
      authorization: "Bearer lt_test_1",
    });
    expect(requestHeaders({ token: null, userAgent: "ua/1", method: "GET" })).toEqual({ accept: "application/vnd.linden.v3+json", "user-agent": "ua/1" });
  });

  it("adds a JSON content type with a body and the idempotency key on POST only", () => {
    const post = requestHeaders({ token: null, userAgent: "ua/1", method: "POST", body: {}, idempotencyKey: "lc-1" });
    expect([post["content-type"], post["idempotency-key"]]).toEqual(["application/json", "lc-1"]);
    const patch = requestHeaders({ token: null, userAgent: "ua/1", method: "PATCH", body: {}, idempotencyKey: "lc-1" });
    expect(Object.keys(patch)).toEqual(["accept", "user-agent", "content-type"]);
  });

  it("lower-cases response header names and joins repeated ones", () => {
    expect(normalizeHeaders({ "X-RateLimit-Limit": 5000, Link: ["<a>; rel=next", "<b>; rel=last"] })).toEqual({
      "x-ratelimit-limit": "5000",
      link: "<a>; rel=next, <b>; rel=last",
    });
    expect(normalizeHeaders()).toEqual({});
  });

  it("draws 16 hex digits for an idempotency key", () => {
    const values = [0, 0.0625, 0.5, 0.99, 0.3, 0.7, 0.125, 0.875, 0.2, 0.4, 0.6, 0.8, 0.95, 0.05, 0.45, 0.55, 0.65];
    let index = 0;
    expect(idempotencyKey(() => values[index++])).toBe("lc-018f4b2e369cf078");
  });

  it("never logs more than the token's last four characters", () => {
    expect(redactHeaders({ accept: "x", authorization: "Bearer lt_live_9f8e7d6c" })).toEqual({ accept: "x", authorization: "Bearer …7d6c" });
    expect(redactHeaders({ authorization: "Bearer abcde" }).authorization).toBe("Bearer …bcde");
    expect(redactHeaders({ authorization: "Bearer abcd" }).authorization).toBe("Bearer …");
    expect(redactHeaders({ accept: "x" })).toEqual({ accept: "x" });
  });
});
