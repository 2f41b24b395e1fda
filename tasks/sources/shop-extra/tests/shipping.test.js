import { describe, it, expect } from "vitest";
import { parcelCount, shippingFee } from "../src/shipping.js";

describe("shipping", () => {
  it("charges by weight band below the free threshold", () => {
    expect(shippingFee(20, 1)).toBe(4.9);
    expect(shippingFee(20, 2)).toBe(4.9);
    expect(shippingFee(20, 2.5)).toBe(7.5);
    expect(shippingFee(20, 10)).toBe(7.5);
    expect(shippingFee(20, 30)).toBe(12);
  });

  it("ships free from 60 euros, except express", () => {
    expect(shippingFee(60, 1)).toBe(0);
    expect(shippingFee(59.99, 1)).toBe(4.9);
    expect(shippingFee(80, 1, true)).toBe(9.8);
  });

  it("refuses what it cannot ship", () => {
    expect(shippingFee(20, 31)).toBe(null);
    expect(() => shippingFee(20, 0)).toThrow("weight must be positive");
  });

  it("splits heavy orders into parcels", () => {
    expect(parcelCount(0.5)).toBe(1);
    expect(parcelCount(30)).toBe(1);
    expect(parcelCount(31)).toBe(2);
    expect(parcelCount(25, 10)).toBe(3);
  });
});
