// The errors a caller can catch: every failed request ends in one of these, with its status and request id.

export class ApiError extends Error {
  /** `status` is null for failures without a response; `requestId` is the server's X-Request-Id when it sent one. */
  constructor(message, { status = null, requestId = null, body = null } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.requestId = requestId;
    this.body = body;
    this.attempts = 1;
  }
}

export class HttpError extends ApiError {}
/** 401 and 403: a missing, expired or under-scoped token. Never retried. */
export class AuthError extends HttpError {}
export class NotFoundError extends HttpError {}
export class ConflictError extends HttpError {}
/** 400 and 422: `fields` maps each rejected field to the server's reason. */
export class InvalidRequestError extends HttpError {
  constructor(message, options = {}) {
    super(message, options);
    this.fields = options.fields ?? {};
  }
}
/** 429: `retryAfterMs` is the server's Retry-After, null when it sent none. */
export class RateLimitError extends HttpError {
  constructor(message, options = {}) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}
export class ServerError extends HttpError {}
export class NetworkError extends ApiError {}
export class TimeoutError extends ApiError {}
/** The server kept handing out cursors past the page limit, or repeated one. */
export class PaginationError extends ApiError {}
/** The response did not have the documented shape; `problems` lists each field at fault. */
export class ResponseShapeError extends ApiError {
  constructor(message, problems = []) {
    super(message);
    this.problems = problems;
  }
}

/** The server's per-field reasons from a 400/422 body `{ errors: [{ field, message }] }`. */
function fieldErrors(body) {
  const fields = {};
  if (!Array.isArray(body?.errors)) return fields;
  for (const error of body.errors) {
    if (typeof error?.field === "string") fields[error.field] = String(error.message ?? "invalid");
  }
  return fields;
}

/**
 * The error for an error response (`{ status, headers, body }`) to `request` (`{ method, path }`), its message
 * `GET /projects/web/issues/7 failed with 404: Issue not found`.
 */
export function errorFromResponse(response, request, retryAfterMs = null) {
  const { status, headers, body } = response;
  const detail = typeof body?.message === "string" ? `: ${body.message}` : "";
  const message = `${request.method} ${request.path} failed with ${status}${detail}`;
  const options = { status, requestId: headers["x-request-id"] ?? null, body };
  if (status === 401 || status === 403) return new AuthError(message, options);
  if (status === 404) return new NotFoundError(message, options);
  if (status === 409) return new ConflictError(message, options);
  if (status === 400 || status === 422) return new InvalidRequestError(message, { ...options, fields: fieldErrors(body) });
  if (status === 429) return new RateLimitError(message, { ...options, retryAfterMs });
  if (status >= 500) return new ServerError(message, options);
  return new HttpError(message, options);
}
