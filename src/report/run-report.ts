// The whole report of a run (run table, statistics, and what else a run prints), shared by `run` and `report`.
import type { EpisodeLine, EpisodeRecord, RunSummary } from '../records/index.js';
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

/** How many failed and errored episodes the markdown report lists (a step summary is read on one page). */
const MARKDOWN_EPISODES = 50;

/** A cell's text for a markdown table: pipes escaped, line breaks as spaces. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');

/**
 * The same report as markdown (for a CI step summary): success per group, the costs (means per scored episode: model
 * calls, tool calls, tokens in and out, model time in ms), the failed episodes with their attribution and the errored
 * ones with their error (the first MARKDOWN_EPISODES of each, then how many more), and the statistics.
 */
export function renderRunReportMarkdown(summary: SummaryFile, header: RunHeader): string {
  const mean = (total: number, scored: number, digits = 1): string => (scored === 0 ? '–' : (total / scored).toFixed(digits));
  const rows = summary.strategies.map(
    (s) =>
      `| ${s.strategy} | ${summary.groups.map((g) => `${s.by_group[g]?.successes ?? 0}/${s.by_group[g]?.scored ?? 0}`).join(' | ')} | ${s.successes}/${s.scored} | ${s.errors} | ` +
      `${mean(s.model_calls, s.scored)} | ${mean(s.tool_calls, s.scored)} | ${mean(s.tokens_in, s.scored, 0)} | ${mean(s.tokens_out, s.scored, 0)} | ${mean(s.model_ms, s.scored, 0)} |`,
  );
  const episodes = (title: string, lines: readonly EpisodeLine[], total: number, column: string, value: (line: EpisodeLine) => string): string[] =>
    total === 0
      ? []
      : [
          '',
          `### ${title} (${total})`,
          '',
          `| strategy | task | epoch | ending | ${column} | detail |`,
          '|---|---|---:|---|---|---|',
          ...lines
            .slice(0, MARKDOWN_EPISODES)
            .map(
              (line) =>
                `| ${line.strategy} | ${cell(line.task)} | ${line.epoch} | ${line.status}/${cell(line.reason)} | ${cell(value(line))} | ${cell(line.detail ?? '')} |`,
            ),
          ...(total > Math.min(lines.length, MARKDOWN_EPISODES)
            ? ['', `… and ${total - Math.min(lines.length, MARKDOWN_EPISODES)} more (\`stratbench report DIR --wide\`)`]
            : []),
        ];
  return [
    `## stratbench run`,
    '',
    ...headerLines(header).map((line) => `${line}  `),
    '',
    `| strategy | ${summary.groups.join(' | ')} | overall | errors | model calls | tool calls | tokens in | tokens out | model ms |`,
    `|---|${summary.groups.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows,
    '',
    'Costs are means per scored episode; error episodes (infrastructure) are left out of every rate.',
    ...episodes('Failed episodes', summary.failures, summary.failures_total ?? summary.failures.length, 'attribution', (line) => line.attribution ?? ''),
    ...episodes('Errored episodes, not counted as failures', summary.errors, summary.errors_total ?? summary.errors.length, 'error', (line) =>
      line.reason.replace(/^infrastructure:/, ''),
    ),
    '',
    renderStatisticsMarkdown(summary.statistics),
  ].join('\n');
}
