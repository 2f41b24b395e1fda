import { describe, expect, it } from "vitest";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, movingAverage, paginate, windows } from "../src/paginate.js";

const items = Array.from({ length: 53 }, (_, index) => index + 1);

describe("paginate", () => {
  it("defaults to the first page of 25", () => {
    const first = paginate(items);
    expect(DEFAULT_PER_PAGE).toBe(25);
    expect({ ...first, items: first.items.length }).toEqual({ items: 25, page: 1, perPage: 25, total: 53, pages: 3, from: 1, to: 25, hasPrevious: false, hasNext: true });
  });

  it("returns a short last page", () => {
    expect(paginate(items, { page: 3 })).toEqual({ items: [51, 52, 53], page: 3, perPage: 25, total: 53, pages: 3, from: 51, to: 53, hasPrevious: true, hasNext: false });
    expect(paginate(items, { page: 2, perPage: 10 })).toMatchObject({ from: 11, to: 20, pages: 6, hasPrevious: true, hasNext: true });
  });

  it("returns an empty page past the end, and one page for an empty list", () => {
    expect(paginate(items, { page: 4 })).toEqual({ items: [], page: 4, perPage: 25, total: 53, pages: 3, from: 0, to: 75, hasPrevious: true, hasNext: false });
    expect(paginate([], {})).toEqual({ items: [], page: 1, perPage: 25, total: 0, pages: 1, from: 0, to: 0, hasPrevious: false, hasNext: false });
  });

  it("counts exact multiples without an extra page", () => {
    expect(paginate(items.slice(0, 50), { page: 2 })).toMatchObject({ pages: 2, from: 26, to: 50, hasNext: false });
    expect(paginate(items.slice(0, 51), { page: 2 })).toMatchObject({ pages: 3, hasNext: true });
  });

  it("accepts 1 to 100 items a page and refuses the rest", () => {
    expect(MAX_PER_PAGE).toBe(100);
    expect(paginate(items, { perPage: 1, page: 53 })).toMatchObject({ items: [53], pages: 53, hasNext: false });
    expect(paginate(items, { perPage: 100 })).toMatchObject({ pages: 1, to: 53 });
    expect(() => paginate(items, { perPage: 101 })).toThrow("perPage must be a whole number from 1 to 100, got 101");
    expect(() => paginate(items, { perPage: 0 })).toThrow("perPage must be a whole number from 1 to 100, got 0");
    expect(() => paginate(items, { perPage: 2.5 })).toThrow(RangeError);
    expect(() => paginate(items, { page: 0 })).toThrow("page must be a whole number from 1, got 0");
    expect(() => paginate(items, { page: 1.5 })).toThrow(RangeError);
  });
});

describe("windows", () => {
  it("cuts non-overlapping windows and drops a short tail", () => {
    expect(windows([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(windows([1, 2, 3, 4, 5, 6, 7], 3, { partial: true })).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(windows([1, 2, 3, 4, 5, 6], 3, { partial: true })).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it("slides overlapping windows by a step", () => {
    expect(windows([1, 2, 3, 4, 5], 3, { step: 1 })).toEqual([
      [1, 2, 3],
      [2, 3, 4],
      [3, 4, 5],
    ]);
    expect(windows([1, 2, 3, 4, 5, 6], 4, { step: 2, partial: true })).toEqual([
      [1, 2, 3, 4],
      [3, 4, 5, 6],
    ]);
    expect(windows([1, 2], 3)).toEqual([]);
    expect(windows([1, 2], 3, { partial: true })).toEqual([[1, 2]]);
    expect(windows([], 2, { partial: true })).toEqual([]);
  });

  it("refuses sizes and steps below 1", () => {
    expect(() => windows([1], 0)).toThrow("size must be a whole number from 1, got 0");
    expect(() => windows([1], 2, { step: 0 })).toThrow("step must be a whole number from 1, got 0");
    expect(() => windows([1], 1.5)).toThrow(RangeError);
    expect(() => windows([1], 1, { step: 0.5 })).toThrow(RangeError);
  });
});

describe("movingAverage", () => {
  it("averages the trailing window once it is full", () => {
    expect(movingAverage([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
    expect(movingAverage([1, 2, 2], 2, { places: 1 })).toEqual([null, 1.5, 2]);
    expect(movingAverage([1, 1, 2], 3)).toEqual([null, null, 1.33]);
    expect(movingAverage([4, 8], 1)).toEqual([4, 8]);
  });
});
