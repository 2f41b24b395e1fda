// A non-streamed POST /chat/completions over undici's pool: the openai client's request, reply and errors, without its
// request machinery or a fetch. Decision 0021 says why (main-thread time per model call at 64 in flight, issue 15 §5).
import type OpenAI from 'openai';
import { VERSION } from 'openai/version';
import type { Dispatcher } from 'undici';
import { bodyText, modelDispatcher, requestFollowing } from './ollama-undici.js';
import { DEFAULT_CALL_DEADLINE_MS } from './retry.js';

type Sdk = typeof import('openai');

/** openai-node's default request timeout, ms (`new OpenAI()` without `timeout`: 10 minutes); here the call's overall deadline. */
const SDK_DEFAULT_TIMEOUT_MS = DEFAULT_CALL_DEADLINE_MS;

/** Where and how a model's completions are posted. */
export interface CompletionEndpoint {
  /** Base URL ending in /v1 (a trailing slash is dropped). */
  baseURL: string;
  apiKey: string;
}

/** What an HTTP header value may hold once trimmed (Fetch: no NUL, CR or LF, and bytes only). */
const VALID_HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

/**
 * `value` as fetch's Headers stores it: leading and trailing whitespace (tab, LF, CR, space) dropped. Throws fetch's
 * TypeError for a value it refuses (a NUL, a line break inside, a character above U+00FF).
 */
function headerValue(value: string): string {
  const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (!VALID_HEADER_VALUE.test(trimmed)) throw new TypeError(`Headers.append: "${value}" is an invalid header value.`);
  return trimmed;
}

/**
 * The headers openai-node 6.30 sends with a chat completion (`buildHeaders`: accept, content type, its User-Agent,
 * the `X-Stainless-*` platform and retry headers, `OpenAI-Organization` / `OpenAI-Project` from OPENAI_ORG_ID /
 * OPENAI_PROJECT_ID, the bearer token), and the `accept-encoding` Node's fetch adds (with br over https).
 */
function headersFor(endpoint: CompletionEndpoint, timeoutMs: number | undefined, https: boolean): Record<string, string> {
  const os: Record<string, string> = { linux: 'Linux', darwin: 'MacOS', win32: 'Windows', freebsd: 'FreeBSD', openbsd: 'OpenBSD', android: 'Android' };
  const organization = process.env['OPENAI_ORG_ID']?.trim();
  const project = process.env['OPENAI_PROJECT_ID']?.trim();
  return {
    accept: 'application/json',
    'content-type': 'application/json',
    'user-agent': `OpenAI/JS ${VERSION}`,
    'x-stainless-retry-count': '0',
    // Sent only for a timeout given with the call (not the client's default), as the client does.
    ...(timeoutMs ? { 'x-stainless-timeout': String(Math.trunc(timeoutMs / 1000)) } : {}),
    'x-stainless-lang': 'js',
    'x-stainless-package-version': VERSION,
    'x-stainless-os': os[process.platform] ?? `Other:${process.platform}`,
    'x-stainless-arch': ['x64', 'arm64', 'arm'].includes(process.arch) ? process.arch : `other:${process.arch}`,
    'x-stainless-runtime': 'node',
    'x-stainless-runtime-version': process.version,
    ...(organization ? { 'openai-organization': headerValue(organization) } : {}),
    ...(project ? { 'openai-project': headerValue(project) } : {}),
    authorization: headerValue(`Bearer ${endpoint.apiKey}`),
    'accept-encoding': https ? 'br, gzip, deflate' : 'gzip, deflate',
  };
}

/**
 * POSTs `body` (a chat completion request, not streamed) to `<baseURL>/chat/completions` over `dispatcher` (default:
 * `modelDispatcher()`), as `openai.chat.completions.create(body, {timeout: timeoutMs})` with `maxRetries: 0` does,
 * and returns what it returns: the parsed completion (a reply that is not JSON: its text; 204: null). It throws the
 * client's own errors, built with its classes, so `classifyOpenAIError` reads them the same:
 * - an HTTP error status → `APIError.generate` (BadRequestError, NotFoundError, RateLimitError, InternalServerError,
 *   …) from the body's JSON in the client's shape (`errorBody`: vLLM's older flat body, TGI's and FastAPI's keep their
 *   message, where the client says "400 status code (no body)"), else its text (a body that breaks off: its message,
 *   e.g. "terminated");
 * - no response within `timeoutMs` (default 600 000 ms, the client's) → `APIConnectionTimeoutError`; no response
 *   for another reason → `APIConnectionError` with `TypeError('fetch failed')` (undici's error its cause) as
 *   `cause`, or `APIConnectionTimeoutError` when that error says it timed out (as the client tells them apart);
 * - a 2xx body that breaks off → `TypeError('terminated')`; one that is not the JSON it claims → `SyntaxError`;
 * - a `timeoutMs` that is not a whole number ≥ 0 → `OpenAIError`, before anything is sent; an API key fetch's
 *   Headers refuse → its `TypeError`; a base URL with credentials → `APIConnectionError`, as fetch refuses it.
 * The timeout is an overall deadline: it covers the response headers and the whole body (the client's covers the
 * headers only, and undici's 300 s body timeout is an idle one: a server trickling a byte a second never trips it), so
 * a body still arriving at the deadline → `APIConnectionTimeoutError`. Once `signal` aborts (the run was interrupted)
 * the socket is closed and its reason is thrown.
 * Bodies are decoded and redirects followed as Node's fetch does (`decodedText`, `requestFollowing`).
 * Known differences from the client over fetch: fetch's blocked ports (e.g. 6000) are not refused, and a completion
 * has no non-enumerable `_request_id` (nothing here reads it).
 */
export async function postCompletion(
  sdk: Sdk,
  endpoint: CompletionEndpoint,
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  timeoutMs: number | undefined,
  dispatcher?: Dispatcher,
  signal?: AbortSignal,
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const { APIConnectionError, APIConnectionTimeoutError, OpenAIError } = sdk.default;
  const timeout = timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout)) throw new OpenAIError('timeout must be an integer');
  if (timeout < 0) throw new OpenAIError('timeout must be a positive integer');
  const url = new URL(`${endpoint.baseURL.replace(/\/+$/, '')}/chat/completions`);
  const headers = headersFor(endpoint, timeoutMs, url.protocol === 'https:');
  if (url.username !== '' || url.password !== '') {
    throw new APIConnectionError({ cause: new TypeError(`Request cannot be constructed from a URL that includes credentials: ${url.href}`) });
  }
  const pool = dispatcher ?? (await modelDispatcher());
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  const stop = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  try {
    return await completionOf(sdk, await sent(), controller);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (controller.signal.aborted) throw new APIConnectionTimeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }

  async function sent(): Promise<Dispatcher.ResponseData> {
    try {
      return await requestFollowing(pool, url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw new APIConnectionTimeoutError();
      const failed = new TypeError('fetch failed', { cause: error });
      if (/timed? ?out/i.test(`${String(failed)}${String(error)}`)) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({ cause: failed });
    }
  }
}

/** The completion a response carries (see postCompletion), its body read while `controller` has not aborted. */
async function completionOf(sdk: Sdk, response: Dispatcher.ResponseData, controller: AbortController): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const { APIError } = sdk.default;
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    const text = await bodyText(response, controller).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    const json = safeJSON(text);
    throw APIError.generate(status, errorBody(json) as object | undefined, json ? undefined : text, headersOf(response));
  }
  if (status === 204) return null as unknown as OpenAI.Chat.Completions.ChatCompletion;
  const type = header(response, 'content-type');
  const mediaType = type?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (header(response, 'content-length') === '0') {
      await response.body.dump();
      return undefined as unknown as OpenAI.Chat.Completions.ChatCompletion;
    }
    return JSON.parse(await bodyText(response, controller)) as OpenAI.Chat.Completions.ChatCompletion;
  }
  return (await bodyText(response, controller)) as unknown as OpenAI.Chat.Completions.ChatCompletion;
}

function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function headersOf(response: Dispatcher.ResponseData): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/**
 * An error reply's JSON in the shape `APIError.generate` reads (`{error: {message, type, code, …}}`), so its message
 * reaches the user and the fallbacks that read it (json_schema → prompt, the tool-call-parse retry). The client reads
 * only `body.error`, so every other shape became "400 status code (no body)". Shapes seen:
 * - `{error: {message, …}}` (OpenAI, current vLLM, llama.cpp server, LiteLLM): unchanged;
 * - `{object: "error", message, type, param, code}` (older vLLM releases: `ErrorResponse` of
 *   vllm/entrypoints/openai/protocol.py, sent flat): the body itself is the error object;
 * - `{error: "text", error_type?}` (Hugging Face TGI, some proxies): `{message: text, type: error_type}`;
 * - `{detail: "text"}` or `{detail: [{loc, msg, type}]}` (FastAPI's own errors, e.g. vLLM's 422 request validation):
 *   `{message: "text"}`, or each item as `loc.joined: msg`, separated by "; ".
 * Anything else (not JSON, an array, other objects) is passed as it came.
 */
export function errorBody(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  const record = json as Record<string, unknown>;
  const inner = record['error'];
  if (inner !== null && typeof inner === 'object') return json;
  if (typeof inner === 'string' && inner !== '') {
    return { error: { message: inner, ...(typeof record['error_type'] === 'string' ? { type: record['error_type'] } : {}) } };
  }
  if (typeof record['message'] === 'string' && record['message'] !== '') return { error: record };
  const detail = record['detail'];
  if (typeof detail === 'string' && detail !== '') return { error: { message: detail } };
  if (Array.isArray(detail) && detail.length > 0) {
    const items = detail.map((item: unknown) => {
      if (item === null || typeof item !== 'object') return JSON.stringify(item);
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.map(String).join('.') : undefined;
      const what = typeof msg === 'string' ? msg : JSON.stringify(item);
      return where ? `${where}: ${what}` : what;
    });
    return { error: { message: items.join('; ') } };
  }
  return json;
}

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
