import { describe, expect, it } from "vitest";
import { periodOverPeriod, timeSeries } from "../src/timeseries.js";

const orders = [
  { day: "2026-01-30", amount: "10.10" },
  { day: "2026-01-31T23:59Z", amount: "5.205" },
  { day: "2026-03-01", amount: "7" },
  { day: new Date("2026-03-31T12:00:00Z"), amount: "3" },
];

describe("timeSeries", () => {
  it("sums a field per month and fills the empty months with 0", () => {
    expect(timeSeries(orders, { field: "day", unit: "month", value: "amount" }).map(({ bucket, value }) => [bucket, value])).toEqual([
      ["2026-01", 15.31],
      ["2026-02", 0],
      ["2026-03", 10],
    ]);
  });

  it("counts records when no value field is given", () => {
    expect(timeSeries(orders, { field: "day", unit: "quarter" })).toEqual([{ bucket: "2026-Q1", start: new Date("2026-01-01T00:00:00Z"), value: 4 }]);
    expect(timeSeries(orders, { field: "day", unit: "week" }).map(({ bucket, value }) => `${bucket}=${value}`)).toEqual([
      "2026-W05=2",
      "2026-W06=0",
      "2026-W07=0",
      "2026-W08=0",
      "2026-W09=1",
      "2026-W10=0",
      "2026-W11=0",
      "2026-W12=0",
      "2026-W13=0",
      "2026-W14=1",
    ]);
  });

  it("keeps only records inside an explicit range, and every bucket of it", () => {
    const series = timeSeries(orders, { field: "day", unit: "day", value: "amount", from: new Date("2026-01-31T00:00:00Z"), to: new Date("2026-02-02T00:00:00Z"), places: 1 });
    expect(series.map(({ bucket, value }) => [bucket, value])).toEqual([
      ["2026-01-31", 5.2],
      ["2026-02-01", 0],
      ["2026-02-02", 0],
    ]);
    expect(timeSeries([], { field: "day", unit: "year", from: new Date("2025-06-01T00:00:00Z"), to: new Date("2026-06-01T00:00:00Z") }).map((point) => point.bucket)).toEqual(["2025", "2026"]);
    expect(timeSeries([], { field: "day", unit: "day" })).toEqual([]);
  });

  it("refuses bad dates and ranges too long", () => {
    expect(() => timeSeries([{ day: "2026-02-30" }], { field: "day", unit: "day" })).toThrow('field "day": "2026-02-30" is not a date');
    expect(() => timeSeries([{ day: 20260101 }], { field: "day", unit: "day" })).toThrow('"20260101" is not a date');
    const span = [{ day: "2026-01-01" }, { day: "2028-09-26" }];
    expect(timeSeries(span, { field: "day", unit: "day" }).length).toBe(1000);
    expect(() => timeSeries([{ day: "2026-01-01" }, { day: "2028-09-27" }], { field: "day", unit: "day" })).toThrow("the range spans more than 1000 day buckets");
  });
});

describe("periodOverPeriod", () => {
  it("gives each point's change from the previous one", () => {
    const series = [{ value: 0 }, { value: 8 }, { value: 10 }, { value: 5 }, { value: -5 }, { value: 3 }];
    expect(periodOverPeriod(series).map((point) => point.change)).toEqual([null, null, 0.25, -0.5, -2, 1.6]);
    expect(periodOverPeriod([{ value: 3 }, { value: 4 }], { places: 2 })[1].change).toBe(0.33);
    expect(periodOverPeriod([{ value: 3 }, { value: 4 }])[1]).toEqual({ value: 4, change: 0.3333 });
  });
});
