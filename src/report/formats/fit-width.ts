// Fitting text tables and lines into a terminal width: columns dropped in a given order, long lines wrapped or cut.
import Table from 'cli-table3';

/** The default width of the run report (`--wide` lifts it). */
export const DEFAULT_REPORT_WIDTH = 120;

export interface FitTableOptions {
  /** cli-table3 style (empty head/border for no colour). */
  style: Record<string, unknown>;
  /** Widest a table line may be; undefined = no limit. */
  maxWidth?: number;
  /** Column indices to drop, first to last, while the table is wider than maxWidth. */
  dropOrder?: readonly number[];
  /** Told the heading of each column dropped to fit, in drop order. */
  onDrop?: (heading: string) => void;
}

const visibleWidth = (line: string): number => line.replace(/\u001b\[[0-9;]*m/g, '').length;

/** Widest line of `text`, ANSI colour codes not counted. */
export function textWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map(visibleWidth));
}

/** A cli-table3 table of `head` and `rows`, with columns of `dropOrder` left out until it fits `maxWidth`. */
export function fitTable(head: readonly string[], rows: readonly string[][], options: FitTableOptions): string {
  const render = (keep: readonly number[]): string => {
    const table = new Table({ head: keep.map((index) => head[index] as string), style: options.style });
    table.push(...rows.map((row) => keep.map((index) => row[index] ?? '')));
    return table.toString();
  };
  let keep = head.map((_, index) => index);
  let text = render(keep);
  for (const drop of options.dropOrder ?? []) {
    if (options.maxWidth === undefined || textWidth(text) <= options.maxWidth) break;
    keep = keep.filter((index) => index !== drop);
    options.onDrop?.(head[drop] as string);
    text = render(keep);
  }
  return text;
}

/** `line` cut to `maxWidth` characters with "…" (unchanged when it fits or maxWidth is undefined). */
export function cutLine(line: string, maxWidth: number | undefined): string {
  return maxWidth === undefined || line.length <= maxWidth ? line : `${line.slice(0, maxWidth - 1)}…`;
}

/** `text` wrapped at spaces to lines of at most `maxWidth` (its own leading spaces kept; continuation lines indented by `indent`). */
export function wrapLine(text: string, maxWidth: number | undefined, indent = '  '): string[] {
  if (maxWidth === undefined || text.length <= maxWidth) return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let current = '';
  for (const word of text.slice(lead.length).split(' ')) {
    const candidate = current === '' ? `${lead}${word}` : `${current} ${word}`;
    if (candidate.length > maxWidth && current.trim() !== '') {
      lines.push(current);
      current = `${indent}${word}`;
    } else current = candidate;
  }
  if (current !== '') lines.push(current);
  return lines.map((line) => cutLine(line, maxWidth));
}
