// Cuts a release: next version from the commits, CHANGELOG.md section, version bump, tag, push, npm publish.
// Irreversible past the tag push. Needs NPM_TOKEN and a fresh `pnpm build`. `--dry-run` prints the plan only.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const dryRun = process.argv.includes("--dry-run");
const sh = (command, ...args) => execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

if (!existsSync("dist/relnote.js")) throw new Error("dist/relnote.js is missing: run pnpm build first");
const version = sh("node", "bin/relnote.js", "next");
const steps = [
  ["node", "bin/relnote.js", "changelog", "--write"],
  ["npm", "version", version, "--no-git-tag-version"],
  ["git", "commit", "-am", `chore(release): ${version}`],
  ["git", "tag", `v${version}`],
  ["git", "push", "origin", "main", `v${version}`],
  ["npm", "publish", "--access", "public"],
];
for (const [command, ...args] of steps) {
  console.log(`${dryRun ? "would run" : "running"}: ${[command, ...args].join(" ")}`);
  if (!dryRun) sh(command, ...args);
}
