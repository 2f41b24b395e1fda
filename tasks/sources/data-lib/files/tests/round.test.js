import { describe, expect, it } from "vitest";
import { clamp, roundHalfEven, roundTo } from "../src/round.js";

describe("roundTo", () => {
  it("rounds half away from zero", () => {
    expect(roundTo(2.5)).toBe(3);
    expect(roundTo(-2.5)).toBe(-3);
    expect(roundTo(2.4999)).toBe(2);
    expect(roundTo(2.345, 2)).toBe(2.35);
    expect(roundTo(-2.345, 2)).toBe(-2.35);
  });

  it("hides binary noise: 1.005 rounds up to 1.01", () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(8.575, 2)).toBe(8.58);
    expect(roundTo(0.1 + 0.2, 10)).toBe(0.3);
  });

  it("never returns negative zero", () => {
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0.4), 0)).toBe(true);
  });

  it("accepts 0 to 12 places", () => {
    expect(roundTo(1.23456789, 0)).toBe(1);
    expect(roundTo(0.1234567890123, 12)).toBe(0.123456789012);
    expect(() => roundTo(1, 13)).toThrow("places must be an integer from 0 to 12, got 13");
    expect(() => roundTo(1, -1)).toThrow(RangeError);
    expect(() => roundTo(1, 1.5)).toThrow(RangeError);
  });
});

describe("roundHalfEven", () => {
  it("rounds ties to the even neighbour", () => {
    expect(roundHalfEven(0.5)).toBe(0);
    expect(roundHalfEven(1.5)).toBe(2);
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(3.5)).toBe(4);
    expect(roundHalfEven(-2.5)).toBe(-2);
    expect(roundHalfEven(0.125, 2)).toBe(0.12);
    expect(roundHalfEven(0.135, 2)).toBe(0.14);
    expect(roundHalfEven(2.675, 2)).toBe(2.68);
  });

  it("rounds non-ties to the nearest value", () => {
    expect(roundHalfEven(2.51)).toBe(3);
    expect(roundHalfEven(2.49)).toBe(2);
    expect(roundHalfEven(-1.26, 1)).toBe(-1.3);
    expect(Object.is(roundHalfEven(-0.5), 0)).toBe(true);
  });

  it("refuses bad places", () => {
    expect(() => roundHalfEven(1, 13)).toThrow(RangeError);
  });
});

describe("clamp", () => {
  it("keeps values inside the bounds, bounds included", () => {
    expect(clamp(5, 0, 10)).toBe(5);
    expect(clamp(0, 0, 10)).toBe(0);
    expect(clamp(10, 0, 10)).toBe(10);
    expect(clamp(-1, 0, 10)).toBe(0);
    expect(clamp(11, 0, 10)).toBe(10);
    expect(clamp(3, 3, 3)).toBe(3);
  });

  it("refuses an empty range", () => {
    expect(() => clamp(1, 2, 1)).toThrow("clamp: min 2 is above max 1");
  });
});
