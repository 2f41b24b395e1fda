// Infrastructure errors of a model server: classifying transport/HTTP failures, and bounded retry with jittered backoff.
import { InfrastructureError } from './types.js';

/** Bounds of the retry loop: attempts (first call included) AND total time, whichever ends first. */
export interface RetryPolicy {
  /** Calls at most, the first one included. */
  attempts: number;
  /** Backoff ceiling of the first retry in ms; doubles each retry. */
  baseMs: number;
  /** Backoff ceiling cap in ms. */
  maxMs: number;
  /** No retry is started once elapsed time plus the next delay would pass this, in ms. */
  totalMs: number;
}

/**
 * The overall deadline of one model call (request sent → whole body read) when neither `--timeout-ms` nor a role's
 * `timeout_ms` gives one: 600 000 ms, openai-node's default request timeout (10 minutes), here covering the body too.
 * undici's 300 s header and body timeouts are idle timeouts: a server that trickles a byte a second never trips them.
 * Passing it is a `timeout` infrastructure error, retried as the policy below says.
 */
export const DEFAULT_CALL_DEADLINE_MS = 600_000;

/** 4 calls, 500 ms base, 8 s cap, 60 s in all: a runner crash reloads the model, which takes seconds. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseMs: 500, maxMs: 8_000, totalMs: 60_000 };

/**
 * The most bytes of one model server reply the harness reads, decoded (after gzip, deflate or br): 16 MiB. A chat
 * completion is a few KB (a 32k-token reply is about 128 KB of JSON); without a cap a 1 MB gzip of 1 GB of zeros took
 * 2.2 GB of memory (issue 29). A larger reply is `ReplyTooLargeError`, an infrastructure error (kind `other`), not retried.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** A model server's reply passed MAX_REPLY_BYTES (as sent, as declared in Content-Length, or once decoded); reading stopped there. */
export class ReplyTooLargeError extends Error {
  override readonly name = 'ReplyTooLargeError';
  constructor(
    /** Where the cap was passed: `content-length` (declared), `body` (bytes as sent) or `decoded` (after the content coding). */
    readonly where: 'content-length' | 'body' | 'decoded',
    readonly limitBytes: number,
    /** The request whose reply it was, e.g. "GET http://gpu1:8000/v1/models" (the chat paths name their server themselves). */
    readonly source?: string,
  ) {
    const what = { 'content-length': 'its Content-Length declares more than', body: 'its body passed', decoded: 'it decodes to more than' }[where];
    const reply = source === undefined ? "the server's reply" : `the server's reply to ${source}`;
    super(`${reply} is too large: ${what} ${limitBytes} bytes (${limitBytes / 1024 / 1024} MiB, the cap on one reply); reading stopped`);
  }
}

/** The ReplyTooLargeError `error` is or was caused by (the openai client wraps its fetch's errors in `cause`), else undefined. */
export function replyTooLarge(error: unknown): ReplyTooLargeError | undefined {
  for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof ReplyTooLargeError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What to do about one error thrown by the ollama client or by fetch. */
export type ErrorClassification =
  | {
      action: 'retry';
      kind: 'unreachable' | 'server_error' | 'busy' | 'timeout';
      reason: string;
      code?: string;
      /** How long the server asked to be left alone before the next call, ms (its `Retry-After` on a 429 or 503). */
      retryAfterMs?: number;
    }
  | { action: 'fail'; kind: 'model_missing' | 'other'; reason: string }
  /** HTTP 500 "error parsing tool call": the model's output, reported by the server's tool-call parser. */
  | { action: 'model_output'; reason: string }
  /** Not a transport or server error (a bug): rethrow unchanged. */
  | { action: 'rethrow' };

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

const TOOL_CALL_PARSE_ERROR = /^\s*error parsing tool call/i;
const RUNNER_STOPPED = /model runner has unexpectedly stopped|did not receive done or success response in stream/i;

/** The error's message, or its string form. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error !== null && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
}

/** The first `code` found on the error, its `cause` chain, or an AggregateError's first member (e.g. ECONNREFUSED). */
export function transportCode(error: unknown, depth = 0): string | undefined {
  if (error === null || typeof error !== 'object' || depth > 5) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === 'string') return record.code;
  const fromCause = transportCode(record.cause, depth + 1);
  if (fromCause !== undefined) return fromCause;
  if (Array.isArray(record.errors)) return transportCode(record.errors[0], depth + 1);
  return undefined;
}

/**
 * Classifies an error from the ollama client (ollama-js 0.6.4: `name === 'ResponseError'` with
 * `status_code`; streamed `{"error"}` lines become plain `Error`s) or from fetch (`TypeError: fetch failed`
 * with `cause.code`; `TimeoutError` from `AbortSignal.timeout`). Sources: fixtures/ollama-replies.json.
 */
export function classifyOllamaError(error: unknown): ErrorClassification {
  const message = errorMessage(error);
  const name = error !== null && typeof error === 'object' && 'name' in error ? String(error.name) : '';
  if (error instanceof ReplyTooLargeError) return { action: 'fail', kind: 'other', reason: message };
  if (TOOL_CALL_PARSE_ERROR.test(message)) return { action: 'model_output', reason: message };
  if (name === 'ResponseError') {
    const status = Number((error as { status_code?: unknown }).status_code);
    if (status === 404 || /model\b.*\bnot found/i.test(message)) return { action: 'fail', kind: 'model_missing', reason: message };
    if (status === 503 || status === 429) {
      const after = (error as { retryAfterMs?: unknown }).retryAfterMs;
      return { action: 'retry', kind: 'busy', reason: `HTTP ${status}: ${message}`, ...(typeof after === 'number' ? { retryAfterMs: after } : {}) };
    }
    if (status >= 500) return { action: 'retry', kind: 'server_error', reason: `HTTP ${status}: ${message}` };
    return { action: 'fail', kind: 'other', reason: `HTTP ${status}: ${message}` };
  }
  if (name === 'TimeoutError' || name === 'AbortError') return { action: 'retry', kind: 'timeout', reason: message };
  const code = transportCode(error);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { action: 'retry', kind: 'timeout', reason: `${message} (${code})`, code };
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return { action: 'retry', kind: 'unreachable', reason: `${message} (${code})`, code };
  }
  if (name === 'TypeError' && message === 'fetch failed') {
    // Without a system code, the cause's own words say why (undici: "bad port" for a port fetch refuses, e.g. 9).
    const cause = (error as { cause?: unknown }).cause;
    const why = code ?? (cause === undefined ? undefined : errorMessage(cause));
    return { action: 'retry', kind: 'unreachable', reason: why === undefined || why === '' ? message : `${message} (${why})` };
  }
  if (name === 'TypeError' && message === 'terminated') {
    return { action: 'retry', kind: 'server_error', reason: 'the connection closed in the middle of the reply' };
  }
  if (RUNNER_STOPPED.test(message)) return { action: 'retry', kind: 'server_error', reason: message };
  if (name === 'SyntaxError') return { action: 'retry', kind: 'server_error', reason: `the server sent a body that is not JSON: ${message}` };
  return { action: 'rethrow' };
}

/**
 * The wait a reply's headers ask for before the next call, ms, or undefined when they ask for none that can be read.
 * `retry-after-ms` (milliseconds, what OpenAI and Azure send) wins over `Retry-After` (RFC 9110 §10.2.3: a whole
 * number of seconds, or an HTTP-date, counted from `nowEpochMs`, default Date.now()); a date in the past is 0 ms.
 * openai-node reads the same two headers in the same order (`retryRequest`); a negative, fractional-seconds-as-text or
 * unparsable value is ignored, as there.
 */
export function retryAfterMs(header: (name: string) => string | null | undefined, nowEpochMs: number = Date.now()): number | undefined {
  const milliseconds = header('retry-after-ms')?.trim();
  if (milliseconds !== undefined && milliseconds !== '' && Number.isFinite(Number(milliseconds)) && Number(milliseconds) >= 0) {
    return Math.ceil(Number(milliseconds));
  }
  const value = header('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (!/[a-z]/i.test(value) || Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowEpochMs);
}

/** Full-jitter backoff (AWS Architecture Blog, "Exponential Backoff and Jitter"): uniform in [0, min(max, base·2^(n-1))) ms. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryOptions {
  policy?: Partial<RetryPolicy>;
  /** Waits `ms`; inject a fake in tests (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1) (default Math.random). */
  random?: () => number;
  /** Clock in ms for the total-time bound (default performance.now). */
  now?: () => number;
  classify?: (error: unknown) => ErrorClassification;
  /** Called before each backoff sleep (e.g. to log, or to lower concurrency on `busy`). */
  onRetry?: (info: { retry: number; delayMs: number; classification: ErrorClassification }) => void;
  /** The run was interrupted: no attempt starts and no backoff is waited out after it aborts (its reason is thrown). */
  signal?: AbortSignal;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `call(attempt, previous)` until it succeeds. Errors classified `retry` are retried with full-jitter
 * exponential backoff while both bounds of the policy allow; then an `InfrastructureError` of that kind is
 * thrown. A classification with `retryAfterMs` (the server's Retry-After) waits that long instead of the backoff,
 * within the same bounds: a wait that would end past `totalMs` is not started, and the error says what was asked. `fail` errors throw an `InfrastructureError` at once (404 → `model_missing`, no retry).
 * `model_output` and `rethrow` errors propagate unchanged for the caller to handle.
 * `previous` is the classification of the last failure (e.g. to switch to streaming after a headers timeout).
 */
export async function withRetry<T>(
  what: string,
  call: (attempt: number, previous: ErrorClassification | undefined) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => performance.now());
  const classify = options.classify ?? classifyOllamaError;
  const started = now();
  let previous: ErrorClassification | undefined;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await call(attempt, previous);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const classification = classify(error);
      if (classification.action === 'fail') {
        throw new InfrastructureError(`${what}: ${classification.reason}`, classification.kind, { cause: error });
      }
      if (classification.action !== 'retry') throw error;
      // A server's Retry-After replaces the backoff: calling sooner only meets the same 429 or 503.
      const asked = classification.retryAfterMs;
      const delayMs = asked ?? backoffDelayMs(attempt, policy, random);
      const elapsed = now() - started;
      if (attempt >= policy.attempts || elapsed + delayMs > policy.totalMs) {
        const summary = `${attempt} attempt${attempt === 1 ? '' : 's'} in ${Math.round(elapsed)} ms`;
        const wait =
          asked !== undefined && attempt < policy.attempts
            ? ` (the server asked to wait ${asked} ms, Retry-After, past the ${policy.totalMs} ms retry budget)`
            : '';
        throw new InfrastructureError(`${what} failed after ${summary}: ${classification.reason}${wait}`, classification.kind, {
          cause: error,
          ...(asked !== undefined ? { retryAfterMs: asked } : {}),
        });
      }
      options.onRetry?.({ retry: attempt, delayMs, classification });
      previous = classification;
      await (options.signal ? abortable(sleep(delayMs), options.signal) : sleep(delayMs));
    }
  }
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
