// Plain-text rendering of a comparison report: cli-table3 tables for strategies, groups and flipped tasks.
import type { ComparisonReport } from './compare-report.js';
import { configurationLines, decisionLines, describeFolder, methodNotes } from './formats/compare-lines.js';
import { fitTable, wrapLine } from './formats/fit-width.js';
import { formatChange, formatMinimumDetectableEffect, formatPercent, formatPValue, formatRate, formatTaskSide, formatTestMethod } from './formats/numbers.js';

export interface TextOptions {
  /** Colour table headers and borders (only for a TTY). */
  color: boolean;
  /**
   * Widest line (characters); undefined = no limit (`--wide`). To fit it the per-strategy table leaves out MDE, Tasks
   * and then the Holm-adjusted p (the gate reads the raw p), naming them under the table; prose lines are wrapped.
   */
  maxWidth?: number;
}

/**
 * A table fitted to `options.maxWidth` by leaving out the columns headed `drop`, in that order, then a line naming
 * those left out. Required columns stay: a table of long task ids can still be wider.
 */
function table(head: string[], rows: string[][], options: TextOptions, drop: readonly string[] = []): string[] {
  const dropped: string[] = [];
  const text = fitTable(head, rows, {
    style: options.color ? {} : { head: [], border: [] },
    ...(options.maxWidth === undefined ? {} : { maxWidth: options.maxWidth }),
    dropOrder: drop.map((heading) => head.indexOf(heading)),
    onDrop: (heading) => dropped.push(heading),
  });
  return dropped.length > 0 ? [text, `  (left out to fit ${options.maxWidth} columns: ${dropped.join(', ')}; --wide shows them)`] : [text];
}

/**
 * The per-strategy table's lines, then a line naming the test when every strategy had the same one (it is a column
 * otherwise), then one naming the columns left out to fit `options.maxWidth` (at 10 columns the table was 173 wide).
 */
function strategyTable(report: ComparisonReport, options: TextOptions): string[] {
  const tests = new Set(report.strategies.map((entry) => formatTestMethod(entry.change)));
  const oneTest = tests.size === 1 ? [...tests][0] : undefined;
  const head = ['Strategy', 'Tasks', 'Base', 'Head', 'Change', 'Test', 'p', 'p (Holm)', 'MDE', 'Verdict'];
  const rows = report.strategies.map((entry) => [
    entry.strategy,
    String(entry.change.tasks),
    formatRate(entry.base.successRate),
    formatRate(entry.head.successRate),
    formatChange(entry.change.difference),
    formatTestMethod(entry.change),
    formatPValue(entry.change.test.pValue),
    formatPValue(entry.change.adjustedPValue),
    formatMinimumDetectableEffect(entry.change),
    entry.verdict,
  ]);
  const keep = head.map((_, index) => index).filter((index) => oneTest === undefined || head[index] !== 'Test');
  const dropped: string[] = [];
  const text = fitTable(
    keep.map((index) => head[index] as string),
    rows.map((row) => keep.map((index) => row[index] as string)),
    {
      style: options.color ? {} : { head: [], border: [] },
      ...(options.maxWidth === undefined ? {} : { maxWidth: options.maxWidth }),
      dropOrder: ['MDE', 'Tasks', 'p (Holm)'].map((heading) => keep.findIndex((index) => head[index] === heading)),
      onDrop: (heading) => dropped.push(heading),
    },
  );
  const lines = [text];
  if (oneTest !== undefined && rows.length > 0) lines.push(`  test: ${oneTest}, for every strategy`);
  if (dropped.length > 0) lines.push(`  (left out to fit ${options.maxWidth} columns: ${dropped.join(', ')}; --wide shows them, as do --json and --markdown)`);
  return lines;
}

/**
 * The comparison as text for a terminal or a CI log: folders, configuration differences, a per-strategy table
 * (rates on shared tasks with intervals, change, p, Holm p, MDE, verdict), a per-group table, the flipped tasks and
 * the decision. Lines end with "\n".
 */
export function renderCompareText(report: ComparisonReport, options: TextOptions): string {
  const out: string[] = [];
  // The method notes are wrapped at spaces to the width of the tables, continuations indented.
  out.push('stratbench compare');
  const wrap = (line: string, indent: string): string[] => wrapLine(line, options.maxWidth, indent);
  // Folder, configuration and decision lines stay whole: CI logs are grepped for them.
  out.push(`  base  ${describeFolder(report.base)}`);
  out.push(`  head  ${describeFolder(report.head)}`);
  out.push('', 'Configuration');
  for (const line of configurationLines(report)) out.push(`  ${line}`);
  out.push('', 'Per strategy (shared tasks; change = head − base)');
  out.push(...strategyTable(report, options));
  if (report.groups.length > 0) {
    out.push('', 'Per group');
    out.push(
      ...table(
        ['Strategy', 'Group', 'Tasks', 'Base', 'Head', 'Change', 'p'],
        report.groups.map((entry) => [
          entry.strategy,
          entry.group,
          String(entry.change.tasks),
          formatPercent(entry.change.firstRate),
          formatPercent(entry.change.secondRate),
          formatChange(entry.change.difference),
          formatPValue(entry.change.test.pValue),
        ]),
        options,
        ['Tasks'],
      ),
    );
  }
  const flips = report.tasks.filter((task) => task.flip !== null);
  out.push('', flips.length > 0 ? 'Flipped tasks' : 'Flipped tasks: none');
  if (flips.length > 0) {
    out.push(
      ...table(
        ['Strategy', 'Task', 'Group', 'Base', 'Head', 'Flip'],
        flips.map((task) => [
          task.strategy,
          task.task,
          task.group,
          formatTaskSide(task.base),
          formatTaskSide(task.head),
          task.gating ? `${task.flip} (gating)` : (task.flip as string),
        ]),
        options,
        ['Group'],
      ),
    );
  }
  const decision = decisionLines(report);
  out.push('', `Decision: ${decision.headline}`);
  for (const reason of decision.reasons) out.push(`  - ${reason}`);
  for (const warning of report.decision.warnings) out.push(`  warning: ${warning}`);
  out.push('');
  for (const note of methodNotes(report)) out.push(...wrap(note, '  '));
  return `${out.join('\n')}\n`;
}
