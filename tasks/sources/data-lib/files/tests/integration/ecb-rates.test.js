import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/csv.js";
import { coerceRecords } from "../../src/schema.js";

// Hits the ECB data API over the network: run with `pnpm test:integration` (CI's integration job), not `pnpm test`.
const ECB_USD = "https://data-api.ecb.europa.eu/service/data/EXR/D.USD.EUR.SP00.A?format=csvdata&lastNObservations=5";

describe("ECB reference rates (network)", () => {
  it("parses and coerces the last five USD/EUR observations", async () => {
    const response = await fetch(ECB_USD, { signal: AbortSignal.timeout(10_000) });
    const { records } = coerceRecords(parseCsv(await response.text()), {
      TIME_PERIOD: { type: "date", required: true },
      OBS_VALUE: { type: "number", required: true, min: 0 },
    });
    expect(records.length).toBe(5);
    expect(records.every((record) => record.OBS_VALUE > 0.5 && record.OBS_VALUE < 2)).toBe(true);
  });
});
