// A fetch for the model servers' other reads (/v1/models, /api/tags, /api/show, /api/version, probes): the chat path's
// undici pool and capped reading (MAX_REPLY_BYTES) behind the fetch signature the openai and ollama clients take.
import { decodedBody, modelDispatcher, NULL_BODY_STATUSES, requestFollowing } from './ollama-undici.js';
import { MAX_REPLY_BYTES, ReplyTooLargeError } from './retry.js';

/**
 * `fetch` as the openai and ollama clients call it, over `modelDispatcher()`, whose reply body is read whole before it
 * resolves, at most MAX_REPLY_BYTES (16 MiB) of it as sent and as decoded (`decodedBody`: gzip, deflate, br as Node's
 * fetch decodes them; redirects followed by `requestFollowing`). Without it a fake server's /v1/models — a gzip of
 * ~400 MB — took a run to 1.79 GB of memory (issue 29). Throws:
 * - `ReplyTooLargeError` naming the method and URL, past the cap (the connection closed, the rest unread);
 * - `TypeError('fetch failed')` with undici's error as `cause` when no response comes, `TypeError('terminated')` with
 *   the cause when the body breaks off or does not decode — fetch's errors, so the clients classify them as before;
 * - the signal's reason once `init.signal` aborts (the clients' timeouts), during the response or its body.
 * The returned Response keeps the server's status, status text and headers (as fetch keeps them, Content-Encoding too)
 * and carries the decoded body. Streamed replies (Ollama's NDJSON) arrive whole, then are read as a stream.
 */
export const modelFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const signal = request.signal;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
  const body = request.body === null ? undefined : await request.text();
  const source = `${request.method} ${url.href}`;
  let response: Awaited<ReturnType<typeof requestFollowing>>;
  try {
    response = await requestFollowing(await modelDispatcher(), url, {
      method: request.method as 'GET',
      headers,
      ...(body !== undefined ? { body } : {}),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: error });
  }
  let bytes: Buffer;
  try {
    bytes = await decodedBody(response, MAX_REPLY_BYTES);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof ReplyTooLargeError) throw new ReplyTooLargeError(error.where, error.limitBytes, source);
    throw new TypeError('terminated', { cause: error });
  }
  const replyHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) replyHeaders.append(name, item);
    else if (value !== undefined) replyHeaders.append(name, value);
  }
  const status = response.statusCode;
  return new Response(NULL_BODY_STATUSES.has(status) ? null : (bytes as Uint8Array<ArrayBuffer>), {
    status,
    ...(response.statusText ? { statusText: response.statusText } : {}),
    headers: replyHeaders,
  });
};
