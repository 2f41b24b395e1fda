// Plain-text tables for the terminal: column widths, alignment, truncation with "…", a total width limit.
const ELLIPSIS = "…";

/** `text` cut to `max` characters, the last one an ellipsis when cut. */
export function truncate(text, max) {
  const value = String(text);
  if (value.length <= max) return value;
  return max < 1 ? "" : value.slice(0, max - 1) + ELLIPSIS;
}

/** `text` padded to `width`: on the left for right-aligned columns, else on the right. */
export function pad(text, width, align = "left") {
  return align === "right" ? text.padStart(width, " ") : text.padEnd(width, " ");
}

/**
 * Renders `rows` (objects) under `columns` ({ key, header, align?: "left" | "right", min? }): a header line, a rule of
 * dashes, one line per row, columns two spaces apart, no trailing spaces. When the table is wider than `width`
 * characters, the widest column shrinks (never below its `min`, default 6) until it fits or nothing can shrink.
 */
export function renderTable(rows, columns, { width = 80 } = {}) {
  const cells = rows.map((row) => columns.map((column) => String(row[column.key] ?? "")));
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index].length)));
  const gap = 2;
  const total = () => widths.reduce((sum, value) => sum + value, 0) + gap * (widths.length - 1);
  while (total() > width) {
    const candidates = widths.map((value, index) => (value > (columns[index].min ?? 6) ? index : -1)).filter((index) => index >= 0);
    if (candidates.length === 0) break;
    const widest = candidates.reduce((best, index) => (widths[index] > widths[best] ? index : best));
    widths[widest] -= 1;
  }
  const line = (values) =>
    values
      .map((value, index) => pad(truncate(value, widths[index]), widths[index], columns[index].align))
      .join(" ".repeat(gap))
      .trimEnd();
  const rule = widths.map((value) => "-".repeat(value)).join(" ".repeat(gap));
  return [line(columns.map((column) => column.header)), rule, ...cells.map(line)].join("\n");
}
