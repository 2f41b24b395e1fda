import { describe, it, expect } from "vitest";
import { NetworkError, TimeoutError } from "../src/errors.js";
import { createFetchTransport, withTimeout } from "../src/transport.js";
import { createManualClock, flush } from "./support/manual-clock.js";

const request = { method: "GET", url: "https://api.linden.example/v3/projects/web", path: "/projects/web", headers: { accept: "x" }, body: undefined };

/** A stand-in for fetch that answers with `status`, `headers` and the body text, and remembers its arguments. */
function fakeFetch(status, headers, text) {
  const calls = [];
  const fetchImpl = async (url, init) => {
    calls.push([url, init]);
    return { status, headers: new Map(Object.entries(headers)), text: async () => text };
  };
  return { calls, fetchImpl };
}

describe("transport", () => {
  it("sends through fetch and parses the JSON body", async () => {
    const { calls, fetchImpl } = fakeFetch(200, { "X-Request-Id": "req_1" }, '{"name":"web"}');
    const response = await createFetchTransport(fetchImpl).send(request);
    expect(response).toEqual({ status: 200, headers: { "x-request-id": "req_1" }, body: { name: "web" } });
    expect(calls).toEqual([["https://api.linden.example/v3/projects/web", { method: "GET", headers: { accept: "x" }, body: undefined }]]);
  });

  it("gives an empty body as null", async () => {
    const { fetchImpl } = fakeFetch(204, {}, "");
    expect((await createFetchTransport(fetchImpl).send(request)).body).toBe(null);
  });

  it("turns a failed fetch into a NetworkError naming the request", async () => {
    const failing = async () => {
      throw new Error("getaddrinfo ENOTFOUND api.linden.example");
    };
    const error = await createFetchTransport(failing)
      .send(request)
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe("GET /projects/web: getaddrinfo ENOTFOUND api.linden.example");
  });

  it("times out on the given timers and clears the timer on an answer", async () => {
    const clock = createManualClock(0);
    let answer = () => {};
    const send = withTimeout(() => new Promise((resolve) => (answer = resolve)), 5000, clock);
    const pending = send(request);
    expect(clock.pendingTimers).toBe(1);
    answer({ status: 200 });
    expect(await pending).toEqual({ status: 200 });
    expect(clock.pendingTimers).toBe(0);
    let error;
    send(request).catch((caught) => {
      error = caught;
    });
    clock.advance(5000);
    await flush();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("GET /projects/web timed out after 5000 ms");
  });
});
