import { describe, it, expect } from "vitest";
import { isLow, release, reserve } from "../src/stock.js";

const beans = { sku: "BEAN", onHand: 12, reserved: 2 };

describe("stock", () => {
  it("reserves free units only", () => {
    expect(reserve(beans, 10)).toEqual({ sku: "BEAN", onHand: 12, reserved: 12 });
    expect(() => reserve(beans, 11)).toThrow("only 10 left");
    expect(() => reserve(beans, 0)).toThrow("quantity must be positive");
  });

  it("releases without going below zero", () => {
    expect(release(beans, 1)).toEqual({ sku: "BEAN", onHand: 12, reserved: 1 });
    expect(release(beans, 5).reserved).toBe(0);
  });

  it("flags low stock at five free units", () => {
    expect(isLow({ onHand: 10, reserved: 5 })).toBe(true);
    expect(isLow({ onHand: 10, reserved: 4 })).toBe(false);
  });
});
