// The Linden API client: builds each request, retries transient failures with backoff, waits out rate limits and
// turns responses into issues or typed errors.
import { retryDelay, parseRetryAfter } from "./backoff.js";
import { DEFAULT_BASE_URL, DEFAULTS, USER_AGENT } from "./config.js";
import { errorFromResponse, NetworkError, TimeoutError } from "./errors.js";
import { idempotencyKey, normalizeHeaders, requestHeaders } from "./headers.js";
import { clampPageSize, nextCursor, paginate } from "./pagination.js";
import { buildUrl, expandPath } from "./query.js";
import { parseRateLimit, throttleDelay } from "./rate-limit.js";
import { shouldRetry } from "./retry-policy.js";
import { withTimeout } from "./transport.js";
import { checkDraft, parseIssue } from "./validate.js";

const ISSUES = "/projects/{project}/issues";
const ISSUE = "/projects/{project}/issues/{number}";

/**
 * A client. `transport` is required (createFetchTransport() for the real API); `sleep(ms)`, `now()`, `random()` and
 * `timers` are injected so retries and rate limits are testable without waiting. Any key of DEFAULTS overrides it.
 * @throws TypeError without a transport.
 */
export function createClient(options) {
  const { token = null, transport, baseUrl = DEFAULT_BASE_URL, userAgent = USER_AGENT } = options;
  if (transport === undefined) throw new TypeError("createClient needs a transport: createFetchTransport() for the real API");
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (options[key] !== undefined) settings[key] = options[key];
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => Date.now());
  const random = options.random ?? Math.random;
  const send = withTimeout((request) => transport.send(request), settings.timeoutMs, options.timers);
  let window = null;

  /** One request with retries; resolves to `{ status, headers, body }` for a 2xx, else rejects with an ApiError. */
  async function request(method, template, { params, query, body, key } = {}) {
    const path = expandPath(template, params);
    const url = buildUrl(baseUrl, path, query);
    const headers = requestHeaders({ token, userAgent, method, body, idempotencyKey: key });
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const wait = throttleDelay(window, settings);
    if (wait > 0) await sleep(wait);
    for (let attempt = 1; ; attempt += 1) {
      let error;
      let failure;
      try {
        const raw = await send({ method, url, path, headers, body: payload });
        const response = { status: raw.status, headers: normalizeHeaders(raw.headers), body: raw.body ?? null };
        window = parseRateLimit(response.headers, now()) ?? window;
        if (response.status >= 200 && response.status < 300) return response;
        const retryAfterMs = parseRetryAfter(response.headers["retry-after"], now());
        error = errorFromResponse(response, { method, path }, retryAfterMs);
        failure = { status: response.status, retryAfterMs };
      } catch (caught) {
        if (!(caught instanceof NetworkError) && !(caught instanceof TimeoutError)) throw caught;
        error = caught;
        failure = { network: caught instanceof NetworkError, timeout: caught instanceof TimeoutError, retryAfterMs: null };
      }
      const decision = shouldRetry(failure, { attempt, maxRetries: settings.maxRetries, method, headers });
      const delay = decision.retry ? retryDelay(attempt, failure.retryAfterMs, settings, random) : null;
      if (delay === null) {
        error.attempts = attempt;
        throw error;
      }
      await sleep(delay);
    }
  }

  async function listIssuesPage(project, { state = "open", labels = [], since = null, pageSize = settings.pageSize, cursor = null } = {}) {
    const query = { state, labels, since, per_page: clampPageSize(pageSize), cursor };
    const response = await request("GET", ISSUES, { params: { project }, query });
    return { items: response.body.items.map(parseIssue), cursor: nextCursor(response) };
  }

  return {
    request,
    /** The last rate-limit window the server reported, or null. */
    get rateLimit() {
      return window;
    },
    async getIssue(project, number) {
      return parseIssue((await request("GET", ISSUE, { params: { project, number } })).body);
    },
    listIssuesPage,
    /** Every issue matching the filters, page after page (an async iterator). */
    listIssues(project, filters = {}) {
      return paginate((cursor) => listIssuesPage(project, { ...filters, cursor }), { maxPages: settings.maxPages });
    },
    /** Creates an issue; the Idempotency-Key makes the POST safe to retry. */
    async createIssue(project, draft) {
      const body = checkDraft(draft);
      const response = await request("POST", ISSUES, { params: { project }, body, key: idempotencyKey(random) });
      return parseIssue(response.body);
    },
    async closeIssue(project, number) {
      return parseIssue((await request("PATCH", ISSUE, { params: { project, number }, body: { state: "closed" } })).body);
    },
    async deleteIssue(project, number) {
      await request("DELETE", ISSUE, { params: { project, number } });
    },
  };
}
