// `relnote stats`: the last releases as a table (or JSON) with their ages, and the release cadence.
import { daysBetween, parseDay, relativeAge } from "../dates.js";
import { EXIT } from "../errors.js";
import { parseTags } from "../git-log.js";
import { formatVersion } from "../semver.js";
import { releaseStats } from "../release-stats.js";
import { renderTable } from "../table.js";

export const OPTIONS = {
  limit: { type: "integer", short: "n", default: 10, min: 1, max: 50 },
  format: { type: "string", default: "table", choices: ["table", "json"] },
  "fail-if-stale": { type: "boolean", default: false },
};

const COLUMNS = [
  { key: "version", header: "Version", min: 7 },
  { key: "date", header: "Date", min: 10 },
  { key: "age", header: "Age", min: 8 },
  { key: "gap", header: "Days since previous", align: "right" },
];

/** Prints the newest --limit releases and a summary line; exit 1 with --fail-if-stale when the last release is stale. */
export function stats({ options, config, io }) {
  const tags = parseTags(io.git.tags(), { prefix: config.tagPrefix });
  const now = io.now();
  const summary = releaseStats(tags, now, { staleAfterDays: config.staleAfterDays });
  const shown = tags.slice(0, options.limit);
  const rows = shown.map((tag, index) => {
    const day = parseDay(tag.date ?? "");
    const previous = tags[index + 1] === undefined ? null : parseDay(tags[index + 1].date ?? "");
    return {
      version: formatVersion(tag.version),
      date: tag.date ?? "?",
      age: day === null ? "?" : relativeAge(daysBetween(day, now)),
      gap: day === null || previous === null ? "" : String(daysBetween(previous, day)),
    };
  });
  if (options.format === "json") {
    io.stdout(JSON.stringify({ releases: rows, summary }, null, 2) + "\n");
  } else {
    io.stdout(renderTable(rows, COLUMNS, { width: config.tableWidth }) + "\n\n" + summaryLine(summary) + "\n");
  }
  return options["fail-if-stale"] && summary.stale ? EXIT.PROBLEMS : EXIT.OK;
}

/** "12 releases, median 14 days apart (mean 15.3), 2.3 a month; last one 5 days ago". */
export function summaryLine(summary) {
  if (summary.releases === 0) return "no releases yet";
  const parts = [`${summary.releases} ${summary.releases === 1 ? "release" : "releases"}`];
  if (summary.medianDays !== null) parts.push(`median ${summary.medianDays} days apart (mean ${summary.meanDays})`);
  parts.push(`${summary.perMonth} a month`);
  const last = `last one ${relativeAge(summary.daysSinceLast)}${summary.stale ? " (stale)" : ""}`;
  return `${parts.join(", ")}; ${last}`;
}
