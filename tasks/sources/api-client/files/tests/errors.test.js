import { describe, it, expect } from "vitest";
import {
  ApiError,
  AuthError,
  ConflictError,
  HttpError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  errorFromResponse,
} from "../src/errors.js";

const request = { method: "GET", path: "/projects/web/issues/7" };
const response = (status, body = null, headers = {}) => ({ status, headers, body });

describe("errors", () => {
  it("maps each status to its class", () => {
    const classes = [400, 401, 403, 404, 409, 418, 422, 429, 499, 500, 503].map(
      (status) => errorFromResponse(response(status), request).constructor,
    );
    expect(classes).toEqual([
      InvalidRequestError,
      AuthError,
      AuthError,
      NotFoundError,
      ConflictError,
      HttpError,
      InvalidRequestError,
      RateLimitError,
      HttpError,
      ServerError,
      ServerError,
    ]);
  });

  it("says what failed, with the server's message and request id", () => {
    const error = errorFromResponse(response(404, { message: "Issue not found" }, { "x-request-id": "req_8d1f" }), request);
    expect(error.message).toBe("GET /projects/web/issues/7 failed with 404: Issue not found");
    expect(error.name).toBe("NotFoundError");
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.requestId, error.attempts]).toEqual([404, "req_8d1f", 1]);
    expect(errorFromResponse(response(500), request).message).toBe("GET /projects/web/issues/7 failed with 500");
    expect(errorFromResponse(response(500), request).requestId).toBe(null);
  });

  it("keeps the rejected fields of a 422", () => {
    const body = { message: "Validation failed", errors: [{ field: "title", message: "is too long" }, { field: "labels" }, { message: "no field" }] };
    expect(errorFromResponse(response(422, body), request).fields).toEqual({ title: "is too long", labels: "invalid" });
    expect(errorFromResponse(response(400, { errors: "none" }), request).fields).toEqual({});
  });

  it("carries Retry-After on a 429", () => {
    expect(errorFromResponse(response(429), request, 2000).retryAfterMs).toBe(2000);
    expect(errorFromResponse(response(429), request).retryAfterMs).toBe(null);
  });
});
