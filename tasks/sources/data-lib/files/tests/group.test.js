import { describe, expect, it } from "vitest";
import { aggregate, groupBy, sortRows } from "../src/group.js";

const sales = [
  { region: "north", year: 2025, amount: 10.005, customer: "a" },
  { region: "south", year: 2025, amount: 4, customer: "b" },
  { region: "north", year: 2026, amount: 20, customer: "a" },
  { region: "north", year: 2025, amount: 5, customer: "c" },
  { region: "south", year: 2026, amount: null, customer: "b" },
];

describe("groupBy", () => {
  it("groups by one or more fields in order of first appearance", () => {
    const byRegion = groupBy(sales, "region");
    expect([...byRegion.keys()]).toEqual(['["north"]', '["south"]']);
    expect(byRegion.get('["north"]').records.length).toBe(3);
    const byBoth = groupBy(sales, ["region", "year"]);
    expect([...byBoth.values()].map((group) => group.key)).toEqual([
      { region: "north", year: 2025 },
      { region: "south", year: 2025 },
      { region: "north", year: 2026 },
      { region: "south", year: 2026 },
    ]);
  });

  it("puts records missing the field in a null group", () => {
    const groups = groupBy([{ a: 1 }, {}, { a: null }], "a");
    expect([...groups.values()].map((group) => [group.key, group.records.length])).toEqual([
      [{ a: 1 }, 1],
      [{ a: null }, 2],
    ]);
  });
});

describe("aggregate", () => {
  it("computes and rounds measures per group, skipping missing values", () => {
    const rows = aggregate(sales, {
      by: "region",
      measures: {
        orders: { op: "count" },
        total: { op: "sum", field: "amount", places: 2 },
        average: { op: "mean", field: "amount", places: 1 },
        customers: { op: "distinct", field: "customer" },
        smallest: { op: "min", field: "amount" },
        largest: { op: "max", field: "amount" },
      },
    });
    expect(rows).toEqual([
      { region: "north", orders: 3, total: 35.01, average: 11.7, customers: 2, smallest: 5, largest: 20 },
      { region: "south", orders: 2, total: 4, average: 4, customers: 1, smallest: 4, largest: 4 },
    ]);
  });

  it("gives null for measures of a group with no values", () => {
    const rows = aggregate([{ k: "x", v: null }], {
      by: "k",
      measures: { mean: { op: "mean", field: "v", places: 2 }, median: { op: "median", field: "v" }, p90: { op: "p90", field: "v" }, min: { op: "min", field: "v" }, max: { op: "max", field: "v" }, sum: { op: "sum", field: "v" } },
    });
    expect(rows).toEqual([{ k: "x", mean: null, median: null, p90: null, min: null, max: null, sum: 0 }]);
  });

  it("computes percentiles named pNN", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((v) => ({ k: "all", v }));
    const [row] = aggregate(values, { by: "k", measures: { p50: { op: "p50", field: "v" }, p95: { op: "p95", field: "v", places: 2 }, p99_9: { op: "p99.9", field: "v", places: 3 }, median: { op: "median", field: "v" } } });
    expect(row).toEqual({ k: "all", p50: 5.5, p95: 9.55, p99_9: 9.991, median: 5.5 });
    expect(aggregate(values, { by: "k", measures: { top: { op: "p100", field: "v" } } })).toEqual([{ k: "all", top: 10 }]);
  });

  it("sorts rows by a measure, descending with a minus", () => {
    const rows = aggregate(sales, { by: "customer", measures: { total: { op: "sum", field: "amount" } }, sort: "-total" });
    expect(rows.map((row) => row.customer)).toEqual(["a", "c", "b"]);
    const ascending = aggregate(sales, { by: "customer", measures: { total: { op: "sum", field: "amount" } }, sort: "total" });
    expect(ascending.map((row) => row.customer)).toEqual(["b", "c", "a"]);
  });

  it("refuses unknown measures and non-numeric values", () => {
    expect(() => aggregate(sales, { by: "region", measures: { x: { op: "mode", field: "amount" } } })).toThrow('unknown measure "mode"');
    expect(() => aggregate(sales, { by: "region", measures: { x: { op: "p101", field: "amount" } } })).toThrow('unknown measure "p101"');
    expect(() => aggregate(sales, { by: "region", measures: { x: { op: "sum", field: "customer" } } })).toThrow('measure "x" needs numbers in "customer"');
  });
});

describe("sortRows", () => {
  it("sorts ascending or descending, nulls last, ties stable", () => {
    const rows = [{ id: 1, v: 2 }, { id: 2, v: null }, { id: 3, v: 1 }, { id: 4, v: 2 }];
    expect(sortRows(rows, "v").map((row) => row.id)).toEqual([3, 1, 4, 2]);
    expect(sortRows(rows, "-v").map((row) => row.id)).toEqual([1, 4, 3, 2]);
    expect(sortRows([{ v: null }, { v: 1 }], "v")).toEqual([{ v: 1 }, { v: null }]);
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4]);
  });
});
