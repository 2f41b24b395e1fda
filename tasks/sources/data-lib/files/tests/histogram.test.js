import { describe, expect, it } from "vitest";
import { histogram } from "../src/histogram.js";

describe("histogram", () => {
  it("counts values into equal bins, the maximum in the last one", () => {
    expect(histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { bins: 5 })).toEqual({
      bins: [
        { from: 0, to: 2, count: 2 },
        { from: 2, to: 4, count: 2 },
        { from: 4, to: 6, count: 2 },
        { from: 6, to: 8, count: 2 },
        { from: 8, to: 10, count: 3 },
      ],
      outside: 0,
    });
  });

  it("defaults to ten bins and rounds the edges", () => {
    const { bins } = histogram([0, 0.3, 0.7, 1]);
    expect(bins.length).toBe(10);
    expect(bins[2]).toEqual({ from: 0.2, to: 0.3, count: 0 });
    expect(bins[3]).toEqual({ from: 0.3, to: 0.4, count: 1 });
    expect(bins[9]).toEqual({ from: 0.9, to: 1, count: 1 });
    expect(histogram([0, 1 / 3, 1], { bins: 3, places: 2 }).bins.map((bin) => bin.to)).toEqual([0.33, 0.67, 1]);
  });

  it("counts values outside a given range and non-finite values apart", () => {
    expect(histogram([-1, 0, 5, 9.99, 10, 10.01, Number.NaN], { bins: 2, min: 0, max: 10 })).toEqual({
      bins: [
        { from: 0, to: 5, count: 1 },
        { from: 5, to: 10, count: 3 },
      ],
      outside: 3,
    });
    expect(histogram([2, 3], { bins: 1 })).toEqual({ bins: [{ from: 2, to: 3, count: 2 }], outside: 0 });
  });

  it("refuses bad bin counts and empty ranges", () => {
    expect(() => histogram([1, 2], { bins: 0 })).toThrow("bins must be a whole number from 1 to 1000, got 0");
    expect(() => histogram([1, 2], { bins: 1001 })).toThrow("got 1001");
    expect(histogram([1, 2], { bins: 1000 }).bins.length).toBe(1000);
    expect(() => histogram([1, 2], { bins: 2.5 })).toThrow(RangeError);
    expect(() => histogram([4, 4])).toThrow("min (4) must be below max (4)");
    expect(() => histogram([1], { min: 3, max: 2 })).toThrow("min (3) must be below max (2)");
  });
});
