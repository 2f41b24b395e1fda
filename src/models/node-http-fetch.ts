// A lean `fetch` for the ollama client on node:http keep-alive sockets; failures shaped like Node's own fetch (undici).
import http from 'node:http';
import https from 'node:https';

export interface NodeHttpFetchOptions {
  /** No response headers within this many ms → fails like undici's headers timeout (`UND_ERR_HEADERS_TIMEOUT`). Default 300 000. */
  headersTimeoutMs?: number;
  /** No body data within this many ms → the body fails like undici's body timeout (`UND_ERR_BODY_TIMEOUT`). Default 300 000. */
  bodyTimeoutMs?: number;
}

/** Node's fetch gives up after 300 s without headers or body data (LIBRARIES.md); the same bounds here. */
const DEFAULT_TIMEOUT_MS = 300_000;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** An Error with a `code`, like the causes undici attaches. */
function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  // A plain object (what the ollama client passes) needs no Headers instance: names lower-cased, as Headers does.
  if (headers !== undefined && headers !== null && Object.getPrototypeOf(headers) === Object.prototype) {
    for (const [key, value] of Object.entries(headers as Record<string, string>)) record[key.toLowerCase()] = String(value);
    return record;
  }
  new Headers(headers).forEach((value, key) => (record[key] = value));
  return record;
}

/**
 * A `fetch` for string bodies over node:http / node:https with keep-alive agents (one per returned
 * function). Node's built-in fetch spends about 3 ms of CPU per Ollama call on this kind of machine (WHATWG
 * request and body streams, a write per chunk); this spends a fraction of it, which matters when eight
 * episodes share one event loop (bench:ollama). Anything else — a `Request` input, a non-string body, another
 * protocol — goes to `globalThis.fetch`.
 *
 * Failures look like undici's, so `classifyOllamaError` reads them the same way: no response →
 * `TypeError('fetch failed')` with the socket error (e.g. `ECONNREFUSED`) as `cause`; headers timeout →
 * cause code `UND_ERR_HEADERS_TIMEOUT`; the body breaking off → `TypeError('terminated')` (body timeout:
 * cause code `UND_ERR_BODY_TIMEOUT`); an aborted `signal` → its `reason` (e.g. a `TimeoutError`), before or
 * after the headers. A request that finds its reused keep-alive socket closed by the server before any
 * response (ECONNRESET/EPIPE) is sent once more on a new socket, as Node's documentation advises.
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): typeof fetch {
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  const lean = (input: Parameters<typeof fetch>[0], init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body ?? undefined;
    if (url === undefined || (body !== undefined && typeof body !== 'string') || !(url.protocol in agents)) return globalThis.fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    const headers = headerRecord(init.headers);
    if (payload !== undefined) headers['content-length'] = String(payload.length);
    const transport = url.protocol === 'https:' ? https : http;
    const agent = agents[url.protocol as keyof typeof agents];

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      let current: http.ClientRequest | undefined;
      let failBody: ((reason: unknown) => void) | undefined;
      const onAbort = (): void => {
        const reason: unknown = signal?.reason;
        current?.destroy();
        if (!settled) fail(reason);
        failBody?.(reason);
      };
      const fail = (reason: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(headersTimer);
        signal?.removeEventListener('abort', onAbort);
        reject(reason);
      };
      const headersTimer = setTimeout(() => {
        current?.destroy();
        fail(new TypeError('fetch failed', { cause: codedError('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT') }));
      }, headersTimeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });

      const send = (retried: boolean): void => {
        const request = transport.request(url, { method: init.method ?? 'GET', headers, agent });
        current = request;
        request.on('error', (error: NodeJS.ErrnoException) => {
          if (settled) return;
          if (!retried && request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send(true);
          // Node says "socket hang up" where undici says "other side closed": keep undici's words, Node's error as the cause.
          const cause =
            error.code === 'ECONNRESET' && error.message === 'socket hang up'
              ? Object.assign(codedError('other side closed', 'UND_ERR_SOCKET'), { cause: error })
              : error;
          fail(new TypeError('fetch failed', { cause }));
        });
        request.on('response', (response) => {
          if (settled) {
            response.destroy();
            return;
          }
          settled = true;
          clearTimeout(headersTimer);
          resolve(toResponse(response));
        });
        request.end(payload);
      };

      const toResponse = (response: http.IncomingMessage): Response => {
        const status = response.statusCode ?? 0;
        if (NULL_BODY_STATUS.has(status)) {
          response.resume();
          signal?.removeEventListener('abort', onAbort);
          return new Response(null, { status, statusText: response.statusMessage ?? '', headers: headersOf(response) });
        }
        const body = new ArrivingBody(() => {
          finish();
          response.destroy();
        });
        let bodyTimer: NodeJS.Timeout | undefined;
        const finish = (): void => {
          clearTimeout(bodyTimer);
          signal?.removeEventListener('abort', onAbort);
        };
        failBody = (reason) => {
          if (body.settled) return;
          finish();
          response.destroy();
          body.fail(reason);
        };
        const armBodyTimer = (): void => {
          clearTimeout(bodyTimer);
          bodyTimer = setTimeout(
            () => failBody?.(new TypeError('terminated', { cause: codedError('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT') })),
            bodyTimeoutMs,
          );
        };
        armBodyTimer();
        response.on('data', (chunk: Buffer) => {
          if (body.settled) return;
          armBodyTimer();
          body.push(chunk);
        });
        response.on('end', () => {
          if (body.settled) return;
          finish();
          body.end();
        });
        response.on('error', (error) => failBody?.(new TypeError('terminated', { cause: error })));
        response.on('close', () => {
          if (!response.complete) failBody?.(new TypeError('terminated', { cause: codedError('other side closed', 'UND_ERR_SOCKET') }));
        });
        return leanResponse(response, status, body);
      };

      send(false);
    });
  };
  return lean as typeof fetch;
}

/** The response headers as a Headers object (built only when asked for). */
function headersOf(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
  return headers;
}

/**
 * A response body as it arrives: kept as chunks until it is read whole (`text`, `json`), or handed to a web stream
 * when `stream()` is asked for (a streamed reply, read as it comes). Failures (body timeout, a broken connection,
 * an abort) reach whichever reader there is, or the next one.
 */
class ArrivingBody {
  settled = false;
  private readonly chunks: Buffer[] = [];
  private failure: { reason: unknown } | undefined;
  private waiting: Array<{ resolve: (text: Buffer) => void; reject: (reason: unknown) => void }> = [];
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private webStream: ReadableStream<Uint8Array> | undefined;
  used = false;

  constructor(private readonly cancel: () => void) {}

  push(chunk: Buffer): void {
    if (this.controller !== undefined) this.controller.enqueue(new Uint8Array(chunk));
    else this.chunks.push(chunk);
  }

  end(): void {
    this.settled = true;
    this.controller?.close();
    const whole = Buffer.concat(this.chunks);
    for (const waiter of this.waiting) waiter.resolve(whole);
    this.waiting = [];
  }

  fail(reason: unknown): void {
    this.settled = true;
    this.failure = { reason };
    this.controller?.error(reason);
    for (const waiter of this.waiting) waiter.reject(reason);
    this.waiting = [];
  }

  /** The whole body once it has arrived. @throws TypeError when the body was already read (as undici). */
  bytes(): Promise<Buffer> {
    if (this.used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.used = true;
    if (this.failure !== undefined) return Promise.reject(this.failure.reason);
    if (this.settled) return Promise.resolve(Buffer.concat(this.chunks));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** The body as a web stream (created on first use, with what has arrived so far). */
  stream(): ReadableStream<Uint8Array> {
    this.webStream ??= new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.used = true;
        for (const chunk of this.chunks.splice(0)) controller.enqueue(new Uint8Array(chunk));
        if (this.failure !== undefined) controller.error(this.failure.reason);
        else if (this.settled) controller.close();
        else this.controller = controller;
      },
      cancel: () => {
        this.settled = true;
        this.cancel();
      },
    });
    return this.webStream;
  }
}

/**
 * The parts of a WHATWG Response the ollama client and the preflight read (ok, status, statusText, headers, body,
 * json, text, arrayBuffer), without undici's Response and its web streams for a reply read whole: that cost about
 * 0.1 ms of main-thread time per model call (`npx tsx scripts/bench-ollama.ts --hosts-only`, CPU profile).
 */
function leanResponse(response: http.IncomingMessage, status: number, body: ArrivingBody): Response {
  let headers: Headers | undefined;
  const lean = {
    ok: status >= 200 && status <= 299,
    status,
    statusText: response.statusMessage ?? '',
    redirected: false,
    type: 'basic',
    url: '',
    get headers() {
      headers ??= headersOf(response);
      return headers;
    },
    get body() {
      return body.stream();
    },
    get bodyUsed() {
      return body.used;
    },
    text: async () => (await body.bytes()).toString('utf8'),
    json: async () => JSON.parse((await body.bytes()).toString('utf8')) as unknown,
    arrayBuffer: async () => {
      const bytes = await body.bytes();
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
  };
  return lean as unknown as Response;
}
