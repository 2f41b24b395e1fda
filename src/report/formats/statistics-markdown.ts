// Markdown rendering of a run's statistics section (rates with intervals, stability, pairwise comparisons).
import { comparisonCells, COMPARISON_COLUMNS, rateCells, rateColumns, statisticsNotes } from '../statistics-table.js';
import type { RunStatistics } from '../statistics-run.js';
import { escapeMarkdownCell, markdownTable } from './markdown.js';

/** The statistics section as markdown: "### Statistics", the rate table, the pairwise table and notes. */
export function renderStatisticsMarkdown(statistics: RunStatistics): string {
  const columns = rateColumns(statistics);
  const out = [
    '### Statistics',
    '',
    markdownTable(
      columns,
      columns.map((_, index) => (index < 2 ? 'l' : 'r')),
      [...statistics.strategies, ...statistics.groups].map((row) => rateCells(row, statistics)),
    ),
  ];
  if (statistics.comparisons.length > 0) {
    out.push(
      '',
      '### Paired comparisons',
      '',
      markdownTable(COMPARISON_COLUMNS, ['l', 'l', 'r', 'r', 'l', 'r', 'r', 'r'], statistics.comparisons.map(comparisonCells)),
    );
  }
  out.push('', ...statisticsNotes(statistics).map((note) => `<sub>${escapeMarkdownCell(note)}</sub>  `));
  return `${out.join('\n')}\n`;
}
