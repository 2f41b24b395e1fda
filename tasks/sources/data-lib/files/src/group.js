// Grouping and aggregation: records grouped by one or more fields, measures computed and rounded per group.
import { DataError } from "./errors.js";
import { roundTo } from "./round.js";
import { mean, median, percentile, sum } from "./stats.js";

const keyOf = (record, by) => JSON.stringify(by.map((field) => record[field] ?? null));

/**
 * Records grouped by the values of the `by` fields (a name or a list of names), in order of first appearance.
 * @returns Map from the JSON of the key values (e.g. `["north",2026]`) to `{ key: { field: value }, records }`.
 */
export function groupBy(records, by) {
  const fields = Array.isArray(by) ? by : [by];
  const groups = new Map();
  for (const record of records) {
    const id = keyOf(record, fields);
    if (!groups.has(id)) groups.set(id, { key: Object.fromEntries(fields.map((field) => [field, record[field] ?? null])), records: [] });
    groups.get(id).records.push(record);
  }
  return groups;
}

const OPERATIONS = {
  count: (values) => values.length,
  sum: (values) => sum(values),
  mean: (values) => (values.length === 0 ? null : mean(values)),
  median: (values) => (values.length === 0 ? null : median(values)),
  min: (values) => (values.length === 0 ? null : Math.min(...values)),
  max: (values) => (values.length === 0 ? null : Math.max(...values)),
  distinct: (values) => new Set(values).size,
};

/** The function computing `op`: one of OPERATIONS, or `pNN` for the NN-th percentile (p50, p95, p99.9). */
function operation(op) {
  if (Object.hasOwn(OPERATIONS, op)) return OPERATIONS[op];
  const match = /^p(\d+(\.\d+)?)$/.exec(op);
  if (match === null || Number(match[1]) > 100) throw new DataError(`unknown measure "${op}"`);
  return (values) => (values.length === 0 ? null : percentile(values, Number(match[1])));
}

/**
 * One row per group of `records` (see groupBy): the key fields, then each measure of `measures`
 * (`{ name: { op, field, places } }`; `field` may be omitted for count). Null and undefined field values are left
 * out of a measure (count counts records). A measure with `places` is rounded half away from zero. `sort` orders
 * the rows by a measure or key field, descending when it starts with "-" ("-total").
 * @throws DataError for an unknown measure or a non-numeric value in a numeric measure.
 */
export function aggregate(records, { by, measures, sort } = {}) {
  const plan = Object.entries(measures).map(([name, measure]) => ({ name, ...measure, compute: operation(measure.op) }));
  const rows = [];
  for (const group of groupBy(records, by).values()) {
    const row = { ...group.key };
    for (const measure of plan) {
      const values = measure.op === "count" ? group.records : group.records.map((record) => record[measure.field]).filter((value) => value !== null && value !== undefined);
      if (measure.op !== "count" && measure.op !== "distinct" && values.some((value) => typeof value !== "number")) {
        throw new DataError(`measure "${measure.name}" needs numbers in "${measure.field}"`);
      }
      const value = measure.compute(values);
      row[measure.name] = measure.places === undefined || value === null ? value : roundTo(value, measure.places);
    }
    rows.push(row);
  }
  return sort === undefined ? rows : sortRows(rows, sort);
}

/** `rows` sorted by `field` (ascending; "-field" descending), nulls last; stable for ties. */
export function sortRows(rows, field) {
  const descending = field.startsWith("-");
  const name = descending ? field.slice(1) : field;
  const direction = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (a[name] === b[name]) return 0;
    if (a[name] === null) return 1;
    if (b[name] === null) return -1;
    return a[name] < b[name] ? -direction : direction;
  });
}
