// Talks to the real npm registry with the publish token: run by `pnpm test:registry` before a release.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

describe("npm registry", () => {
  it("the publish token can publish relnote", async () => {
    const response = await fetch(`https://registry.npmjs.org/-/package/${manifest.name}/collaborators`, {
      headers: { authorization: `Bearer ${process.env.NPM_TOKEN}` },
    });
    expect(response.status, "NPM_TOKEN is missing or has no publish rights on relnote").toBe(200);
    const collaborators = await response.json();
    expect(Object.values(collaborators)).toContain("write");
  });
});
