// Renders a run summary as the comparison table (cli-table3) plus one line per failed or errored episode.
import type { RunSummary, Tally } from '../records/index.js';
import { renderAttributionTable } from './attribution-table.js';
import { renderCostsOnSuccesses, renderCounterfactualSummary } from './findings-table.js';
import { cutLine, fitTable, wrapLine } from './formats/fit-width.js';

export interface RunTableOptions {
  /** Header lines shown above the table (models per role, notices). */
  header: string[];
  color: boolean;
  /**
   * Widest line (characters); undefined = no limit (`--wide`). Within it the cost columns are dropped from the right
   * as needed, episode lines are cut, and at most MAX_LISTED_EPISODES failed or errored episodes are listed.
   */
  maxWidth?: number;
}

/** Failed (and errored) episodes listed one per line in a width-limited report; the rest are counted. */
export const MAX_LISTED_EPISODES = 20;

const rate = (tally: Tally | undefined): string => {
  if (!tally || tally.episodes === 0) return '-';
  const base = `${tally.successes}/${tally.scored}`;
  return tally.errors > 0 ? `${base} (+${tally.errors} err)` : base;
};

const mean = (total: number, n: number, digits = 1): string => (n === 0 ? '-' : (total / n).toFixed(digits));

/** The run table: success per strategy × group and overall, then mean costs per scored episode. */
export function renderRunTable(summary: RunSummary, options: RunTableOptions): string {
  const style = options.color ? {} : { head: [], border: [] };
  const head = ['strategy', ...summary.groups, 'overall', 'errors', 'model calls', 'tool calls', 'replans', 'tool time (s)'];
  const rows = summary.strategies.map((s) => [
    s.strategy,
    ...summary.groups.map((group) => rate(s.by_group[group])),
    rate(s),
    String(s.errors),
    mean(s.model_calls, s.scored),
    mean(s.tool_calls, s.scored),
    mean(s.replans, s.scored, 2),
    mean(s.tool_ms / 1000, s.scored),
  ]);
  const last = head.length - 1;
  const table = fitTable(head, rows, {
    style,
    ...(options.maxWidth === undefined ? {} : { maxWidth: options.maxWidth }),
    dropOrder: [last, last - 1, last - 2, last - 3],
  });
  const width = options.maxWidth;
  const listed = <T>(items: readonly T[]): T[] => (width === undefined ? [...items] : items.slice(0, MAX_LISTED_EPISODES));
  // summary.json keeps the first SUMMARY_LISTED_EPISODES of each list and the total; --wide lists what it keeps.
  const more = (total: number, kept: number): string[] => {
    const shown = width === undefined ? kept : Math.min(kept, MAX_LISTED_EPISODES);
    if (total <= shown) return [];
    return [
      shown < kept
        ? `  … and ${total - shown} more (--wide lists ${kept === total ? 'them all' : `the first ${kept}`})`
        : `  … and ${total - shown} more (the first ${kept} are listed; every episode is in episodes.jsonl)`,
    ];
  };
  const failuresTotal = summary.failures_total ?? summary.failures.length;
  const errorsTotal = summary.errors_total ?? summary.errors.length;
  const lines = [
    ...options.header.flatMap((line) => wrapLine(line, width)),
    table,
    ...wrapLine(
      'success = ending matches expect and every check passes; costs are means per scored episode; error episodes (infrastructure) are excluded from rates.',
      width,
    ),
  ];
  if (failuresTotal > 0) {
    lines.push('', `Failed episodes (${failuresTotal}):`);
    const failures = listed(summary.failures);
    const taskWidth = columnWidth(failures.map((f) => f.task));
    for (const f of failures) {
      lines.push(
        cutLine(
          `  ${f.strategy.padEnd(18)} ${f.task.padEnd(taskWidth)} epoch ${f.epoch}  ${f.status}/${f.reason}${f.attribution ? ` [${f.attribution}]` : ''}${f.detail ? ` — ${f.detail}` : ''}`,
          width,
        ),
      );
    }
    lines.push(...more(failuresTotal, summary.failures.length));
  }
  const attribution = summary.attribution ? renderAttributionTable(summary.attribution, { color: options.color }) : '';
  if (attribution !== '') lines.push('', attribution);
  for (const section of [renderCostsOnSuccesses(summary.findings), renderCounterfactualSummary(summary.counterfactual)])
    if (section !== '') lines.push('', section);
  if (errorsTotal > 0) {
    lines.push('', `Errored episodes, not counted as failures (${errorsTotal}):`);
    // Wrapped, not cut: the server's message is what says what to fix.
    const errors = listed(summary.errors);
    const errorTaskWidth = columnWidth(errors.map((e) => e.task));
    for (const e of errors)
      lines.push(
        ...wrapLine(
          `  ${e.strategy.padEnd(18)} ${e.task.padEnd(errorTaskWidth)} epoch ${e.epoch}  ${e.reason}${e.detail ? ` — ${e.detail}` : ''}`,
          width,
          '      ',
        ),
      );
    lines.push(...more(errorsTotal, summary.errors.length));
  }
  return lines.join('\n');
}

/** The task column of an episode list: as wide as its longest id (generated suites have ids of 40+ characters), at least 28. */
function columnWidth(ids: readonly string[]): number {
  let width = 28;
  for (const id of ids) width = Math.max(width, id.length);
  return width;
}
