// The transport seam: send({ method, url, path, headers, body }) → { status, headers, body }. createFetchTransport
// talks to the real API; the tests inject the recorded transport of tests/support/ instead.
import { NetworkError, TimeoutError } from "./errors.js";
import { normalizeHeaders } from "./headers.js";

/** A transport over `fetch` (Node 20's by default); a JSON body is parsed, an empty one is null. */
export function createFetchTransport(fetchImpl = globalThis.fetch) {
  return {
    async send(request) {
      let response;
      try {
        response = await fetchImpl(request.url, { method: request.method, headers: request.headers, body: request.body });
      } catch (error) {
        throw new NetworkError(`${request.method} ${request.path}: ${error.message}`);
      }
      const text = await response.text();
      return { status: response.status, headers: normalizeHeaders(Object.fromEntries(response.headers)), body: text === "" ? null : JSON.parse(text) };
    },
  };
}

/**
 * `send` with a deadline of `timeoutMs` on `timers` ({ setTimeout, clearTimeout }): a response that takes longer
 * fails with TimeoutError; any other failure of the transport becomes a NetworkError.
 */
export function withTimeout(send, timeoutMs, timers = globalThis) {
  return (request) =>
    new Promise((resolve, reject) => {
      const timer = timers.setTimeout(() => reject(new TimeoutError(`${request.method} ${request.path} timed out after ${timeoutMs} ms`)), timeoutMs);
      send(request).then(
        (response) => {
          timers.clearTimeout(timer);
          resolve(response);
        },
        (error) => {
          timers.clearTimeout(timer);
          reject(error instanceof NetworkError || error instanceof TimeoutError ? error : new NetworkError(`${request.method} ${request.path}: ${error.message}`));
        },
      );
    });
}
