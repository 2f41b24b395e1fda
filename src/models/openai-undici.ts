// A non-streamed POST /chat/completions over undici's pool: the openai client's request, reply and errors, without its
// request machinery or a fetch. Decision 0021 says why (main-thread time per model call at 64 in flight, issue 15 §5).
import type OpenAI from 'openai';
import { VERSION } from 'openai/version';
import type { Dispatcher } from 'undici';
import { decodedBody, modelDispatcher } from './ollama-undici.js';

type Sdk = typeof import('openai');

/** openai-node's default request timeout, ms (`new OpenAI()` without `timeout`: 10 minutes). */
const SDK_DEFAULT_TIMEOUT_MS = 600_000;

/** Where and how a model's completions are posted. */
export interface CompletionEndpoint {
  /** Base URL ending in /v1 (a trailing slash is dropped). */
  baseURL: string;
  apiKey: string;
}

/**
 * The headers openai-node 6.30 sends with a chat completion (`buildHeaders`: accept, content type, its User-Agent and
 * `X-Stainless-*` platform headers, the bearer token), and the `accept-encoding` Node's fetch adds under it.
 */
function headersFor(endpoint: CompletionEndpoint, timeoutMs: number | undefined): Record<string, string> {
  const os: Record<string, string> = { linux: 'Linux', darwin: 'MacOS', win32: 'Windows', freebsd: 'FreeBSD', openbsd: 'OpenBSD', android: 'Android' };
  const platform: Record<string, string> = {
    'x-stainless-lang': 'js',
    'x-stainless-package-version': VERSION,
    'x-stainless-os': os[process.platform] ?? `Other:${process.platform}`,
    'x-stainless-arch': ['x64', 'arm64', 'arm'].includes(process.arch) ? process.arch : `other:${process.arch}`,
    'x-stainless-runtime': 'node',
    'x-stainless-runtime-version': process.version,
  };
  return {
    accept: 'application/json',
    'content-type': 'application/json',
    'user-agent': `OpenAI/JS ${VERSION}`,
    'x-stainless-retry-count': '0',
    // Sent only for a timeout given with the call (not the client's default), as the client does.
    ...(timeoutMs ? { 'x-stainless-timeout': String(Math.trunc(timeoutMs / 1000)) } : {}),
    ...platform,
    authorization: `Bearer ${endpoint.apiKey}`,
    'accept-encoding': 'gzip, deflate',
  };
}

/**
 * POSTs `body` (a chat completion request, not streamed) to `<baseURL>/chat/completions` over `dispatcher` (default:
 * `modelDispatcher()`), as `openai.chat.completions.create(body, {timeout: timeoutMs})` with `maxRetries: 0` does,
 * and returns what it returns: the parsed completion (a reply that is not JSON: its text; 204: null). It throws the
 * client's own errors, built with its classes, so `classifyOpenAIError` reads them the same:
 * - an HTTP error status → `APIError.generate` (BadRequestError, NotFoundError, RateLimitError, InternalServerError,
 *   …) from the body's JSON, else its text (a body that breaks off: its message, e.g. "terminated");
 * - no response within `timeoutMs` (default 600 000 ms, the client's) → `APIConnectionTimeoutError`; no response
 *   for another reason → `APIConnectionError` with `TypeError('fetch failed')` (undici's error its cause) as
 *   `cause`, or `APIConnectionTimeoutError` when that error says it timed out (as the client tells them apart);
 * - a 2xx body that breaks off → `TypeError('terminated')`; one that is not the JSON it claims → `SyntaxError`;
 * - a `timeoutMs` that is not a whole number ≥ 0 → `OpenAIError`, before anything is sent.
 * The timeout covers the wait for the response headers, as the client's does; the body then has undici's 300 s.
 */
export async function postCompletion(
  sdk: Sdk,
  endpoint: CompletionEndpoint,
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  timeoutMs: number | undefined,
  dispatcher?: Dispatcher,
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, OpenAIError } = sdk.default;
  const timeout = timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout)) throw new OpenAIError('timeout must be an integer');
  if (timeout < 0) throw new OpenAIError('timeout must be a positive integer');
  const pool = dispatcher ?? (await modelDispatcher());
  const url = new URL(`${endpoint.baseURL.replace(/\/+$/, '')}/chat/completions`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response: Dispatcher.ResponseData;
  try {
    response = await pool.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: headersFor(endpoint, timeoutMs),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) throw new APIConnectionTimeoutError();
    const failed = new TypeError('fetch failed', { cause: error });
    if (/timed? ?out/i.test(`${String(failed)}${String(error)}`)) throw new APIConnectionTimeoutError();
    throw new APIConnectionError({ cause: failed });
  } finally {
    clearTimeout(timer);
  }
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    const text = await bodyText(response).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    const json = safeJSON(text);
    throw APIError.generate(status, json as object, json ? undefined : text, headersOf(response));
  }
  if (status === 204) return null as unknown as OpenAI.Chat.Completions.ChatCompletion;
  const type = header(response, 'content-type');
  const mediaType = type?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (header(response, 'content-length') === '0') {
      await response.body.dump();
      return undefined as unknown as OpenAI.Chat.Completions.ChatCompletion;
    }
    return JSON.parse(await bodyText(response)) as OpenAI.Chat.Completions.ChatCompletion;
  }
  return (await bodyText(response)) as unknown as OpenAI.Chat.Completions.ChatCompletion;
}

/** The whole body as text (decoded as fetch decodes it); a body that breaks off → `TypeError('terminated')`, as fetch. */
async function bodyText(response: Dispatcher.ResponseData): Promise<string> {
  try {
    return (await decodedBody(response)).toString('utf8');
  } catch (error) {
    throw new TypeError('terminated', { cause: error });
  }
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

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
