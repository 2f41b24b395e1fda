// The public API of @ledgerline/tally: every module's exports, re-exported.
export { parseCsv, formatCsv, formatField } from "./csv.js";
export { coerceRecords, parseNumber } from "./schema.js";
export { groupBy, aggregate, sortRows } from "./group.js";
export { sum, mean, median, variance, stddev, percentile, summarize } from "./stats.js";
export { roundTo, roundHalfEven, clamp } from "./round.js";
export { parseDate, isLeapYear, daysInMonth, daysBetween, addDays, isoWeek, bucketStart, bucketKey, nextBucket } from "./dates.js";
export { timeSeries, periodOverPeriod } from "./timeseries.js";
export { paginate, windows, movingAverage, DEFAULT_PER_PAGE, MAX_PER_PAGE } from "./paginate.js";
export { convert, dimensionOf } from "./units.js";
export { formatBytes, formatPercent, formatDuration, formatCount } from "./format.js";
export { histogram } from "./histogram.js";
export { DataError } from "./errors.js";
