import { describe, it, expect } from "vitest";
import { daysBetween, refundFor } from "../src/refunds.js";

const mug = { unitPrice: 11.99, quantity: 2, opened: false };

describe("refunds", () => {
  it("counts days", () => {
    expect(daysBetween("2026-09-01", "2026-09-15")).toBe(14);
  });

  it("refunds in full within 30 days, including the last day", () => {
    expect(refundFor(mug, "2026-08-16", "2026-09-15")).toBe(23.98);
    expect(refundFor(mug, "2026-08-15", "2026-09-15")).toBe(0);
  });

  it("keeps a 15% restocking fee on opened items", () => {
    expect(refundFor({ ...mug, opened: true }, "2026-09-10", "2026-09-15")).toBe(20.38);
  });
});
