import { describe, it, expect } from "vitest";
import { pointsFor, redeemValue, tierOf } from "../src/loyalty.js";

describe("loyalty", () => {
  it("places customers in tiers", () => {
    expect(tierOf(0)).toBe("bronze");
    expect(tierOf(249)).toBe("bronze");
    expect(tierOf(250)).toBe("silver");
    expect(tierOf(1000)).toBe("gold");
  });

  it("earns points per whole euro with the tier multiplier", () => {
    expect(pointsFor(42.99, 0)).toBe(42);
    expect(pointsFor(41, 300)).toBe(61);
    expect(pointsFor(10.5, 1000)).toBe(20);
  });

  it("redeems full blocks of 100 points", () => {
    expect(redeemValue(99)).toBe(0);
    expect(redeemValue(250)).toBe(10);
  });
});
