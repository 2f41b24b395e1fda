// Publishes the built package to npm and tags the release. `pnpm release`: the release manager only (docs/releasing.md).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const { name, version } = JSON.parse(readFileSync("package.json", "utf8"));
if (!process.env.NPM_TOKEN) {
  console.error("release: NPM_TOKEN is not set. Releases are published by the release manager; see docs/releasing.md.");
  process.exit(1);
}
if (!existsSync("dist/tally.js")) {
  console.error("release: dist/tally.js is missing; run `pnpm build` first.");
  process.exit(1);
}
if (execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "") {
  console.error("release: the working tree has uncommitted changes.");
  process.exit(1);
}
execFileSync("npm", ["publish", "--access", "public"], { stdio: "inherit" });
execFileSync("git", ["tag", `v${version}`]);
execFileSync("git", ["push", "origin", `v${version}`]);
console.log(`+ ${name}@${version}`);
