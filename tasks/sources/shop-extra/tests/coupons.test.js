import { describe, it, expect } from "vitest";
import { applyCoupon, couponDiscount } from "../src/coupons.js";

const tenPercent = { kind: "percent", value: 10, minSpend: 50, expires: "2026-09-30" };
const fiveOff = { kind: "fixed", value: 5 };

describe("coupons", () => {
  it("takes a percentage off from the minimum spend", () => {
    expect(couponDiscount(tenPercent, 50, "2026-09-15")).toBe(5);
    expect(couponDiscount(tenPercent, 49.99, "2026-09-15")).toBe(0);
    expect(couponDiscount(tenPercent, 123.45, "2026-09-15")).toBe(12.35);
  });

  it("applies up to and including the expiry day", () => {
    expect(couponDiscount(tenPercent, 100, "2026-09-30")).toBe(10);
    expect(couponDiscount(tenPercent, 100, "2026-10-01")).toBe(0);
  });

  it("never discounts more than the subtotal", () => {
    expect(couponDiscount(fiveOff, 3, "2026-09-15")).toBe(3);
    expect(applyCoupon(fiveOff, 20, "2026-09-15")).toBe(15);
    expect(applyCoupon(null, 20, "2026-09-15")).toBe(20);
  });
});
