// Schema coercion: the string fields of parsed CSV records become numbers, integers, booleans, dates and enums.
import { parseDate } from "./dates.js";
import { DataError } from "./errors.js";

const TRUE_WORDS = ["true", "yes", "y", "1"];
const FALSE_WORDS = ["false", "no", "n", "0"];
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A decimal number written with `decimal` ("." or ",") as the decimal mark; thousands separators (the other
 * mark, spaces and apostrophes) are ignored: parseNumber("1,234.50") = 1234.5, parseNumber("1.234,5", ",") = 1234.5.
 * Returns null when the text is not a number.
 */
export function parseNumber(text, decimal = ".") {
  const thousands = decimal === "." ? "," : ".";
  const plain = text.trim().replaceAll(thousands, "").replace(/[\s']/g, "");
  const normal = decimal === "," ? plain.replace(",", ".") : plain;
  return NUMBER.test(normal) ? Number(normal) : null;
}

/** Checks a coerced number against the rule's inclusive `min` and `max`; returns the error message or null. */
function outOfRange(value, rule) {
  if (rule.min !== undefined && value < rule.min) return `${value} is below the minimum ${rule.min}`;
  if (rule.max !== undefined && value > rule.max) return `${value} is above the maximum ${rule.max}`;
  return null;
}

/** The coerced value of `raw` under `rule`, or `{ error }`. An empty field takes the rule's default. */
function coerce(raw, rule, decimal) {
  const text = raw === undefined || raw === null ? "" : String(raw).trim();
  if (text === "") {
    if (rule.default !== undefined) return { value: rule.default };
    return rule.required ? { error: "is required" } : { value: null };
  }
  switch (rule.type) {
    case "string":
      return rule.maxLength !== undefined && text.length > rule.maxLength ? { error: `is longer than ${rule.maxLength} characters` } : { value: text };
    case "number":
    case "integer": {
      const value = parseNumber(text, decimal);
      if (value === null) return { error: `"${text}" is not a number` };
      if (rule.type === "integer" && !Number.isInteger(value)) return { error: `"${text}" is not a whole number` };
      const range = outOfRange(value, rule);
      return range === null ? { value } : { error: range };
    }
    case "boolean": {
      const word = text.toLowerCase();
      if (TRUE_WORDS.includes(word)) return { value: true };
      return FALSE_WORDS.includes(word) ? { value: false } : { error: `"${text}" is not a yes/no value` };
    }
    case "date": {
      const value = parseDate(text);
      return value === null ? { error: `"${text}" is not a date (YYYY-MM-DD)` } : { value };
    }
    case "enum":
      return rule.values.includes(text) ? { value: text } : { error: `"${text}" is not one of ${rule.values.join(", ")}` };
    default:
      throw new DataError(`unknown type "${rule.type}"`);
  }
}

/**
 * Coerces records against `schema` (`{ field: { type, required, default, min, max, maxLength, values } }`; types:
 * string, number, integer, boolean, date, enum). Fields not in the schema are dropped. `decimal` is the decimal mark of
 * numbers ("." default); `firstLine` is the line of the first record in the source (default 2: after a CSV header),
 * used in errors. With `collect` true, bad records are left out and every problem is returned in `errors`; otherwise
 * the first problem is thrown.
 * @returns `{ records, errors }` where each error is a DataError with `line` and `field`.
 * @throws DataError for the first bad value (unless `collect`), or for an unknown type.
 */
export function coerceRecords(records, schema, { decimal = ".", firstLine = 2, collect = false } = {}) {
  const fields = Object.entries(schema);
  const coerced = [];
  const errors = [];
  records.forEach((record, index) => {
    const line = firstLine + index;
    const out = {};
    let bad = false;
    for (const [field, rule] of fields) {
      const result = coerce(record[field], rule, decimal);
      if (result.error === undefined) {
        out[field] = result.value;
        continue;
      }
      const error = new DataError(result.error, { line, field });
      if (!collect) throw error;
      errors.push(error);
      bad = true;
    }
    if (!bad) coerced.push(out);
  });
  return { records: coerced, errors };
}
