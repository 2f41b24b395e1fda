// `view DIR --serve`: the report over HTTP on 127.0.0.1, and every episode's trace on demand from the results folder.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { EpisodeRecord, type StoredText } from '../records/index.js';
import { openEpisodeLineReader } from '../results-folder/index.js';
import { episodeDetailOf } from '../report/html/report-data.js';
import { SERVED_CSP } from '../report/html/render-html.js';
import { positionOf, type EpisodeIndex } from './html-report-folder.js';
import { UsageError } from './usage-error.js';

/** The path the page fetches one episode's detail from: `/episode?task=T&strategy=S&epoch=E` (details.js). */
export const EPISODE_PATH = '/episode';

/** What the report server serves: the page (rendered for serving), and the folder's episodes through their index. */
export interface ReportServerOptions {
  /** The report rendered with `{ served: true }` (its CSP allows connect-src 'self'). */
  html: string;
  index: EpisodeIndex;
  texts: ReadonlyMap<string, StoredText>;
  /** The folder as the user named it, for messages. */
  dir: string;
  /** 0 (default): any free port. */
  port?: number;
}

const json = (response: ServerResponse, status: number, value: unknown): void => {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .end(JSON.stringify(value));
};

/**
 * Starts the report server on 127.0.0.1 only: `GET /` (or /report.html) → the page with the header
 * `Content-Security-Policy: SERVED_CSP` (as its meta tag); `GET /episode?task&strategy&epoch` → that episode's detail
 * as JSON (EpisodeDetail: outcome, checks, findings, models, trace, texts), read from the episodes file at the byte
 * offset the index holds (one positional read, or one ~1 MiB gzip member inflated), so no request reads the whole file;
 * 404 `{error}` for an unknown episode or path, 409 `{error}` when the episodes file changed since the page was built
 * (a resumed run: serve again), 500 `{error}` for a line that cannot be read. Requests whose Host is not this
 * server's loopback address (a DNS-rebinding page) get 403. Rejects with UsageError when the port cannot be bound.
 */
export async function startReportServer(options: ReportServerOptions): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const reader = await openEpisodeLineReader(options.index.path);
  let port = options.port ?? 0;
  const again = `run \`stratbench view ${options.dir} --serve\` again`;
  const episode = async (request: URL, response: ServerResponse): Promise<void> => {
    const task = request.searchParams.get('task');
    const strategy = request.searchParams.get('strategy');
    const epoch = Number(request.searchParams.get('epoch'));
    const position = task !== null && strategy !== null && Number.isInteger(epoch) && epoch >= 0 ? positionOf(options.index, task, strategy, epoch) : undefined;
    if (position === undefined)
      return json(response, 404, { error: `no episode ${task} × ${strategy} epoch ${request.searchParams.get('epoch')} in ${options.dir}` });
    if (await reader.changed()) return json(response, 409, { error: `${options.index.path} changed since this page was built; ${again}` });
    try {
      const line = await reader.read({ start: options.index.starts[position] as number, length: options.index.lengths[position] as number });
      const record = EpisodeRecord.parse(JSON.parse(line));
      if (record.task !== task || record.strategy !== strategy || record.epoch !== epoch) throw new Error('another episode is at its place');
      json(response, 200, episodeDetailOf(record, options.texts));
    } catch (error) {
      json(response, 500, { error: `cannot read this episode from ${options.index.path} (${(error as Error).message}); ${again}` });
    }
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = request.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('this server answers requests for 127.0.0.1 only\n');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${host}`);
    if (request.method !== 'GET') {
      response.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('GET only\n');
      return;
    }
    if (url.pathname === '/' || url.pathname === '/report.html') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': SERVED_CSP })
        .end(options.html);
      return;
    }
    if (url.pathname === EPISODE_PATH) return episode(url, response);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (error) => fail(new UsageError(`cannot serve on 127.0.0.1:${port}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)));
    server.listen(port, '127.0.0.1', () => done());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => void reader.close().then(done, done));
        server.closeAllConnections();
      }),
  };
}
