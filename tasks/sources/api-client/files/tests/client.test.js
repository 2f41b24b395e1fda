import { describe, it, expect } from "vitest";
import { createClient } from "../src/client.js";
import { AuthError, NetworkError, NotFoundError, RateLimitError, ServerError, TimeoutError, InvalidRequestError } from "../src/errors.js";
import { createManualClock, flush } from "./support/manual-clock.js";
import { createRecordedTransport } from "./support/recorded-transport.js";
import getIssue from "./recordings/get-issue.json";
import listIssues from "./recordings/list-issues.json";
import rateLimited from "./recordings/rate-limited.json";
import retries from "./recordings/retries.json";
import writes from "./recordings/writes.json";

const START = Date.parse("2026-10-06T09:00:00Z");
const BASE = "https://api.linden.example/v3";

/** A client on a recording, a manual clock and random() fixed at 0.5 (so a backoff delay is half its ceiling). */
function setup(recording, options = {}) {
  const transport = createRecordedTransport(recording.interactions);
  const clock = createManualClock(START);
  const client = createClient({ token: "lt_test_5b1c", transport, sleep: clock.sleep, now: clock.now, timers: clock, random: () => 0.5, ...options });
  return { client, transport, clock };
}

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the request to fail");
}

describe("client", () => {
  it("needs a transport", () => {
    expect(() => createClient({ token: "t" })).toThrow("createClient needs a transport: createFetchTransport() for the real API");
  });

  it("sends the recorded request and parses the issue", async () => {
    const { client, transport } = setup(getIssue);
    const issue = await client.getIssue("web", 42);
    expect([issue.number, issue.title, issue.labels, issue.createdAt]).toEqual([42, "Login fails with SSO", ["bug", "auth"], Date.parse("2026-10-01T08:30:00Z")]);
    expect(transport.calls).toEqual([
      {
        method: "GET",
        url: `${BASE}/projects/web/issues/42`,
        path: "/projects/web/issues/42",
        headers: { accept: "application/vnd.linden.v3+json", "user-agent": "linden-tracker-client/2.3.1", authorization: "Bearer lt_test_5b1c" },
        body: undefined,
      },
    ]);
    expect(client.rateLimit).toEqual({ limit: 5000, remaining: 4990, resetAt: 1791278100000, resetInMs: 900000 });
  });

  it("keeps the last rate-limit window when a response has none", async () => {
    const { client } = setup(getIssue);
    await client.getIssue("web", 42);
    await client.getIssue("web", 43);
    expect(client.rateLimit.remaining).toBe(4990);
  });

  it("throws NotFoundError for a 404 without retrying", async () => {
    const { client, transport, clock } = setup(getIssue);
    const error = await failure(client.getIssue("web", 404));
    expect(error).toBeInstanceOf(NotFoundError);
    expect([error.message, error.requestId, error.attempts]).toEqual(["GET /projects/web/issues/404 failed with 404: Issue not found", "req_01h9x3", 1]);
    expect([transport.calls.length, clock.sleeps]).toEqual([1, []]);
  });

  it("lists every page, following body cursors and Link headers", async () => {
    const { client, transport } = setup(listIssues);
    const numbers = [];
    for await (const issue of client.listIssues("web", { labels: ["bug"], pageSize: 2 })) numbers.push(issue.number);
    expect(numbers).toEqual([42, 39, 35, 31, 12]);
    expect(transport.unused).toBe(0);
    expect(client.rateLimit.remaining).toBe(4987);
  });

  it("asks for the default page size and open issues", async () => {
    const { client, transport } = setup(listIssues);
    await failure(client.listIssuesPage("web"));
    expect(transport.calls[0].url).toBe(`${BASE}/projects/web/issues?per_page=25&state=open`);
  });

  it("retries a 503 and a dropped connection with growing delays", async () => {
    const { client, transport, clock } = setup(retries);
    const issue = await client.getIssue("web", 42);
    expect(issue.number).toBe(42);
    expect(transport.calls).toHaveLength(3);
    expect(clock.sleeps).toEqual([125, 250]);
  });

  it("gives up after maxRetries and says how many attempts were made", async () => {
    const { client, clock } = setup(retries, { maxRetries: 1 });
    const error = await failure(client.getIssue("web", 42));
    expect(error).toBeInstanceOf(NetworkError);
    expect([error.message, error.attempts]).toEqual(["GET /projects/web/issues/42: read ECONNRESET", 2]);
    expect(clock.sleeps).toEqual([125]);
  });

  it("does not retry at all with maxRetries 0", async () => {
    const { client } = setup(retries, { maxRetries: 0 });
    const error = await failure(client.getIssue("web", 42));
    expect(error).toBeInstanceOf(ServerError);
    expect([error.status, error.requestId, error.attempts]).toEqual([503, "req_01ha01", 1]);
  });

  it("waits as long as Retry-After says, then throttles before the window runs out", async () => {
    const { client, clock } = setup(rateLimited);
    expect((await client.getIssue("web", 42)).number).toBe(42);
    expect(clock.sleeps).toEqual([2000]);
    expect(client.rateLimit).toEqual({ limit: 60, remaining: 5, resetAt: 1791277230000, resetInMs: 28000 });
    expect((await client.getIssue("web", 43)).number).toBe(43);
    expect(clock.sleeps).toEqual([2000, 29000]);
  });

  it("fails fast when Retry-After is longer than maxRetryAfterMs", async () => {
    const { client, clock } = setup(rateLimited);
    await client.getIssue("web", 42);
    await client.getIssue("web", 43);
    const error = await failure(client.getIssue("web", 44));
    expect(error).toBeInstanceOf(RateLimitError);
    expect([error.retryAfterMs, error.attempts]).toEqual([120000, 1]);
    expect(clock.sleeps).toEqual([2000, 29000]);
  });

  it("retries a create with the same idempotency key", async () => {
    const { client, transport, clock } = setup(writes);
    const draft = { title: " Login fails with SSO ", body: "Steps: sign in with Okta.", labels: ["bug", "auth", "bug"], priority: "p1" };
    const issue = await client.createIssue("web", draft);
    expect(issue.number).toBe(57);
    const keys = transport.calls.map((call) => call.headers["idempotency-key"]);
    expect(keys).toEqual(["lc-8888888888888888", "lc-8888888888888888"]);
    expect(transport.calls[0].headers["content-type"]).toBe("application/json");
    expect(clock.sleeps).toEqual([125]);
  });

  it("checks a draft before sending anything", async () => {
    const { client, transport } = setup(writes);
    const error = await failure(client.createIssue("web", { title: "" }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(transport.calls).toEqual([]);
  });

  it("never retries a PATCH", async () => {
    const { client, transport } = setup(writes);
    const error = await failure(client.closeIssue("web", 42));
    expect(error).toBeInstanceOf(ServerError);
    expect([error.message, error.attempts, transport.calls.length]).toEqual(["PATCH /projects/web/issues/42 failed with 503: Service unavailable", 1, 1]);
    const closed = await client.closeIssue("web", 39);
    expect([closed.state, closed.closedAt]).toEqual(["closed", START]);
  });

  it("deletes with a 204 and reports a 401 as AuthError", async () => {
    const { client } = setup(writes);
    expect(await client.deleteIssue("web", 57)).toBe(undefined);
    const error = await failure(client.deleteIssue("web", 58));
    expect(error).toBeInstanceOf(AuthError);
    expect([error.status, error.message]).toEqual([401, "DELETE /projects/web/issues/58 failed with 401: Bad credentials"]);
  });

  it("times out a request that gets no answer", async () => {
    const hanging = { interactions: [{ request: { method: "GET", url: `${BASE}/projects/web/issues/42` }, hang: true }] };
    const { client, clock } = setup(hanging, { maxRetries: 0 });
    let settled = false;
    const pending = client.getIssue("web", 42).finally(() => {
      settled = true;
    });
    clock.advance(9999);
    await flush();
    expect(settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(settled).toBe(true);
    const error = await failure(pending);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("GET /projects/web/issues/42 timed out after 10000 ms");
  });
});
