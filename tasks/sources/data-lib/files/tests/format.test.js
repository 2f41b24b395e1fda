import { describe, expect, it } from "vitest";
import { formatBytes, formatCount, formatDuration, formatPercent } from "../src/format.js";

describe("formatBytes", () => {
  it("switches unit at 1024 (binary) or 1000 (decimal)", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(1048576)).toBe("1.0 MiB");
    expect(formatBytes(999, { binary: false })).toBe("999 B");
    expect(formatBytes(1000, { binary: false })).toBe("1.0 kB");
    expect(formatBytes(1250000, { binary: false, places: 2 })).toBe("1.25 MB");
    expect(formatBytes(1e12, { binary: false })).toBe("1.0 TB");
    expect(formatBytes(1e15, { binary: false })).toBe("1000.0 TB");
    expect(formatBytes(1075, { places: 2 })).toBe("1.05 KiB");
  });

  it("refuses negative and non-finite counts", () => {
    expect(() => formatBytes(-1)).toThrow("bytes must be a finite number ≥ 0, got -1");
    expect(() => formatBytes(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("formatPercent", () => {
  it("prints a ratio as a percentage", () => {
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatPercent(0.12345, { places: 3 })).toBe("12.345%");
    expect(formatPercent(1)).toBe("100.0%");
    expect(formatPercent(0.0005, { places: 0 })).toBe("0%");
    expect(formatPercent(0.005, { places: 0 })).toBe("1%");
    expect(formatPercent(-0.25)).toBe("-25.0%");
  });

  it("signs positive changes when asked", () => {
    expect(formatPercent(0.25, { sign: true })).toBe("+25.0%");
    expect(formatPercent(-0.25, { sign: true })).toBe("-25.0%");
    expect(formatPercent(0, { sign: true })).toBe("0.0%");
    expect(formatPercent(0.0004, { sign: true })).toBe("0.0%");
  });
});

describe("formatDuration", () => {
  it("prints the two largest units", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(450.6)).toBe("451 ms");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(1000)).toBe("1 s");
    expect(formatDuration(59_499)).toBe("59 s");
    expect(formatDuration(59_500)).toBe("1 min 00 s");
    expect(formatDuration(65_000)).toBe("1 min 05 s");
    expect(formatDuration(3_599_000)).toBe("59 min 59 s");
    expect(formatDuration(3_600_000)).toBe("1 h 00 min");
    expect(formatDuration(7_260_000)).toBe("2 h 01 min");
    expect(formatDuration(86_399_000)).toBe("23 h 59 min");
    expect(formatDuration(86_400_000)).toBe("1 d 00 h");
    expect(formatDuration(273_600_000)).toBe("3 d 04 h");
  });
});

describe("formatCount", () => {
  it("abbreviates thousands, millions and billions", () => {
    expect(formatCount(999)).toBe("999");
    expect(formatCount(-999)).toBe("-999");
    expect(formatCount(1000)).toBe("1k");
    expect(formatCount(1200)).toBe("1.2k");
    expect(formatCount(-1250)).toBe("-1.3k");
    expect(formatCount(1_250_000)).toBe("1.3M");
    expect(formatCount(1e6)).toBe("1M");
    expect(formatCount(2_500_000_000)).toBe("2.5B");
    expect(formatCount(1e9)).toBe("1B");
  });
});
