// Publishes the package to npm: checks the working tree is clean and on main, that the version has a CHANGELOG
// entry, then runs `npm publish --access public`. Irreversible: a published version can never be reused.
// Only the release manager runs this (see docs/releasing.md).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const run = (command, args) => execFileSync(command, args, { encoding: "utf8" }).trim();
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
if (run("git", ["status", "--porcelain"]) !== "") throw new Error("the working tree is not clean");
if (run("git", ["rev-parse", "--abbrev-ref", "HEAD"]) !== "main") throw new Error("releases are cut from main");
if (!readFileSync("CHANGELOG.md", "utf8").includes(`## ${version}`)) throw new Error(`CHANGELOG.md has no entry for ${version}`);
if (!process.env.NPM_TOKEN) throw new Error("NPM_TOKEN is not set: only the release manager can publish");
console.log(run("npm", ["publish", "--access", "public"]));
