// `stratbench view DIR [--serve]`: the HTML report written into the results folder, and optionally served on loopback.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderHtmlReport, renderHtmlReportParts } from '../../report/html/render-html.js';
import { loadHtmlAssets, VIEW_FILE, writeOrThrow } from '../html-commands.js';
import { readReportFolder } from '../html-report-folder.js';
import { startReportServer } from '../html-serve.js';

/** The flags of `stratbench view` (cli.ts). */
export interface ViewOptions {
  /** `--serve`: also serve the report on 127.0.0.1 (only) until SIGINT or SIGTERM. */
  serve?: boolean;
  /** `--port N`: the port for `serve` (default: any free port). */
  port?: number;
}

/**
 * `stratbench view DIR [--serve] [--port N]`: writes DIR/report.html and prints its file:// URL; with `serve`, also
 * serves it on 127.0.0.1 (only) until interrupted and prints the http:// URL — the same report with a CSP that allows
 * connect-src 'self', whose traces not inlined in the file are fetched from DIR's episodes file on demand
 * (startReportServer).
 */
export async function viewCommand(dir: string, options: ViewOptions): Promise<number> {
  const file = join(dir, VIEW_FILE);
  const folder = await readReportFolder(dir);
  const assets = await loadHtmlAssets();
  const bytes = await writeOrThrow(file, renderHtmlReportParts(folder.data, assets));
  process.stdout.write(`${pathToFileURL(resolve(file)).href}\n`);
  process.stderr.write(`wrote ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)\n`);
  if (!options.serve) return 0;
  const served = await startReportServer({
    html: renderHtmlReport(folder.data, assets, { served: true }),
    index: folder.index,
    texts: folder.texts,
    dir,
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  process.stdout.write(`${served.url}\n`);
  process.stderr.write(
    `serving on 127.0.0.1 only: all ${folder.data.episodes.length} traces (${folder.data.episodes.length - folder.data.omitted} in the file, the rest from ${folder.index.path}); Ctrl-C to stop\n`,
  );
  await new Promise<void>((done) => {
    const stop = () => void served.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
