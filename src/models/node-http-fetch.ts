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
        const responseHeaders = new Headers();
        for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
          responseHeaders.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
        }
        const status = response.statusCode ?? 0;
        const init = { status, statusText: response.statusMessage ?? '', headers: responseHeaders };
        if (NULL_BODY_STATUS.has(status)) {
          response.resume();
          signal?.removeEventListener('abort', onAbort);
          return new Response(null, init);
        }
        let finished = false;
        let bodyTimer: NodeJS.Timeout | undefined;
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        const finish = (): void => {
          finished = true;
          clearTimeout(bodyTimer);
          signal?.removeEventListener('abort', onAbort);
        };
        failBody = (reason) => {
          if (finished) return;
          finish();
          response.destroy();
          controller.error(reason);
        };
        const armBodyTimer = (): void => {
          clearTimeout(bodyTimer);
          bodyTimer = setTimeout(
            () => failBody?.(new TypeError('terminated', { cause: codedError('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT') })),
            bodyTimeoutMs,
          );
        };
        const stream = new ReadableStream<Uint8Array>({
          start(streamController) {
            controller = streamController;
          },
          cancel() {
            finish();
            response.destroy();
          },
        });
        armBodyTimer();
        response.on('data', (chunk: Buffer) => {
          if (finished) return;
          armBodyTimer();
          controller.enqueue(new Uint8Array(chunk));
        });
        response.on('end', () => {
          if (finished) return;
          finish();
          controller.close();
        });
        response.on('error', (error) => failBody?.(new TypeError('terminated', { cause: error })));
        response.on('close', () => {
          if (!response.complete) failBody?.(new TypeError('terminated', { cause: codedError('other side closed', 'UND_ERR_SOCKET') }));
        });
        return new Response(stream, init);
      };

      send(false);
    });
  };
  return lean as typeof fetch;
}
