// One self-contained HTML page: the report's data, its styles, d3 + Observable Plot and the page script, all inlined.
import type { ReportData } from './report-data.js';

/** The page's code and styles, read from the package by the caller (runner/html-assets.ts). */
export interface HtmlAssets {
  /** d3 7 UMD bundle (Observable Plot's dependency). */
  d3: string;
  /** Observable Plot 0.6 UMD bundle. */
  plot: string;
  /** The page script (report/html-assets/report.js). */
  script: string;
  /** The page styles (report/html-assets/report.css). */
  styles: string;
}

/** JSON safe inside a <script> element: no `</script`, `<!--` or line separators can end or confuse it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Code inlined in a <script> element: a literal `</script` would end it early. */
const inlineCode = (code: string): string => code.replace(/<\/script/gi, '<\\/script');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);

/**
 * The report as one HTML document (no external URL anywhere: it works offline and as a CI artifact). `kind` tells the
 * page script which view to build: a run report or a comparison of two runs. Pure.
 */
export function renderHtmlPage(data: unknown, title: string, assets: HtmlAssets, kind: 'run' | 'compare' = 'run'): string {
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
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The run report page (see buildReportData). */
export function renderHtmlReport(data: ReportData, assets: HtmlAssets): string {
  return renderHtmlPage(data, data.title, assets, 'run');
}
