import { describe, it, expect } from "vitest";
import { estimateDelivery, isWeekend } from "../src/delivery.js";

describe("delivery", () => {
  it("knows weekends", () => {
    expect(isWeekend(new Date("2026-09-19T12:00:00Z"))).toBe(true);
    expect(isWeekend(new Date("2026-09-20T12:00:00Z"))).toBe(true);
    expect(isWeekend(new Date("2026-09-18T12:00:00Z"))).toBe(false);
  });

  it("counts business days only", () => {
    expect(estimateDelivery("2026-09-15", 2)).toBe("2026-09-17");
    expect(estimateDelivery("2026-09-17", 2)).toBe("2026-09-21");
    expect(estimateDelivery("2026-09-18", 1)).toBe("2026-09-21");
    expect(estimateDelivery("2026-09-15", 0)).toBe("2026-09-15");
  });
});
