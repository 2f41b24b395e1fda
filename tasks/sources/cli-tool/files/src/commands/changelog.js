// `relnote changelog`: the next release's changelog section, printed or written into CHANGELOG.md.
import { bumpLevel } from "../conventional.js";
import { insertSection, renderSection } from "../changelog-section.js";
import { parseDay, formatDay } from "../dates.js";
import { EXIT, UsageError } from "../errors.js";
import { parsedCommits, readHistory } from "../history.js";
import { bumpVersion, formatVersion, parseVersion } from "../semver.js";

export const OPTIONS = {
  from: { type: "string" },
  version: { type: "string" },
  date: { type: "string" },
  write: { type: "boolean", short: "w", default: false },
};

export const CHANGELOG_FILE = "CHANGELOG.md";

/**
 * Prints the section for the next version (or --version), dated --date or today (UTC); with --write inserts it into
 * CHANGELOG.md instead. Exit 1 when CHANGELOG.md already has that version.
 * @throws UsageError for a --version that is not semver or a --date that is not a real YYYY-MM-DD day.
 */
export function changelog({ options, config, io }) {
  const { start, commits } = readHistory(io.git, config, { from: options.from ?? null });
  let target = null;
  if (options.version !== undefined) {
    target = parseVersion(options.version);
    if (target === null) throw new UsageError(`--version ${options.version} is not a semantic version`);
  } else {
    const current = start === null ? parseVersion("0.0.0") : start.version;
    const level = bumpLevel(commits.map((commit) => commit.parsed), current);
    target = level === "none" ? current : bumpVersion(current, level);
  }
  const version = formatVersion(target);
  const day = options.date === undefined ? io.now() : parseDay(options.date);
  if (day === null) throw new UsageError(`--date ${options.date} is not a YYYY-MM-DD day`);
  const section = renderSection({
    version,
    previousTag: start === null ? null : start.tag,
    tagPrefix: config.tagPrefix,
    date: formatDay(day),
    commits: parsedCommits(commits),
    repositoryUrl: config.repositoryUrl,
  });
  if (!options.write) {
    io.stdout(section);
    return EXIT.OK;
  }
  const updated = insertSection(io.readFile(CHANGELOG_FILE) ?? "# Changelog\n", section, version);
  if (updated === null) {
    io.stderr(`${CHANGELOG_FILE} already has a section for ${version}\n`);
    return EXIT.PROBLEMS;
  }
  io.writeFile(CHANGELOG_FILE, updated);
  io.stdout(`wrote the ${version} section to ${CHANGELOG_FILE}\n`);
  return EXIT.OK;
}
