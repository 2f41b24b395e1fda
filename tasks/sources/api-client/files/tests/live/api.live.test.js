// Runs against the real sandbox project: needs LINDEN_API_TOKEN (a sandbox token, see .env.example) and the network.
import { describe, it, expect } from "vitest";
import { createClient, createFetchTransport } from "../../src/index.js";

describe("live API (sandbox project)", () => {
  it("lists the open issues of the sandbox project", async () => {
    const client = createClient({
      token: process.env.LINDEN_API_TOKEN,
      transport: createFetchTransport(),
      baseUrl: process.env.LINDEN_API_URL ?? "https://sandbox.api.linden.example/v3",
    });
    const page = await client.listIssuesPage("sandbox", { pageSize: 5 });
    expect(page.items.length).toBeGreaterThan(0);
  });
});
