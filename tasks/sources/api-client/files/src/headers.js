// Request headers (auth, media type, user agent, idempotency key) and response header names in lower case.
import { MEDIA_TYPE } from "./config.js";

/**
 * The headers of one request, names in lower case. `body` present: a JSON content type. POST with an
 * `idempotencyKey`: the Idempotency-Key header, which lets the server drop a repeated create.
 */
export function requestHeaders({ token, userAgent, method, body, idempotencyKey }) {
  const headers = { accept: MEDIA_TYPE, "user-agent": userAgent };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method === "POST" && idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  return headers;
}

/** Response headers with lower-case names; repeated headers given as lists are joined with ", " (RFC 9110 §5.3). */
export function normalizeHeaders(raw = {}) {
  const headers = {};
  for (const [name, value] of Object.entries(raw)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}

/** A fresh idempotency key, `lc-` and 16 hex digits drawn from `random` (() => [0, 1)). */
export function idempotencyKey(random) {
  let key = "lc-";
  for (let digit = 0; digit < 16; digit += 1) key += Math.floor(random() * 16).toString(16);
  return key;
}

/** Headers safe to log: the token is replaced by its last four characters. */
export function redactHeaders(headers) {
  const token = headers.authorization;
  if (token === undefined) return { ...headers };
  const tail = token.length > 11 ? token.slice(-4) : "";
  return { ...headers, authorization: `Bearer …${tail}` };
}
