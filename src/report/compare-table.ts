// Plain-text rendering of a comparison report: cli-table3 tables for strategies, groups and flipped tasks.
import type { ComparisonReport } from './compare-report.js';
import { configurationLines, decisionLines, describeFolder, groupedReasons, methodNotes, STRATEGY_COLUMNS, strategyCells } from './formats/compare-lines.js';
import { fitTable, wrapLine } from './formats/fit-width.js';
import { formatChange, formatPercent, formatPValue, formatTaskSide, formatTestMethod } from './formats/numbers.js';

export interface TextOptions {
  /** Colour table headers and borders (only for a TTY). */
  color: boolean;
  /**
   * Widest line (characters); undefined = no limit (`--wide`). To fit it the per-strategy table leaves out MDE, Tasks,
   * the Holm-adjusted p (the gate reads the raw p) and, last, the raw p (each regression's reason line gives it),
   * naming them under the table; prose lines are wrapped.
   */
  maxWidth?: number;
}

/**
 * A table fitted to `options.maxWidth` by leaving out the columns headed `drop`, in that order, then a line naming
 * those left out (ending with `also`: where else they are). Required columns stay: long task ids can still be wider.
 */
function table(head: string[], rows: string[][], options: TextOptions, drop: readonly string[] = [], also = ''): string[] {
  const dropped: string[] = [];
  const text = fitTable(head, rows, {
    style: options.color ? {} : { head: [], border: [] },
    ...(options.maxWidth === undefined ? {} : { maxWidth: options.maxWidth }),
    dropOrder: drop.map((heading) => head.indexOf(heading)),
    onDrop: (heading) => dropped.push(heading),
  });
  return dropped.length > 0 ? [text, `  (left out to fit ${options.maxWidth} columns: ${dropped.join(', ')}; --wide shows them${also})`] : [text];
}

/**
 * The per-strategy table's lines, then a line naming the test when every strategy had the same one (it is a column
 * otherwise), then one naming the columns left out to fit `options.maxWidth` (at 10 columns the table was 173 wide).
 */
function strategyTable(report: ComparisonReport, options: TextOptions): string[] {
  const tests = new Set(report.strategies.map((entry) => formatTestMethod(entry.change)));
  const oneTest = tests.size === 1 ? [...tests][0] : undefined;
  const keep = STRATEGY_COLUMNS.map((_, index) => index).filter((index) => oneTest === undefined || STRATEGY_COLUMNS[index] !== 'Test');
  const [text, ...left] = table(
    keep.map((index) => STRATEGY_COLUMNS[index] as string),
    report.strategies.map((entry) => {
      const cells = strategyCells(entry);
      return keep.map((index) => cells[index] as string);
    }),
    options,
    // p last: the Verdict column says what it decided (six strategies, one named plan-replan-lookup, were 122 wide).
    ['MDE', 'Tasks', 'p (Holm)', 'p'],
    ', as do --json and --markdown',
  );
  return [text as string, ...(oneTest !== undefined && report.strategies.length > 0 ? [`  test: ${oneTest}, for every strategy`] : []), ...left];
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
  // A regression's reasons stay one whole line per strategy, with its p (grepped in CI logs; the table may have left
  // p out); an inconclusive verdict's reasons, often the same sentence for each strategy, are grouped and wrapped.
  if (report.decision.verdict === 'inconclusive') {
    for (const reason of groupedReasons(report, decision.reasons)) out.push(...wrap(`  - ${reason}`, '    '));
  } else for (const reason of decision.reasons) out.push(`  - ${reason}`);
  for (const warning of report.decision.warnings) out.push(`  warning: ${warning}`);
  out.push('');
  for (const note of methodNotes(report)) out.push(...wrap(note, '  '));
  return `${out.join('\n')}\n`;
}
