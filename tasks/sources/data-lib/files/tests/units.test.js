import { describe, expect, it } from "vitest";
import { convert, dimensionOf } from "../src/units.js";

describe("convert", () => {
  it("converts lengths, masses and volumes through the base unit", () => {
    expect(convert(1, "mi", "km", { places: 3 })).toBe(1.609);
    expect(convert(12, "in", "ft")).toBe(1);
    expect(convert(1, "yd", "cm")).toBe(91.44);
    expect(convert(2500, "mm", "m")).toBe(2.5);
    expect(convert(1, "lb", "g", { places: 2 })).toBe(453.59);
    expect(convert(16, "oz", "lb")).toBe(1);
    expect(convert(1.5, "t", "kg")).toBe(1500);
    expect(convert(1, "gal", "l", { places: 3 })).toBe(3.785);
    expect(convert(128, "fl-oz", "gal")).toBe(1);
    expect(convert(250, "ml", "l")).toBe(0.25);
    expect(convert(1, "km", "mi")).toBe(0.621371);
  });

  it("converts temperatures with their offsets", () => {
    expect(convert(100, "C", "F")).toBe(212);
    expect(convert(-40, "F", "C")).toBe(-40);
    expect(convert(0, "K", "C")).toBe(-273.15);
    expect(convert(32, "F", "K")).toBe(273.15);
    expect(convert(37, "C", "F", { places: 1 })).toBe(98.6);
    expect(convert(-273.15, "C", "K")).toBe(0);
    expect(convert(300, "K", "K")).toBe(300);
  });

  it("refuses unknown units, mixed dimensions and temperatures below absolute zero", () => {
    expect(() => convert(1, "furlong", "m")).toThrow('unknown unit "furlong"');
    expect(() => convert(1, "m", "league")).toThrow('unknown unit "league"');
    expect(() => convert(1, "kg", "m")).toThrow("cannot convert mass (kg) to length (m)");
    expect(() => convert(1, "C", "l")).toThrow("cannot convert temperature (C) to volume (l)");
    expect(() => convert(-274, "C", "K")).toThrow("-274 C is below absolute zero");
    expect(() => convert(-1, "K", "C")).toThrow("-1 K is below absolute zero");
  });

  it("names the dimension of a unit", () => {
    expect(["m", "lb", "gal", "F", "toString", "parsec"].map(dimensionOf)).toEqual(["length", "mass", "volume", "temperature", null, null]);
  });
});
