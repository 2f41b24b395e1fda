// Renders a run summary as the comparison table (cli-table3) plus one line per failed or errored episode.
import Table from 'cli-table3';
import type { RunSummary, Tally } from '../records/index.js';
import { renderAttributionTable } from './attribution-table.js';

export interface RunTableOptions {
  /** Header lines shown above the table (models per role, notices). */
  header: string[];
  color: boolean;
}

const rate = (tally: Tally | undefined): string => {
  if (!tally || tally.episodes === 0) return '-';
  const base = `${tally.successes}/${tally.scored}`;
  return tally.errors > 0 ? `${base} (+${tally.errors} err)` : base;
};

const mean = (total: number, n: number, digits = 1): string => (n === 0 ? '-' : (total / n).toFixed(digits));

/** The run table: success per strategy × group and overall, then mean costs per scored episode. */
export function renderRunTable(summary: RunSummary, options: RunTableOptions): string {
  const style = options.color ? {} : { head: [], border: [] };
  const table = new Table({
    head: ['strategy', ...summary.groups, 'overall', 'model calls', 'tool calls', 'tool time (s)', 'replans', 'errors'],
    style,
  });
  for (const s of summary.strategies) {
    table.push([
      s.strategy,
      ...summary.groups.map((group) => rate(s.by_group[group])),
      rate(s),
      mean(s.model_calls, s.scored),
      mean(s.tool_calls, s.scored),
      mean(s.tool_ms / 1000, s.scored),
      mean(s.replans, s.scored, 2),
      String(s.errors),
    ]);
  }
  const lines = [...options.header, table.toString(), 'success = ending matches expect and every check passes; costs are means per scored episode; error episodes (infrastructure) are excluded from rates.'];
  if (summary.failures.length > 0) {
    lines.push('', `Failed episodes (${summary.failures.length}):`);
    for (const f of summary.failures) {
      lines.push(`  ${f.strategy.padEnd(18)} ${f.task.padEnd(28)} epoch ${f.epoch}  ${f.status}/${f.reason}${f.attribution ? ` [${f.attribution}]` : ''}${f.detail ? ` — ${f.detail}` : ''}`);
    }
  }
  const attribution = summary.attribution ? renderAttributionTable(summary.attribution, { color: options.color }) : '';
  if (attribution !== '') lines.push('', attribution);
  if (summary.errors.length > 0) {
    lines.push('', `Errored episodes, not counted as failures (${summary.errors.length}):`);
    for (const e of summary.errors) lines.push(`  ${e.strategy.padEnd(18)} ${e.task.padEnd(28)} epoch ${e.epoch}  ${e.reason}${e.detail ? ` — ${e.detail}` : ''}`);
  }
  return lines.join('\n');
}
