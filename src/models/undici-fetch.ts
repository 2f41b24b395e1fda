// A `fetch` for the openai client over undici's pool: the requests it makes (a JSON string body) without Node fetch's
// WHATWG request, response and stream layers. Decision 0021 says why (main-thread time per model call at 64 in
// flight against an OpenAI-compatible server, issue 15 §5).
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { decodedBody, modelDispatcher } from './ollama-undici.js';

/** What Node's fetch sends unless the caller sets it (undici's fetch: `accept-encoding`, decoded on the way back). */
const FETCH_DEFAULTS = { 'accept-encoding': 'gzip, deflate' };

/** The headers of `init` as a plain record with lower-case names (a Headers object, a record or pairs). */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = { ...FETCH_DEFAULTS };
  if (headers === undefined || headers === null) return record;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      record[name] = value;
    });
    return record;
  }
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of pairs) if (value !== undefined && value !== null) record[String(name).toLowerCase()] = String(value);
  return record;
}

/**
 * A `fetch` for the openai client (`new OpenAI({fetch})`) that sends over undici's `Dispatcher.request` (default:
 * `modelDispatcher()`, the keep-alive pool the Ollama backend uses). A string or absent body to an http(s) URL takes
 * this path; anything else (a stream, form data, a `Request` object) goes to `globalThis.fetch`, unchanged.
 *
 * What a caller sees is what Node's fetch gives, so the openai client builds the same errors (`APIConnectionError`,
 * `APIConnectionTimeoutError`, `APIError` by status): no response → `TypeError('fetch failed')` with undici's error
 * as `cause` (e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`); the body breaking off while read →
 * `TypeError('terminated')` with the cause; an aborted `signal` → its reason (`AbortError` DOMException for a bare
 * `abort()`). Redirects are followed by the pool (as fetch: at most 20). A gzip, deflate or br reply is decoded.
 * The Response has what the openai client reads: ok, status, statusText, url, headers (built when first read),
 * text, json, arrayBuffer, and body (a web stream, made only when asked for).
 */
export function undiciFetch(dispatcher?: Dispatcher): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body ?? undefined;
    if (url === undefined || (body !== undefined && typeof body !== 'string') || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return globalThis.fetch(input, init);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const pool = dispatcher ?? (await modelDispatcher());
    let response: Dispatcher.ResponseData;
    try {
      response = await pool.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
        headers: headerRecord(init.headers),
        ...(body !== undefined ? { body } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    return leanResponse(url.href, response, signal);
  }) as typeof fetch;
}

/** The response headers as a Headers object (repeated names appended, as fetch keeps them). */
function headersOf(response: Dispatcher.ResponseData): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/** The parts of a WHATWG Response the openai client reads, over undici's response. */
function leanResponse(url: string, response: Dispatcher.ResponseData, signal: AbortSignal | undefined): Response {
  let headers: Headers | undefined;
  let used = false;
  const whole = async (): Promise<Buffer> => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    try {
      return await decodedBody(response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('terminated', { cause: error });
    }
  };
  const status = response.statusCode;
  const lean = {
    ok: status >= 200 && status <= 299,
    status,
    statusText: response.statusText ?? '',
    redirected: false,
    type: 'basic',
    url,
    get headers() {
      headers ??= headersOf(response);
      return headers;
    },
    get body() {
      used = true;
      return Readable.toWeb(response.body);
    },
    get bodyUsed() {
      return used;
    },
    text: async () => (await whole()).toString('utf8'),
    json: async () => JSON.parse((await whole()).toString('utf8')) as unknown,
    arrayBuffer: async () => {
      const bytes = await whole();
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
  };
  return lean as unknown as Response;
}
