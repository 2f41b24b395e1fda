// The HTML pages of `report --html`, `view` and `compare --html`: a results folder read into the one-file report, written whole or in parts.
import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../files/make-folder.js';
import type { EpisodeRecord } from '../records/index.js';
import { removePartialFile } from '../results-folder/index.js';
import type { CounterfactualVerdict, ReportData } from '../report/html/report-data.js';
import { pageData, renderHtmlParts, renderHtmlReportParts, type HtmlAssets } from '../report/html/render-html.js';
import { buildCompareData } from '../report/html/compare-data.js';
import { compareResults, type CompareOptions } from '../report/compare-report.js';
import { counterfactualFile, counterfactualOfRecord, readReportFolder } from './html-report-folder.js';
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

/**
 * The counterfactual verdicts the report shows: each record's own replay (`run --counterfactual`), and for a folder
 * written before replays were kept in the records, counterfactual.json's episodes; anything unreadable is ignored
 * (it is optional).
 */
export async function counterfactualsOf(dir: string, records: readonly EpisodeRecord[]): Promise<CounterfactualVerdict[]> {
  const stored = records.flatMap((record) => counterfactualOfRecord(record) ?? []);
  return stored.length > 0 ? stored : counterfactualFile(dir);
}

/** Reads a results folder into the report's data, one episode line at a time (readReportFolder). Throws UsageError (exit 2) for an unusable folder. */
export async function reportDataOf(dir: string): Promise<ReportData> {
  return (await readReportFolder(dir)).data;
}

/** Writes `parts` (one text) to `file`, one after the other (a large page is never copied whole); returns its bytes. */
export async function writeOrThrow(file: string, parts: string | readonly string[]): Promise<number> {
  let bytes = 0;
  try {
    await makeFolder(dirname(resolve(file)));
    const handle = await open(file, 'w');
    try {
      // Parts gathered into writes of about 1 MiB.
      let pending: string[] = [];
      let pendingLength = 0;
      const flush = async () => {
        const buffer = Buffer.from(pending.join(''));
        pending = [];
        pendingLength = 0;
        bytes += buffer.length;
        await handle.write(buffer);
      };
      for (const part of typeof parts === 'string' ? [parts] : parts) {
        pending.push(part);
        pendingLength += part.length;
        if (pendingLength >= 1 << 20) await flush();
      }
      await flush();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await removePartialFile(file);
    throw outputWriteError(file, error);
  }
  return bytes;
}

/** Writes DIR's HTML report to `file`; returns its size in bytes. */
export async function writeHtmlReport(dir: string, file: string): Promise<number> {
  return writeOrThrow(file, renderHtmlReportParts(await reportDataOf(dir), await loadHtmlAssets()));
}

/**
 * `compare BASE HEAD --html FILE`: the comparison (compareResults, the same options as the command) as one HTML page
 * with both runs' grids and traces. Throws UsageError (exit 2) for folders that cannot be compared or an unwritable file.
 */
export async function writeCompareHtml(baseDir: string, headDir: string, file: string, options: CompareOptions = {}): Promise<number> {
  // One after the other: each holds its rows while it reads, and the two do not share a core anyway.
  const base = await readReportFolder(baseDir);
  const head = await readReportFolder(headDir);
  const compared = compareResults(base.compare, head.compare, options);
  if (!compared.ok) throw new UsageError(`cannot compare ${baseDir} and ${headDir}: ${compared.error}`);
  const data = buildCompareData(compared.report, base.data, head.data, { base: base.compare.run, head: head.compare.run });
  // renderCompareHtml's page, in parts (two 100k-episode runs are ~30 MB of page: never one string).
  const [basePage, headPage] = [pageData(base.data), pageData(head.data)];
  const parts = renderHtmlParts(
    { title: data.title, comparison: data, base: basePage.page, head: headPage.page },
    { base: basePage.details, head: headPage.details },
    data.title,
    await loadHtmlAssets(),
    'compare',
  );
  return writeOrThrow(file, parts);
}
