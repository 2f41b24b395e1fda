// A non-streamed Ollama /api/chat over undici's dispatcher API: the ollama client's request and errors, without its
// fetch layers. Decision 0019 says why (the main thread's time per model call at 64 calls in flight, issue 15 §5).
import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { MAX_REPLY_BYTES, ReplyTooLargeError, retryAfterMs } from './retry.js';

/**
 * An HTTP error reply, as the ollama client (ollama-js 0.6.4) throws it: `name` "ResponseError", `error` the
 * server's `{"error"}` value as sent (else the body text, else "Error <status>: <reason>"), the message that as text,
 * `status_code` the status.
 */
export class OllamaResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(
    readonly error: unknown,
    readonly status_code: number,
    /** The reply's Retry-After, ms (`retryAfterMs`), for the retry policy; ollama-js keeps no headers. */
    readonly retryAfterMs?: number,
  ) {
    super(String(error));
  }
}

/**
 * The keep-alive connection pool of the run's model calls, Ollama's and OpenAI-compatible servers' (one per process,
 * created on first use; undici's Agent keeps a pool per origin). Its timeouts are Node fetch's: no response headers,
 * or no body data, within 300 000 ms fails the call with `UND_ERR_HEADERS_TIMEOUT` / `UND_ERR_BODY_TIMEOUT`
 * (LIBRARIES.md). Idle sockets do not keep the process alive. Redirects are followed by `requestFollowing`, as fetch
 * follows them. undici is imported here, on first use: loading it costs about 140 ms and 19 MB, which a run of the
 * scripted model should not pay (measured with `process.memoryUsage().rss` around the import).
 */
export async function modelDispatcher(): Promise<Dispatcher> {
  loading ??= import('undici').then(({ Agent }) => new Agent({ headersTimeout: 300_000, bodyTimeout: 300_000 }));
  return loading;
}
let loading: Promise<Dispatcher> | undefined;

/**
 * What every chat request carries: the ollama client's content type, accept and User-Agent (ollama-js 0.6.4
 * `fetchWithHeaders`), and the encodings Node's fetch accepts (a reply in one of them is decoded).
 */
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  'user-agent': `ollama-js/0.6.4 (${process.arch} ${process.platform} Node.js/${process.version})`,
  'accept-encoding': 'gzip, deflate',
};

/** `/api/chat` of a host as the ollama client formats it (`http://host:11434`, no trailing slash), split for undici. */
export interface ChatEndpoint {
  origin: string;
  path: string;
  /** Sent as the `authorization` header (credentials given in the host URL). */
  authorization?: string;
}

/**
 * POSTs `body` (the request with `stream: false`, as JSON) to `endpoint` and returns the parsed reply. Failures
 * are those a caller of the ollama client over Node's fetch sees, so `classifyOllamaError` reads them the same:
 * a non-2xx status → `OllamaResponseError`; no response → `TypeError('fetch failed')` with undici's error (e.g.
 * `ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, `UND_ERR_SOCKET`) as `cause`; the body breaking off →
 * `TypeError('terminated')` with the cause; a reply that is not JSON → `SyntaxError`; past `timeoutMs` ms →
 * a `TimeoutError` DOMException, as `AbortSignal.timeout` gives (the socket is closed, so the server stops).
 * `timeoutMs` is an overall deadline: it covers the response headers and the whole body (a server trickling its body
 * never trips undici's idle body timeout). Once `signal` aborts (the run was interrupted) the socket is closed and its
 * reason is thrown.
 */
export async function postChat(
  endpoint: ChatEndpoint,
  body: string,
  timeoutMs: number | undefined,
  dispatcher?: Dispatcher,
  signal?: AbortSignal,
): Promise<unknown> {
  const pool = dispatcher ?? (await modelDispatcher());
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => controller?.abort(signal?.reason);
  if ((timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) || signal !== undefined) {
    const aborting = new AbortController();
    controller = aborting;
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => aborting.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
      timer.unref();
    }
    if (signal?.aborted) aborting.abort(signal.reason);
    else signal?.addEventListener('abort', stop, { once: true });
  }
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await requestFollowing(pool, new URL(endpoint.path, endpoint.origin), {
        method: 'POST',
        headers: endpoint.authorization === undefined ? HEADERS : { ...HEADERS, authorization: endpoint.authorization },
        body,
        ...(controller ? { signal: controller.signal } : {}),
      });
    } catch (error) {
      if (controller?.signal.aborted) throw controller.signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      // As ollama-js's checkOk: a body that cannot be read (broken off, timed out) leaves the status line.
      const text = await bodyText(response, controller).catch(() => undefined);
      throw responseError(response, text);
    }
    return JSON.parse(await bodyText(response, controller)) as unknown;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * The whole body as text, as fetch's `text()` gives it (see decodedText). A body that breaks off or does not decode →
 * `TypeError('terminated')` with the cause, as fetch; after `controller` aborted, its reason; past MAX_REPLY_BYTES →
 * `ReplyTooLargeError` (fetch has no cap).
 */
export async function bodyText(response: Dispatcher.ResponseData, controller?: AbortController): Promise<string> {
  try {
    return await decodedText(response);
  } catch (error) {
    if (controller?.signal.aborted) throw controller.signal.reason;
    if (error instanceof ReplyTooLargeError) throw error;
    throw new TypeError('terminated', { cause: error });
  }
}

/** Statuses whose response has no body for fetch (the Fetch standard's null body statuses). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * The whole body of `response`, decoded as Node's fetch (undici) decodes it: for a `content-encoding` list, the codings
 * last first, gzip / x-gzip, deflate (zlib or raw, told by the first byte) and br, each forgiving a missing end as
 * curl is (`Z_SYNC_FLUSH`); a coding it does not know (identity, zstd, an empty entry) leaves the whole body as sent.
 * A null body status (204, 205, 304, …) has no body. Throws undici's error when the body breaks off or times out,
 * and zlib's when it does not decode. At most `maxBytes` (default MAX_REPLY_BYTES, 16 MiB) are read and at most as many
 * decoded: a Content-Length above it, a body passing it, or a decoding passing it → `ReplyTooLargeError`, the body
 * destroyed (its connection closed) without reading the rest.
 */
export async function decodedBody(response: Dispatcher.ResponseData, maxBytes: number = MAX_REPLY_BYTES): Promise<Buffer> {
  if (NULL_BODY_STATUSES.has(response.statusCode)) {
    await response.body.dump();
    return Buffer.alloc(0);
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    throw new ReplyTooLargeError('content-length', maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      throw new ReplyTooLargeError('body', maxBytes);
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, size);
  const encoding = response.headers['content-encoding'];
  if (encoding === undefined || raw.length === 0) return raw;
  const codings = (Array.isArray(encoding) ? encoding.join(', ') : encoding).toLowerCase().split(',');
  const steps: Array<(bytes: Buffer) => Buffer> = [];
  for (let index = codings.length - 1; index >= 0; index--) {
    const coding = codings[index]!.trim();
    const flush = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: maxBytes };
    if (coding === 'gzip' || coding === 'x-gzip') steps.push((bytes) => gunzipSync(bytes, flush));
    else if (coding === 'deflate')
      steps.push((bytes) => (bytes.length > 0 && (bytes[0]! & 0x0f) === 0x08 ? inflateSync(bytes, flush) : inflateRawSync(bytes, flush)));
    else if (coding === 'br') {
      const brotli = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: maxBytes };
      steps.push((bytes) => brotliDecompressSync(bytes, brotli));
    } else return raw;
  }
  try {
    return steps.reduce<Buffer>((bytes, step) => step(bytes), raw);
  } catch (error) {
    // zlib's maxOutputLength: RangeError ERR_BUFFER_TOO_LARGE, thrown before more than maxBytes are held.
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new ReplyTooLargeError('decoded', maxBytes);
    throw error;
  }
}

/** The whole body as text, as fetch's `text()` gives it: decoded (decodedBody), UTF-8, a leading byte order mark dropped. */
export async function decodedText(response: Dispatcher.ResponseData): Promise<string> {
  const text = (await decodedBody(response)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Request headers fetch drops when a redirect turns the request into a GET without a body (Fetch standard). */
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length'];
/** Headers fetch drops when a redirect leaves the origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * `dispatcher.request` to `url`, following redirects as Node's fetch follows them (the Fetch standard's HTTP-redirect
 * fetch): 301, 302, 303, 307 and 308 with a Location, at most 20; 303 (and 301 or 302 for a POST) becomes a GET
 * without body or body headers; leaving the origin drops the authorization. A 3xx without Location, or another 3xx,
 * is the response. Throws undici's error for no response; for a Location that is not an http(s) URL, or a 21st
 * redirect, a TypeError naming it (as fetch's network errors are its cause).
 */
export async function requestFollowing(
  dispatcher: Dispatcher,
  url: URL,
  options: { method: Dispatcher.HttpMethod; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<Dispatcher.ResponseData> {
  let current = url;
  let { method, headers, body } = options;
  for (let redirects = 0; ; redirects++) {
    const response = await dispatcher.request({
      origin: current.origin,
      path: `${current.pathname}${current.search}`,
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const location = response.headers['location'];
    if (!REDIRECT_STATUSES.has(response.statusCode) || location === undefined) return response;
    await response.body.dump();
    let next: URL;
    try {
      next = new URL(Array.isArray(location) ? location[0]! : location, current);
    } catch (error) {
      throw new TypeError('invalid redirect location', { cause: error });
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new TypeError('URL scheme must be a HTTP(S) scheme');
    if (redirects >= 20) throw new TypeError('redirect count exceeded');
    const status = response.statusCode;
    if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !BODY_HEADERS.includes(name)));
    }
    if (next.origin !== current.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
    next.hash = '';
    current = next;
  }
}

/**
 * ollama-js's checkOk: the `{"error"}` of a JSON body, else the body text, else "Error <status>: <reason>" (also when
 * the body could not be read: `text` undefined).
 */
function responseError(response: Dispatcher.ResponseData, text: string | undefined): OllamaResponseError {
  let message: unknown = `Error ${response.statusCode}: ${response.statusText ?? ''}`;
  const type = response.headers['content-type'];
  if ((Array.isArray(type) ? type.join(', ') : (type ?? '')).includes('application/json')) {
    try {
      const data = JSON.parse(text ?? '') as { error?: unknown };
      if (data.error) message = data.error;
    } catch {
      // as ollama-js: an unparsable JSON error body keeps the status line
    }
  } else if (text) message = text;
  const after = retryAfterMs((name) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  });
  return new OllamaResponseError(message, response.statusCode, after);
}
