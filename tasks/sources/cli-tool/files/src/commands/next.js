// `relnote next`: the version the commits since the last release ask for.
import { bumpLevel, levelOf } from "../conventional.js";
import { EXIT } from "../errors.js";
import { readHistory } from "../history.js";
import { bumpVersion, formatVersion, parseVersion } from "../semver.js";

export const OPTIONS = {
  from: { type: "string" },
  pre: { type: "boolean", default: false },
  preid: { type: "string" },
  explain: { type: "boolean", short: "e", default: false },
};

/** Prints the next version (and with --explain why); exit 1 when no commit asks for a release. */
export function next({ options, config, io }) {
  const { start, commits } = readHistory(io.git, config, { from: options.from ?? null, includePrereleases: options.pre });
  const current = start === null ? parseVersion("0.0.0") : start.version;
  const parsed = commits.map((commit) => commit.parsed);
  const level = bumpLevel(parsed, current);
  const since = start === null ? "the first commit" : start.tag;
  if (level === "none") {
    io.stderr(`nothing to release since ${since}: ${commits.length} ${commits.length === 1 ? "commit" : "commits"}, none a feat, fix, perf or revert\n`);
    return EXIT.PROBLEMS;
  }
  const version = options.pre ? bumpVersion(current, "prerelease", options.preid ?? config.preid) : bumpVersion(current, level);
  io.stdout(`${formatVersion(version)}\n`);
  if (options.explain) {
    const count = (wanted) => parsed.filter((commit) => commit !== null && levelOf(commit) === wanted).length;
    const parts = [`${count("major")} breaking`, `${count("minor")} features`, `${count("patch")} fixes`];
    io.stdout(`${level}: ${parts.join(", ")} since ${since} (${commits.length} commits)\n`);
  }
  return EXIT.OK;
}
