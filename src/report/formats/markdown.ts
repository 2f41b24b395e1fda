// Markdown rendering of a comparison report, for a CI step summary ($GITHUB_STEP_SUMMARY) or a pull-request comment.
import type { ComparisonReport } from '../compare-report.js';
import { configurationLines, decisionLines, describeFolder, methodNotes, strategyCells } from './compare-lines.js';
import { formatChange, formatPercent, formatPValue, formatTaskSide } from './numbers.js';

/** Escapes text for a GitHub-flavoured markdown table cell: pipes, backslashes, newlines, and inline HTML. */
export function escapeMarkdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, ' ');
}

/** A GitHub-flavoured markdown table; `align` per column: 'l' or 'r'. */
export function markdownTable(head: string[], align: ('l' | 'r')[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  const rule = `| ${head.map((_, index) => (align[index] === 'r' ? '---:' : '---')).join(' | ')} |`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/**
 * The comparison as markdown: a headline with the decision, the folders, configuration differences, per-strategy and
 * per-group tables, flipped tasks and the method notes. Ends with a newline.
 */
export function renderMarkdown(report: ComparisonReport): string {
  const decision = decisionLines(report);
  const out: string[] = [];
  const headline = { regressed: '**REGRESSION**', inconclusive: '**INCONCLUSIVE**', 'no regression': 'no significant regression' }[report.decision.verdict];
  out.push(`## stratbench compare: ${headline}`, '');
  for (const reason of decision.reasons) out.push(`- ${escapeMarkdownCell(reason)}`);
  if (decision.reasons.length > 0) out.push('');
  for (const warning of report.decision.warnings) out.push(`> **Warning:** ${escapeMarkdownCell(warning)}`, '');
  out.push(`- **base** ${escapeMarkdownCell(describeFolder(report.base))}`);
  out.push(`- **head** ${escapeMarkdownCell(describeFolder(report.head))}`);
  for (const line of configurationLines(report)) out.push(`- ${escapeMarkdownCell(line)}`);
  out.push('', '### Per strategy', '');
  out.push(
    markdownTable(
      ['Strategy', 'Tasks', 'Base', 'Head', 'Change (head − base)', 'Test', 'p', 'p (Holm)', 'MDE', 'Verdict'],
      ['l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'l'],
      report.strategies.map(strategyCells),
    ),
  );
  if (report.groups.length > 0) {
    out.push('', '### Per group', '');
    out.push(
      markdownTable(
        ['Strategy', 'Group', 'Tasks', 'Base', 'Head', 'Change (head − base)', 'p'],
        ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
        report.groups.map((entry) => [
          entry.strategy,
          entry.group,
          String(entry.change.tasks),
          formatPercent(entry.change.firstRate),
          formatPercent(entry.change.secondRate),
          formatChange(entry.change.difference),
          formatPValue(entry.change.test.pValue),
        ]),
      ),
    );
  }
  const flips = report.tasks.filter((task) => task.flip !== null);
  out.push('', '### Flipped tasks', '');
  if (flips.length === 0) out.push('None.');
  else {
    out.push(
      markdownTable(
        ['Strategy', 'Task', 'Group', 'Base', 'Head', 'Flip'],
        ['l', 'l', 'l', 'l', 'l', 'l'],
        flips.map((task) => [
          task.strategy,
          task.task,
          task.group,
          formatTaskSide(task.base),
          formatTaskSide(task.head),
          task.gating ? `${task.flip} (gating)` : (task.flip as string),
        ]),
      ),
    );
  }
  out.push('', ...methodNotes(report).map((note) => `<sub>${escapeMarkdownCell(note)}</sub>  `));
  return `${out.join('\n')}\n`;
}
