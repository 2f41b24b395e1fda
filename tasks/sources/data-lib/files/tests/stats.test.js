import { describe, expect, it } from "vitest";
import { mean, median, percentile, stddev, sum, summarize, variance } from "../src/stats.js";

describe("sums and means", () => {
  it("sums without floating-point drift", () => {
    expect(sum([])).toBe(0);
    expect(sum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(sum([1e16, 1, -1e16])).toBe(1);
    expect(sum([1, 1e16, -1e16])).toBe(1);
    expect(sum([3, -5, 4])).toBe(2);
  });

  it("averages, and refuses no values", () => {
    expect(mean([2, 4, 9])).toBe(5);
    expect(mean([7])).toBe(7);
    expect(() => mean([])).toThrow("mean needs at least 1 value, got 0");
  });
});

describe("spread", () => {
  it("uses Bessel's correction by default", () => {
    expect(variance([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(4.571428571, 8);
    expect(variance([2, 4, 4, 4, 5, 5, 7, 9], { sample: false })).toBe(4);
    expect(stddev([2, 4, 4, 4, 5, 5, 7, 9], { sample: false })).toBe(2);
    expect(variance([1, 3])).toBe(2);
    expect(variance([5], { sample: false })).toBe(0);
  });

  it("needs two values for a sample variance", () => {
    expect(() => variance([5])).toThrow("variance needs at least 2 values, got 1");
    expect(() => variance([], { sample: false })).toThrow("variance needs at least 1 value, got 0");
  });
});

describe("percentile", () => {
  const values = [15, 20, 35, 40, 50];

  it("interpolates linearly between ranks by default", () => {
    expect(percentile(values, 0)).toBe(15);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 40)).toBe(29);
    expect(percentile(values, 90)).toBe(46);
    expect(percentile([3, 1, 2], 25)).toBe(1.5);
    expect(percentile([10], 75)).toBe(10);
  });

  it("picks the nearest rank when asked", () => {
    expect(percentile(values, 0, { method: "nearest-rank" })).toBe(15);
    expect(percentile(values, 5, { method: "nearest-rank" })).toBe(15);
    expect(percentile(values, 30, { method: "nearest-rank" })).toBe(20);
    expect(percentile(values, 40, { method: "nearest-rank" })).toBe(20);
    expect(percentile(values, 41, { method: "nearest-rank" })).toBe(35);
    expect(percentile(values, 100, { method: "nearest-rank" })).toBe(50);
  });

  it("refuses bad input", () => {
    expect(() => percentile([], 50)).toThrow("percentile needs at least 1 value, got 0");
    expect(() => percentile(values, -1)).toThrow("percentile must be from 0 to 100, got -1");
    expect(() => percentile(values, 101)).toThrow(RangeError);
    expect(() => percentile(values, Number.NaN)).toThrow(RangeError);
    expect(() => percentile(values, 50, { method: "hazen" })).toThrow('unknown percentile method "hazen" (linear or nearest-rank)');
  });

  it("does not reorder its input", () => {
    const input = [3, 1, 2];
    percentile(input, 50);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe("median and summarize", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("summarizes a sample", () => {
    const latencies = [120, 80, 95, 300, 110, 101, 99, 87, 130, 1000];
    expect(summarize(latencies)).toEqual({ count: 10, min: 80, max: 1000, mean: 212.2, median: 105.5, p90: 370, p99: 937 });
    expect(() => summarize([])).toThrow("summarize needs at least 1 value, got 0");
  });
});

describe("summarize rounding", () => {
  it("rounds the computed figures to the places asked", () => {
    expect(summarize([1, 2, 2], { places: 2 })).toEqual({ count: 3, min: 1, max: 2, mean: 1.67, median: 2, p90: 2, p99: 2 });
    expect(summarize([0, 1], { places: 0 })).toEqual({ count: 2, min: 0, max: 1, mean: 1, median: 1, p90: 1, p99: 1 });
  });
});
