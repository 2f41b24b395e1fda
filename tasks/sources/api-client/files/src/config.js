// Defaults of the Linden API client; createClient's options override each of them.
export const DEFAULT_BASE_URL = "https://api.linden.example/v3";
export const USER_AGENT = "linden-tracker-client/2.3.1";
export const MEDIA_TYPE = "application/vnd.linden.v3+json";

/** The largest page the API serves (`per_page`); larger requests are answered with 422. */
export const MAX_PAGE_SIZE = 100;

export const DEFAULTS = Object.freeze({
  /** A request that has no response after this long fails with TimeoutError (ms). */
  timeoutMs: 10000,
  /** Retries after the first attempt, for transient failures of idempotent requests. */
  maxRetries: 3,
  /** Ceiling of the first retry's delay; doubled for each further retry (ms). */
  baseDelayMs: 250,
  /** No backoff delay is longer than this (ms). */
  maxDelayMs: 8000,
  /** A server's Retry-After is obeyed up to this long (ms); longer waits fail fast. */
  maxRetryAfterMs: 60000,
  /** Share of the backoff ceiling drawn at random: 1 is "full jitter", 0 none. */
  jitter: 1,
  pageSize: 25,
  /** listIssues stops with PaginationError after this many pages. */
  maxPages: 50,
  /** With this many requests or fewer left in the window, the client waits for the reset. */
  throttleBelow: 5,
  /** The longest the client waits for a rate-limit window to reset (ms). */
  maxThrottleMs: 120000,
});
