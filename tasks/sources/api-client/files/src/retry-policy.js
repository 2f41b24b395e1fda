// Which failures are retried: transient statuses, network errors and timeouts, of idempotent requests only.

/** Statuses below 500 that mean "try again later": 408 Request Timeout, 425 Too Early, 429 Too Many Requests. */
export const RETRYABLE_STATUSES = [408, 425, 429];

const IDEMPOTENT_METHODS = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];

/** Whether a request may be sent twice: idempotent methods (RFC 9110 §9.2.2), or a POST with an Idempotency-Key. */
export function isIdempotent(method, headers = {}) {
  const upper = method.toUpperCase();
  if (IDEMPOTENT_METHODS.includes(upper)) return true;
  return upper === "POST" && typeof headers["idempotency-key"] === "string";
}

/** Whether a status is transient: the listed ones and every 5xx except 501 Not Implemented. */
export function isRetryableStatus(status) {
  if (RETRYABLE_STATUSES.includes(status)) return true;
  return status >= 500 && status < 600 && status !== 501;
}

/**
 * Whether to retry after try number `attempt` (1 = the first) failed. `failure` is `{ status }` for an error
 * response, `{ network: true }` for a transport error or `{ timeout: true }`. At most `maxRetries` retries.
 * Returns `{ retry, reason }`; the reason ends up in the thrown error when there is no retry.
 */
export function shouldRetry(failure, { attempt, maxRetries, method, headers }) {
  if (attempt > maxRetries) return { retry: false, reason: `gave up after ${attempt} attempts` };
  if (!isIdempotent(method, headers)) return { retry: false, reason: `${method} without an Idempotency-Key is not retried` };
  if (failure.timeout) return { retry: true, reason: "timeout" };
  if (failure.network) return { retry: true, reason: "network error" };
  if (isRetryableStatus(failure.status)) return { retry: true, reason: `status ${failure.status}` };
  return { retry: false, reason: `status ${failure.status} is not transient` };
}
