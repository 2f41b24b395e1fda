// Time series: records bucketed by a date field into days, weeks, months, quarters or years, gaps filled.
import { bucketKey, bucketStart, nextBucket, parseDate } from "./dates.js";
import { DataError } from "./errors.js";
import { roundTo } from "./round.js";
import { sum } from "./stats.js";

const MAX_BUCKETS = 1000;

function dateOf(record, field) {
  const value = record[field];
  const date = value instanceof Date ? value : typeof value === "string" ? parseDate(value) : null;
  if (date === null) throw new DataError(`"${value}" is not a date`, { field });
  return date;
}

/**
 * Buckets `records` by the date in `field` (a Date or an ISO string) per `unit`, and sums `value` (a field name;
 * absent: counts records) in each bucket, rounded to `places` (default 2). Every bucket from the one holding `from`
 * to the one holding `to` is present, empty ones with 0; `from`/`to` default to the earliest and latest record.
 * Records outside [from, to] are left out.
 * @returns `[{ bucket: "2026-W11", start: Date, value }]` in time order.
 * @throws DataError for a record without a valid date, or when the range spans more than 1000 buckets.
 */
export function timeSeries(records, { field, unit, value, from, to, places = 2 }) {
  const dates = records.map((record) => dateOf(record, field));
  if (dates.length === 0 && (from === undefined || to === undefined)) return [];
  const times = dates.map((date) => date.getTime());
  const first = bucketStart(from ?? new Date(Math.min(...times)), unit);
  const last = bucketStart(to ?? new Date(Math.max(...times)), unit);
  const buckets = new Map();
  for (let start = first; start <= last; start = nextBucket(start, unit)) {
    if (buckets.size >= MAX_BUCKETS) throw new DataError(`the range spans more than ${MAX_BUCKETS} ${unit} buckets`);
    buckets.set(bucketKey(start, unit), { bucket: bucketKey(start, unit), start, values: [] });
  }
  records.forEach((record, index) => {
    const bucket = buckets.get(bucketKey(dates[index], unit));
    if (bucket !== undefined) bucket.values.push(value === undefined ? 1 : Number(record[value]));
  });
  return [...buckets.values()].map((bucket) => ({ bucket: bucket.bucket, start: bucket.start, value: roundTo(sum(bucket.values), places) }));
}

/**
 * The change of each point from the previous one, as a ratio rounded to `places` (default 4): 0.25 for +25%. The
 * first point, and a point after a zero, have `change: null`.
 */
export function periodOverPeriod(series, { places = 4 } = {}) {
  return series.map((point, index) => {
    const previous = index > 0 ? series[index - 1].value : 0;
    const change = previous === 0 ? null : roundTo((point.value - previous) / Math.abs(previous), places);
    return { ...point, change };
  });
}
