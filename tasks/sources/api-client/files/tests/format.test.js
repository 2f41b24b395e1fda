import { describe, it, expect } from "vitest";
import { formatRateLimit, formatWait } from "../src/format.js";

describe("format", () => {
  it("rounds waits up to the second and switches units at a minute and an hour", () => {
    const waits = [-5, 0, 1, 1000, 1001, 59000, 59001, 60000, 125000, 3599000, 3600000, 3780000];
    expect(waits.map(formatWait)).toEqual([
      "0 s",
      "0 s",
      "1 s",
      "1 s",
      "2 s",
      "59 s",
      "1 min 00 s",
      "1 min 00 s",
      "2 min 05 s",
      "59 min 59 s",
      "1 h 00 min",
      "1 h 03 min",
    ]);
  });

  it("describes a rate-limit window", () => {
    expect(formatRateLimit({ limit: 5000, remaining: 4990, resetInMs: 750000 })).toBe("4990/5000 left (0% used), resets in 12 min 30 s");
  });
});
