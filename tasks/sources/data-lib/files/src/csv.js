// CSV text to records and back (RFC 4180): quoted fields, doubled quotes, CRLF or LF line ends, any delimiter.
import { DataError } from "./errors.js";

const BOM = "\uFEFF";

/** The raw rows of `text`: `{ fields: string[], line }`, `line` being where the row starts (1-based). */
function readRows(text, delimiter) {
  const rows = [];
  let fields = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === "\n") line += 1;
        field += char;
      }
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === delimiter) {
      fields.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      fields.push(field);
      rows.push({ fields, line: rowLine });
      fields = [];
      field = "";
      if (char === "\r" && text[index + 1] === "\n") index += 1;
      line += 1;
      rowLine = line;
    } else {
      field += char;
    }
    index += 1;
  }
  if (quoted) throw new DataError("unterminated quoted field", { line: rowLine });
  if (field !== "" || fields.length > 0) {
    fields.push(field);
    rows.push({ fields, line: rowLine });
  }
  return rows;
}

const isBlank = (row) => row.fields.length === 1 && row.fields[0].trim() === "";

/**
 * Parses CSV text. With `header` (default true) the first non-blank row names the fields and the result is one
 * record (`{ name: string }`) per row; without it, arrays of strings. Blank lines are skipped unless
 * `skipBlankLines` is false; a leading byte-order mark is ignored. Options: `delimiter` (default ",").
 * @throws DataError for a bad delimiter, an unterminated quoted field, a duplicate or empty header name, or a row
 * whose field count differs from the header's (the message names the line).
 */
export function parseCsv(text, { delimiter = ",", header = true, skipBlankLines = true } = {}) {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new DataError(`delimiter must be one character other than a quote or a line break, got ${JSON.stringify(delimiter)}`);
  }
  const source = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  const rows = readRows(source, delimiter).filter((row) => !skipBlankLines || !isBlank(row));
  if (!header) return rows.map((row) => row.fields);
  if (rows.length === 0) return [];
  const [head, ...body] = rows;
  const names = head.fields.map((name) => name.trim());
  names.forEach((name, column) => {
    if (name === "") throw new DataError(`header column ${column + 1} has no name`, { line: head.line });
    if (names.indexOf(name) !== column) throw new DataError(`duplicate header "${name}"`, { line: head.line });
  });
  return body.map((row) => {
    if (row.fields.length !== names.length) {
      throw new DataError(`expected ${names.length} fields, found ${row.fields.length}`, { line: row.line });
    }
    return Object.fromEntries(names.map((name, column) => [name, row.fields[column]]));
  });
}

/** One field as CSV: quoted when it holds the delimiter, a quote, a line break or edge spaces. */
export function formatField(value, delimiter = ",") {
  const text = value === null || value === undefined ? "" : String(value);
  const needsQuotes = text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Records to CSV text: a header row of `columns` (default: the keys of the first record), one line per record,
 * lines ended by `eol` (default "\n", also after the last line). Missing values are empty fields.
 */
export function formatCsv(records, { columns = Object.keys(records[0] ?? {}), delimiter = ",", eol = "\n" } = {}) {
  const lines = [columns.map((column) => formatField(column, delimiter)).join(delimiter)];
  for (const record of records) lines.push(columns.map((column) => formatField(record[column], delimiter)).join(delimiter));
  return lines.join(eol) + eol;
}
