// One self-contained HTML page: the report's data, its styles, d3 + Observable Plot and the page script, all inlined.
import type { EpisodeRow, ReportData } from './report-data.js';

/** The page's code and styles, read from the package by the caller (runner/html-commands.ts loadHtmlAssets). */
export interface HtmlAssets {
  /** d3 7 UMD bundle (Observable Plot's dependency). */
  d3: string;
  /** Observable Plot 0.6 UMD bundle. */
  plot: string;
  /** The page script (report/html-assets/*.js, concatenated in one IIFE). */
  script: string;
  /** The page styles (report/html-assets/*.css, concatenated). */
  styles: string;
}

/** JSON safe inside a <script> element: no `</script`, `<!--` or line separators can end or confuse it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Code inlined in a <script> element: a literal `</script` would end it early. */
const inlineCode = (code: string): string => code.replace(/<\/script/gi, '<\\/script');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);

/** Episode rows as columns, each string column an index into one table of distinct strings (about 8× smaller than objects). */
export interface PackedRows {
  length: number;
  strings: string[];
  /** Columns whose values are indexes into `strings` (null stays null). */
  stringColumns: string[];
  columns: Record<string, unknown[]>;
}

/** Packs episode rows column by column (the page unpacks them with the same field names). Pure. */
export function packRows(rows: readonly EpisodeRow[]): PackedRows {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string): number => {
    let at = index.get(text);
    if (at === undefined) {
      at = strings.push(text) - 1;
      index.set(text, at);
    }
    return at;
  };
  const fields = rows.length > 0 ? (Object.keys(rows[0] as object) as (keyof EpisodeRow)[]) : [];
  const stringColumns = fields.filter((field) => rows.some((row) => typeof row[field] === 'string'));
  const columns: Record<string, unknown[]> = {};
  for (const field of fields) {
    const isString = stringColumns.includes(field);
    columns[field] = rows.map((row) => (isString && typeof row[field] === 'string' ? intern(row[field] as string) : row[field]));
  }
  return { length: rows.length, strings, stringColumns, columns };
}

/** A run report's data as the page reads it: rows packed, details moved out (they are inlined after the page script). */
export function pageData(data: ReportData): { page: Omit<ReportData, 'episodes' | 'details'> & { episodes: PackedRows }; details: string[] } {
  const { episodes, details, ...rest } = data;
  return { page: { ...rest, episodes: packRows(episodes) }, details };
}

/**
 * The report as one HTML document (no external URL anywhere: it works offline and as a CI artifact). `kind` tells the
 * page script which view to build: a run report or a comparison of two runs. `details` (the compressed episode
 * details) come after the page script, so the page is interactive while the browser is still reading them. Pure.
 */
export function renderHtmlPage(data: unknown, details: unknown, title: string, assets: HtmlAssets, kind: 'run' | 'compare' = 'run'): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may load from anywhere: inline scripts and styles, data: images only.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${assets.styles}</style>`,
    '</head>',
    `<body data-kind="${kind}">`,
    '<div id="app"><p class="loading">Loading the report…</p></div>',
    `<script type="application/json" id="report-data">${scriptJson(data)}</script>`,
    `<script>${inlineCode(assets.d3)}</script>`,
    `<script>${inlineCode(assets.plot)}</script>`,
    `<script>${inlineCode(assets.script)}</script>`,
    `<script type="application/json" id="report-details">${scriptJson(details)}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The run report page (see buildReportData). */
export function renderHtmlReport(data: ReportData, assets: HtmlAssets): string {
  const { page, details } = pageData(data);
  return renderHtmlPage(page, details, data.title, assets, 'run');
}
