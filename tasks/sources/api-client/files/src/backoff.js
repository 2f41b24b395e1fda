// Retry delays: exponential backoff with jitter (Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog,
// 2015) and the server's Retry-After header (RFC 9110 §10.2.3).

/**
 * The ceiling of the delay before retry `attempt` (1 = the first retry): baseDelayMs · 2^(attempt − 1), at most
 * maxDelayMs.
 * @throws RangeError when attempt is below 1.
 */
export function backoffCeiling(attempt, { baseDelayMs, maxDelayMs }) {
  if (attempt < 1) throw new RangeError(`attempt must be 1 or more, got ${attempt}`);
  return Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
}

/**
 * The delay in whole ms before retry `attempt`: drawn uniformly from [ceiling · (1 − jitter), ceiling) and rounded
 * down. `random` returns a number in [0, 1) (Math.random by default; tests pass a fixed sequence).
 */
export function backoffDelay(attempt, options, random = Math.random) {
  const ceiling = backoffCeiling(attempt, options);
  const jitter = Math.min(Math.max(options.jitter, 0), 1);
  const lowest = ceiling * (1 - jitter);
  return Math.floor(lowest + (ceiling - lowest) * random());
}

/**
 * Retry-After as ms from `now` (ms since the epoch): delta-seconds ("120") or an HTTP date. Null when the header
 * is absent or unreadable; 0 for a date in the past.
 */
export function parseRetryAfter(value, now) {
  if (typeof value !== "string" || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * The wait (ms) before retry `attempt`: the server's Retry-After when it sent one, else backoffDelay.
 * Returns null when Retry-After is longer than maxRetryAfterMs: waiting that long is worse than failing.
 */
export function retryDelay(attempt, retryAfterMs, options, random) {
  if (retryAfterMs === null) return backoffDelay(attempt, options, random);
  return retryAfterMs <= options.maxRetryAfterMs ? retryAfterMs : null;
}
