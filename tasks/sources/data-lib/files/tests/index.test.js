import { describe, expect, it } from "vitest";
import * as tally from "../src/index.js";

describe("public API", () => {
  it("parses, coerces and aggregates a CSV export end to end", () => {
    const text = "date,region,amount\n2026-01-05,north,\"1,200.50\"\n2026-01-20,north,99.5\n2026-02-02,south,300\n";
    const { records } = tally.coerceRecords(tally.parseCsv(text), {
      date: { type: "date", required: true },
      region: { type: "enum", values: ["north", "south"] },
      amount: { type: "number", min: 0 },
    });
    const rows = tally.aggregate(records, { by: "region", measures: { total: { op: "sum", field: "amount", places: 2 }, orders: { op: "count" } }, sort: "-total" });
    expect(tally.formatCsv(rows)).toBe("region,total,orders\nnorth,1300,2\nsouth,300,1\n");
    expect(tally.timeSeries(records, { field: "date", unit: "month", value: "amount" }).map((point) => point.value)).toEqual([1300, 300]);
  });

  it("exports every documented function", () => {
    expect(Object.keys(tally).sort()).toEqual([
      "DEFAULT_PER_PAGE", "DataError", "MAX_PER_PAGE", "addDays", "aggregate", "bucketKey", "bucketStart", "clamp", "coerceRecords", "convert",
      "daysBetween", "daysInMonth", "dimensionOf", "formatBytes", "formatCount", "formatCsv", "formatDuration", "formatField", "formatPercent",
      "groupBy", "histogram", "isLeapYear", "isoWeek", "mean", "median", "movingAverage", "nextBucket", "paginate", "parseCsv", "parseDate",
      "parseNumber", "percentile", "periodOverPeriod", "roundHalfEven", "roundTo", "sortRows", "stddev", "sum", "summarize", "timeSeries",
      "variance", "windows",
    ]);
  });

  it("throws DataError with the line and field of bad data", () => {
    let caught = null;
    try {
      tally.coerceRecords([{ n: "x" }], { n: { type: "number" } }, { firstLine: 7 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(tally.DataError);
    expect([caught.name, caught.line, caught.field, caught.message]).toEqual(["DataError", 7, "n", 'line 7, field "n": "x" is not a number']);
    expect(new tally.DataError("bad").message).toBe("bad");
    expect(new tally.DataError("bad", { field: "f" }).message).toBe('field "f": bad');
  });
});
