// The whole report of a run (run table, statistics, and what else a run prints), shared by `run` and `report`.
import type { EpisodeRecord, RunSummary } from '../records/index.js';
import { SummaryBuilder } from './run-summary.js';
import { computeRunStatistics, renderStatisticsMarkdown, renderStatisticsText, type RunStatistics } from './statistics.js';
import { renderRunTable } from './run-table.js';
import { DEFAULT_REPORT_WIDTH } from './formats/fit-width.js';

/** What run.json says about the run, as far as the report needs it. */
export interface RunHeader {
  suiteName?: string;
  tasks?: number;
  strategies: string[];
  epochs?: number;
  models: Record<string, string>;
  notes: string[];
  /** How much of the matrix the folder holds when not all of it (RunCompleteness.label), printed under the title. */
  completeness?: string | null;
}

/** summary.json: the run summary plus the statistics section. */
export type SummaryFile = RunSummary & { statistics: RunStatistics };

/**
 * The summary of the records a builder was given plus the statistics (intervals, pass@k/pass^k, paired tests;
 * seeded bootstrap; only `pairs` when given), read from the builder's result columns.
 */
export function withStatistics(builder: SummaryBuilder, seed: number, pairs?: readonly (readonly [string, string])[]): SummaryFile {
  return { ...builder.build(), statistics: computeRunStatistics(builder.columns(), { seed, ...(pairs ? { pairs } : {}) }) };
}

/** The summary with statistics of finished records (for `report` and `merge` of records in memory). */
export function summaryFromRecords(records: Iterable<EpisodeRecord>, groups: string[], strategies: string[], seed: number): SummaryFile {
  const builder = new SummaryBuilder(groups, strategies);
  for (const record of records) builder.add(record);
  return withStatistics(builder, seed);
}

export function headerLines(header: RunHeader): string[] {
  const size = header.tasks === undefined ? '' : ` (${header.tasks} tasks)`;
  return [
    `stratbench — suite ${header.suiteName ?? '?'}${size} × ${header.strategies.length} strategies × ${header.epochs ?? '?'} epoch(s)`,
    ...(header.completeness ? [header.completeness] : []),
    `models: ${Object.entries(header.models)
      .map(([role, name]) => `${role}=${name}`)
      .join(' ')}`,
    ...header.notes.map((note) => `note: ${note}`),
  ];
}

/**
 * The text report: run table, failed/errored episodes, statistics. Fits DEFAULT_REPORT_WIDTH (120) columns unless
 * `wide`: cost columns and per-group statistics rows are dropped, long lines wrapped or cut, at most 20 episodes listed.
 */
export function renderRunReport(summary: SummaryFile, header: RunHeader, color: boolean, options: { wide?: boolean } = {}): string {
  const limit = options.wide === true ? {} : { maxWidth: DEFAULT_REPORT_WIDTH };
  return [renderRunTable(summary, { header: headerLines(header), color, ...limit }), '', renderStatisticsText(summary.statistics, { color, ...limit })].join(
    '\n',
  );
}

/** The same report as markdown (for a CI step summary). */
export function renderRunReportMarkdown(summary: SummaryFile, header: RunHeader): string {
  const rows = summary.strategies.map(
    (s) =>
      `| ${s.strategy} | ${summary.groups.map((g) => `${s.by_group[g]?.successes ?? 0}/${s.by_group[g]?.scored ?? 0}`).join(' | ')} | ${s.successes}/${s.scored} | ${s.errors} |`,
  );
  return [
    `## stratbench run`,
    '',
    ...headerLines(header).map((line) => `${line}  `),
    '',
    `| strategy | ${summary.groups.join(' | ')} | overall | errors |`,
    `|---|${summary.groups.map(() => '---:').join('|')}|---:|---:|`,
    ...rows,
    '',
    renderStatisticsMarkdown(summary.statistics),
  ].join('\n');
}
