// `report DIR --html FILE` and `view DIR [--serve]`: read a results folder, build the one-file HTML report, write or serve it.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeFolder } from '../files/make-folder.js';
import { SummaryFile as SummaryFileSchema, type RunFile } from '../records/index.js';
import { readMessages, readResultsFolder, referencesMissingText, removePartialFile, SUMMARY_FILE, type ResultsFolder } from '../results-folder/index.js';
import { summaryFromRecords, type SummaryFile } from '../report/index.js';
import { buildReportData, type CounterfactualVerdict, type ReportData } from '../report/html/report-data.js';
import { renderHtmlReport, type HtmlAssets } from '../report/html/render-html.js';
import { buildCompareData, renderCompareHtml } from '../report/html/compare-data.js';
import { compareResults, type CompareOptions } from '../report/compare-report.js';
import { outputWriteError, UsageError } from './usage-error.js';

/** The report `view` writes into the results folder. */
export const VIEW_FILE = 'report.html';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder of an installed package, found from its main entry (its dist files are not in its exports map). */
function packageFolder(name: string): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve(name);
  const marker = `${join('node_modules', name)}`;
  const at = entry.lastIndexOf(marker);
  if (at < 0) throw new Error(`cannot locate the ${name} package from ${entry}`);
  return entry.slice(0, at + marker.length);
}

/**
 * The page script's parts, in order (src/report/html-assets/NAME.js): concatenated inside one strict IIFE, so they
 * share one scope and each may use what an earlier one declares; `main` renders and comes last.
 */
export const SCRIPT_PARTS = ['core', 'details', 'overview', 'grid', 'search', 'trace', 'compare', 'main'] as const;

/** The page's style sheets, in order (src/report/html-assets/NAME.css), concatenated. */
export const STYLE_PARTS = ['core', 'overview', 'grid', 'trace', 'compare'] as const;

/** Reads the page's code and styles: d3 and Observable Plot's UMD bundles, and report/html-assets/. */
export async function loadHtmlAssets(): Promise<HtmlAssets> {
  const assets = join(packageRoot, 'src/report/html-assets');
  const read = (name: string) => readFile(join(assets, name), 'utf8');
  const [d3, plot, scripts, styles] = await Promise.all([
    readFile(join(packageFolder('d3'), 'dist/d3.min.js'), 'utf8'),
    readFile(join(packageFolder('@observablehq/plot'), 'dist/plot.umd.min.js'), 'utf8'),
    Promise.all(SCRIPT_PARTS.map((part) => read(`${part}.js`))),
    Promise.all(STYLE_PARTS.map((part) => read(`${part}.css`))),
  ]);
  return { d3, plot, script: `(() => {\n'use strict';\n${scripts.join('\n')}\n})();\n`, styles: styles.join('\n') };
}

/** summary.json when it is there and valid (its statistics are reused), else recomputed from the records. */
async function summaryOf(folder: ResultsFolder): Promise<SummaryFile> {
  try {
    const parsed = SummaryFileSchema.safeParse(JSON.parse(await readFile(join(folder.dir, SUMMARY_FILE), 'utf8')));
    if (parsed.success && Array.isArray((parsed.data.statistics as { comparisons?: unknown }).comparisons)) return parsed.data as unknown as SummaryFile;
  } catch {
    // absent or unreadable: recomputed below (readResultsFolder already refused a corrupt one)
  }
  const run: RunFile | null = folder.run;
  const groups = run?.config.groups ?? [...new Set(folder.records.map((r) => r.group))];
  const strategies = run?.strategies ?? [...new Set(folder.records.map((r) => r.strategy))];
  return summaryFromRecords(folder.records, groups, strategies, run?.seed ?? 1);
}

/**
 * The counterfactual verdicts the report shows: each record's own replay (`run --counterfactual`), and for a folder
 * written before replays were kept in the records, counterfactual.json's episodes; anything unreadable is ignored
 * (it is optional).
 */
export async function counterfactualsOf(dir: string, records: ResultsFolder['records']): Promise<CounterfactualVerdict[]> {
  const stored = records.flatMap((record): CounterfactualVerdict[] =>
    record.counterfactual
      ? [
          {
            task: record.task,
            strategy: record.strategy,
            epoch: record.epoch,
            counterfactual: record.counterfactual.component,
            replaced: Object.fromEntries(Object.entries(record.counterfactual.swaps).map(([role, swap]) => [role, swap.success])),
            agrees: record.counterfactual.agrees_with_rules,
          },
        ]
      : [],
  );
  if (stored.length > 0) return stored;
  try {
    const value = JSON.parse(await readFile(join(dir, 'counterfactual.json'), 'utf8')) as { episodes?: unknown };
    return Array.isArray(value.episodes) ? (value.episodes as CounterfactualVerdict[]) : [];
  } catch {
    return [];
  }
}

/** Reads a results folder into the report's data. Throws UsageError (exit 2) for an unusable folder. */
export async function reportDataOf(dir: string): Promise<ReportData> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new UsageError(`cannot read results folder ${dir}: ${messages.error}`);
  for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
  const missing = folder.records.filter((record) => referencesMissingText(record, messages.texts)).length;
  if (missing > 0) {
    process.stderr.write(
      `warning: ${missing} episode(s) reference messages or thinking that ${dir}/messages.jsonl lacks (shown as their hashes); ` +
        `their verdicts stand (scored when each episode ended)\n`,
    );
  }
  return buildReportData(folder.records, await summaryOf(folder), folder.run, messages.texts, {
    counterfactuals: await counterfactualsOf(dir, folder.records),
  });
}

async function writeOrThrow(file: string, text: string): Promise<void> {
  try {
    await makeFolder(dirname(resolve(file)));
    await writeFile(file, text);
  } catch (error) {
    await removePartialFile(file);
    throw outputWriteError(file, error);
  }
}

/** Writes DIR's HTML report to `file`; returns its size in bytes. */
export async function writeHtmlReport(dir: string, file: string): Promise<number> {
  const html = renderHtmlReport(await reportDataOf(dir), await loadHtmlAssets());
  await writeOrThrow(file, html);
  return Buffer.byteLength(html);
}

/**
 * `stratbench view DIR [--serve] [--port N]`: writes DIR/report.html and prints its file:// URL; with `serve`, also
 * serves it on 127.0.0.1 (only) until interrupted and prints the http:// URL.
 */
export async function viewCommand(dir: string, options: { serve?: boolean; port?: number }): Promise<number> {
  const file = join(dir, VIEW_FILE);
  const bytes = await writeHtmlReport(dir, file);
  process.stdout.write(`${pathToFileURL(resolve(file)).href}\n`);
  process.stderr.write(`wrote ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)\n`);
  if (!options.serve) return 0;
  const html = await readFile(file);
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || !['/', `/${VIEW_FILE}`].includes((request.url ?? '/').split('?')[0] as string)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (error) =>
      fail(new UsageError(`cannot serve on 127.0.0.1:${options.port ?? 0}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  process.stdout.write(`http://127.0.0.1:${port}/\n`);
  process.stderr.write('serving on 127.0.0.1 only; Ctrl-C to stop\n');
  await new Promise<void>((done) => {
    const stop = () => server.close(() => done());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

/**
 * `compare BASE HEAD --html FILE`: the comparison (compareResults, the same options as the command) as one HTML page
 * with both runs' grids and traces. Throws UsageError (exit 2) for folders that cannot be compared or an unwritable file.
 */
export async function writeCompareHtml(baseDir: string, headDir: string, file: string, options: CompareOptions = {}): Promise<number> {
  const [base, head] = await Promise.all([readResultsFolder(baseDir), readResultsFolder(headDir)]);
  if (!base.ok) throw new UsageError(`cannot read results folder ${baseDir}: ${base.error}`);
  if (!head.ok) throw new UsageError(`cannot read results folder ${headDir}: ${head.error}`);
  const compared = compareResults(base, head, options);
  if (!compared.ok) throw new UsageError(`cannot compare ${baseDir} and ${headDir}: ${compared.error}`);
  const [baseData, headData] = await Promise.all([reportDataOf(baseDir), reportDataOf(headDir)]);
  const data = buildCompareData(compared.report, baseData, headData, { base: base.run, head: head.run });
  const html = renderCompareHtml(data, baseData, headData, await loadHtmlAssets());
  await writeOrThrow(file, html);
  return Buffer.byteLength(html);
}
