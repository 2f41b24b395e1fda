// Rate-limit headers (X-RateLimit-Limit, -Remaining, -Reset in epoch seconds) and when to wait for the window.

function toInteger(value) {
  if (value === undefined) return null;
  const number = Number.parseInt(value, 10);
  return Number.isNaN(number) ? null : number;
}

/**
 * The rate-limit window a response reports (header names in lower case): `{ limit, remaining, resetAt, resetInMs }`,
 * resetAt in ms since the epoch, resetInMs from `now` and never negative. Null when a header is missing or unreadable.
 */
export function parseRateLimit(headers, now) {
  const limit = toInteger(headers["x-ratelimit-limit"]);
  const remaining = toInteger(headers["x-ratelimit-remaining"]);
  const reset = toInteger(headers["x-ratelimit-reset"]);
  if (limit === null || remaining === null || reset === null) return null;
  const resetAt = reset * 1000;
  return { limit, remaining, resetAt, resetInMs: Math.max(0, resetAt - now) };
}

/** The share of the window already used, in whole percent rounded to the nearest: 100 when the limit is 0. */
export function percentUsed({ limit, remaining }) {
  if (limit <= 0) return 100;
  return Math.round(((limit - remaining) / limit) * 100);
}

/**
 * How long to wait (ms) before the next request: 0 while more than `throttleBelow` requests remain in the window,
 * else until the reset plus a second for clock skew, at most `maxThrottleMs`. No window known: 0.
 */
export function throttleDelay(window, { throttleBelow, maxThrottleMs }) {
  if (window === null || window.remaining > throttleBelow) return 0;
  return Math.min(window.resetInMs + 1000, maxThrottleMs);
}
