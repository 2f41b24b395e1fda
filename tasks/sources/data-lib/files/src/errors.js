// The one error tally throws for bad input: it names the line and the field when there is one.

/**
 * Bad input data (a malformed CSV row, a value that does not fit its schema). `line` is 1-based in the
 * source text, `field` the column name; both are null when they do not apply.
 */
export class DataError extends Error {
  constructor(message, { line = null, field = null } = {}) {
    const where = [line === null ? null : `line ${line}`, field === null ? null : `field "${field}"`].filter(Boolean);
    super(where.length > 0 ? `${where.join(", ")}: ${message}` : message);
    this.name = "DataError";
    this.line = line;
    this.field = field;
  }
}
