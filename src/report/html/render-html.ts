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
  // One pass (a 10 MB page's data is copied once, not three times).
  return escapeScript(JSON.stringify(value));
}

const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };

const escapeScript = (json: string): string => json.replace(/[<\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] as string);

/**
 * scriptJson(value) in parts (joined, the same text): objects down to `depth` levels are written member by member
 * (arrays whole: a packed column, the details), so no one string holds a large page's data (a 100k-episode run's rows
 * are ~10 MB of JSON; a compare page holds two). Pure.
 */
export function scriptJsonParts(value: unknown, depth = 5): string[] {
  const out: string[] = [];
  const walk = (item: unknown, level: number): void => {
    if (level === 0 || item === null || typeof item !== 'object' || Array.isArray(item) || typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      out.push(escapeScript(JSON.stringify(item) ?? 'null'));
      return;
    }
    out.push('{');
    let first = true;
    for (const [key, member] of Object.entries(item)) {
      if (member === undefined || typeof member === 'function') continue;
      out.push(`${first ? '' : ','}${escapeScript(JSON.stringify(key))}:`);
      first = false;
      walk(member, level - 1);
    }
    out.push('}');
  };
  walk(value, depth);
  return out;
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

/** The page's Content-Security-Policy as a file: nothing may load from anywhere (inline scripts and styles, data: images). */
export const FILE_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/** The CSP of the page `view --serve` serves: the file's, plus fetching from the serving origin (the episodes not inlined). */
export const SERVED_CSP = `${FILE_CSP}; connect-src 'self'`;

/** How a page is delivered: `served` (by `view --serve`) relaxes the CSP to connect-src 'self' and tells the page it may fetch traces. */
export interface PageDelivery {
  served?: boolean;
}

/**
 * The report as one HTML document (no external URL anywhere: it works offline and as a CI artifact). `kind` tells the
 * page script which view to build: a run report or a comparison of two runs. `details` (the compressed episode
 * details) come after the page script, so the page is interactive while the browser is still reading them. Pure.
 */
export function renderHtmlPage(
  data: unknown,
  details: unknown,
  title: string,
  assets: HtmlAssets,
  kind: 'run' | 'compare' = 'run',
  delivery: PageDelivery = {},
): string {
  return renderHtmlParts(data, details, title, assets, kind, delivery).join('');
}

/** renderHtmlPage's text in parts (joined, they are the page): a large page is written part by part, never copied whole. Pure. */
export function renderHtmlParts(
  data: unknown,
  details: unknown,
  title: string,
  assets: HtmlAssets,
  kind: 'run' | 'compare' = 'run',
  delivery: PageDelivery = {},
): string[] {
  const lines: Array<string | string[]> = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${delivery.served === true ? SERVED_CSP : FILE_CSP}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${assets.styles}</style>`,
    '</head>',
    `<body data-kind="${kind}"${delivery.served === true ? ' data-served="true"' : ''}>`,
    '<div id="app"><p class="loading">Loading the report…</p></div>',
    ['<script type="application/json" id="report-data">', ...scriptJsonParts(data), '</script>'],
    `<script>${inlineCode(assets.d3)}</script>`,
    `<script>${inlineCode(assets.plot)}</script>`,
    `<script>${inlineCode(assets.script)}</script>`,
    ['<script type="application/json" id="report-details">', ...scriptJsonParts(details), '</script>'],
    '</body>',
    '</html>',
    '',
  ];
  return lines.flatMap((line, index) => [...(Array.isArray(line) ? line : [line]), ...(index < lines.length - 1 ? ['\n'] : [])]);
}

/** The run report page (see buildReportData); `delivery.served` for the page `view --serve` serves. */
export function renderHtmlReport(data: ReportData, assets: HtmlAssets, delivery: PageDelivery = {}): string {
  return renderHtmlReportParts(data, assets, delivery).join('');
}

/** renderHtmlReport in parts (see renderHtmlParts). */
export function renderHtmlReportParts(data: ReportData, assets: HtmlAssets, delivery: PageDelivery = {}): string[] {
  const { page, details } = pageData(data);
  return renderHtmlParts(page, details, data.title, assets, 'run', delivery);
}
