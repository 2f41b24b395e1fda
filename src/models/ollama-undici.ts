// A non-streamed Ollama /api/chat over undici's dispatcher API: the ollama client's request and errors, without its
// fetch layers. Decision 0019 says why (the main thread's time per model call at 64 calls in flight, issue 15 §5).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';

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
  ) {
    super(String(error));
  }
}

/**
 * The keep-alive connection pool of the run's model calls, Ollama's and OpenAI-compatible servers' (one per process,
 * created on first use; undici's Agent keeps a pool per origin). Its
 * timeouts are Node fetch's: no response headers, or no body data, within 300 000 ms fails the call with
 * `UND_ERR_HEADERS_TIMEOUT` / `UND_ERR_BODY_TIMEOUT` (LIBRARIES.md). Idle sockets do not keep the process alive.
 * undici is imported here, on first use: loading it costs about 140 ms and 19 MB, which a run of the scripted
 * model should not pay (measured with `process.memoryUsage().rss` around the import).
 */
export async function modelDispatcher(): Promise<Dispatcher> {
  loading ??= import('undici').then(
    // Redirects are followed as Node's fetch follows them (at most 20; a POST answered 301, 302 or 303 becomes a GET).
    ({ Agent, interceptors }) => new Agent({ headersTimeout: 300_000, bodyTimeout: 300_000 }).compose(interceptors.redirect({ maxRedirections: 20 })),
  );
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
 */
export async function postChat(endpoint: ChatEndpoint, body: string, timeoutMs: number | undefined, dispatcher?: Dispatcher): Promise<unknown> {
  const pool = dispatcher ?? (await modelDispatcher());
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
    const aborting = new AbortController();
    controller = aborting;
    timer = setTimeout(() => aborting.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
    timer.unref();
  }
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await pool.request({
        origin: endpoint.origin,
        path: endpoint.path,
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
  }
}

/** The whole body as text, decoded when the server compressed it (gzip, deflate or br, as Node's fetch decodes). */
async function bodyText(response: Dispatcher.ResponseData, controller: AbortController | undefined): Promise<string> {
  try {
    return (await decodedBody(response)).toString('utf8');
  } catch (error) {
    if (controller?.signal.aborted) throw controller.signal.reason;
    throw new TypeError('terminated', { cause: error });
  }
}

/**
 * The whole body of `response`, decoded as Node's fetch decodes a `content-encoding` of gzip, deflate or br (several
 * codings are undone last first). Throws undici's error when the body breaks off or times out, zlib's when it does
 * not decode, and a TypeError naming an encoding it does not know.
 */
export async function decodedBody(response: Dispatcher.ResponseData): Promise<Buffer> {
  const encoding = response.headers['content-encoding'];
  let bytes = Buffer.from(await response.body.arrayBuffer());
  if (encoding === undefined || encoding === 'identity') return bytes;
  for (const coding of String(encoding)
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes);
    else if (coding === 'deflate') bytes = inflateSync(bytes);
    else if (coding === 'br') bytes = brotliDecompressSync(bytes);
    else if (coding !== 'identity') throw new TypeError(`unsupported content-encoding "${coding}"`);
  }
  return bytes;
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
  return new OllamaResponseError(message, response.statusCode);
}
