// Owns ESLint's "stylish" text format (eslint 9's formatters/stylish.js without a colour terminal).
import type { LintMessage } from './load-eslint.js';

/** One linted file as ESLint reports it (`filePath` absolute, counts over `messages`). */
export interface LintResult {
  filePath: string;
  messages: LintMessage[];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  /** The fixed source, when `--fix` changed the file. */
  output?: string;
}

const pluralize = (word: string, count: number): string => (count === 1 ? word : `${word}s`);

/**
 * Renders results as `eslint --format stylish` prints them when stdout is not a terminal: files sorted by path
 * (as ESLint's formatter wrapper sorts them, by UTF-16 code units), and for each file with messages a blank line, the path, then `line:column  error|warning  message  ruleId` rows aligned as text-table
 * aligns them (line right-aligned, column left-aligned, two spaces between columns, trailing spaces trimmed, a
 * final `.` of the message dropped); then `✖ N problems (E errors, W warnings)` and, when some are fixable,
 * `  E errors and W warnings potentially fixable with the `--fix` option.` Returns `''` when there is no message.
 * The text ends with a newline (ESLint's console.log adds a second one).
 */
export function formatStylish(results: readonly LintResult[]): string {
  let output = '\n';
  let errorCount = 0;
  let warningCount = 0;
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  const sorted = [...results].sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  for (const result of sorted) {
    if (result.messages.length === 0) continue;
    errorCount += result.errorCount;
    warningCount += result.warningCount;
    fixableErrorCount += result.fixableErrorCount;
    fixableWarningCount += result.fixableWarningCount;
    const rows = result.messages.map((message) => [
      '',
      String(message.line || 0),
      String(message.column || 0),
      message.fatal || message.severity === 2 ? 'error' : 'warning',
      message.message.replace(/([^ ])\.$/u, '$1'),
      message.ruleId || '',
    ]);
    const table = alignTable(rows, ['', 'r', 'l'])
      .split('\n')
      .map((line) => line.replace(/(\d+)\s+(\d+)/u, '$1:$2'))
      .join('\n');
    output += `${result.filePath}\n${table}\n\n`;
  }
  const total = errorCount + warningCount;
  if (total === 0) return '';
  output += `\u2716 ${total}${pluralize(' problem', total)} (${errorCount}${pluralize(' error', errorCount)}, ${warningCount}${pluralize(' warning', warningCount)})\n`;
  if (fixableErrorCount > 0 || fixableWarningCount > 0) {
    output +=
      `  ${fixableErrorCount}${pluralize(' error', fixableErrorCount)} and ${fixableWarningCount}${pluralize(' warning', fixableWarningCount)}` +
      ' potentially fixable with the `--fix` option.\n';
  }
  return output;
}

/** ESLint's text-table: columns padded to their widest cell (`r` right-aligns), joined by two spaces, end trimmed. */
function alignTable(rows: ReadonlyArray<readonly string[]>, align: readonly string[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, index) => {
          const padding = ' '.repeat(Math.max((widths[index] ?? 0) - cell.length, 0));
          return align[index] === 'r' ? padding + cell : cell + padding;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
