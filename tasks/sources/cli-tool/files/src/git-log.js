// Reads what git prints: `git log --format=%H%x1f%an%x1f%as%x1f%B%x1e` records and `git tag` lines.
import { InputError } from "./errors.js";
import { parseDay } from "./dates.js";
import { compareVersions, parseVersion } from "./semver.js";

/** The git log format this module reads: sha, author, date (YYYY-MM-DD), message; fields \x1f, records \x1e. */
export const LOG_FORMAT = "%H%x1f%an%x1f%as%x1f%B%x1e";
const FIELD = "\x1f";
const RECORD = "\x1e";

/**
 * Commits from `git log --format=LOG_FORMAT` output, in the order given (newest first): { sha, shortSha, author,
 * date, message }. Blank records are skipped.
 * @throws InputError naming the record (1-based) with too few fields or a bad date.
 */
export function parseGitLog(text) {
  const records = String(text)
    .split(RECORD)
    .map((record) => record.replace(/^\n+/, ""))
    .filter((record) => record.trim() !== "");
  return records.map((record, index) => {
    const fields = record.split(FIELD);
    if (fields.length < 4) throw new InputError(`git log record ${index + 1} has ${fields.length} fields, expected 4 (format ${LOG_FORMAT})`);
    const [sha, author, date, ...message] = fields;
    if (parseDay(date) === null) throw new InputError(`git log record ${index + 1}: "${date}" is not a YYYY-MM-DD date`);
    return { sha, shortSha: sha.slice(0, 7), author, date, message: message.join(FIELD).trim() };
  });
}

/**
 * Release tags from `git tag --format='%(refname:short) %(creatordate:short)'` lines, newest version first:
 * { tag, version, date }. Tags without the prefix or that are not semantic versions (e.g. "nightly") are skipped;
 * pre-releases are kept only when `includePrereleases`.
 */
export function parseTags(text, { prefix = "v", includePrereleases = false } = {}) {
  const tags = [];
  for (const line of String(text).split("\n")) {
    const [tag, date] = line.trim().split(/\s+/);
    if (!tag || !tag.startsWith(prefix)) continue;
    const version = parseVersion(tag.slice(prefix.length));
    if (version === null || (version.prerelease.length > 0 && !includePrereleases)) continue;
    tags.push({ tag, version, date: date ?? null });
  }
  return tags.sort((a, b) => compareVersions(b.version, a.version));
}
