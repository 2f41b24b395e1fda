// Changelog sections in Markdown (keep-a-changelog layout, conventional-changelog wording) and where they go.
import { truncate } from "./table.js";

/** Section titles in the order they are printed; commits of other types are left out. */
export const SECTIONS = [
  ["feat", "Features"],
  ["fix", "Bug fixes"],
  ["perf", "Performance"],
  ["revert", "Reverts"],
];

/** The longest subject printed in a changelog line before it is cut with "…". */
export const MAX_SUBJECT = 100;

function entry(commit, repositoryUrl) {
  const scope = commit.scope ? `**${commit.scope}:** ` : "";
  const link = repositoryUrl ? `([${commit.shortSha}](${repositoryUrl}/commit/${commit.sha}))` : `(${commit.shortSha})`;
  return `* ${scope}${truncate(commit.subject, MAX_SUBJECT)} ${link}`;
}

/**
 * The Markdown section for one release: a "## [version](compare link) (date)" heading (a plain "## version" without a
 * repository URL or previous tag), the breaking changes first, then one "###" section per type in SECTIONS order,
 * scopes in bold. `commits` are parsed commits with `sha` and `shortSha`; null entries are skipped. Returns the
 * heading and "No notable changes." when nothing is printable.
 */
export function renderSection({ version, previousTag = null, tagPrefix = "v", date, commits, repositoryUrl = null }) {
  const parsed = commits.filter((commit) => commit !== null);
  const compare = repositoryUrl && previousTag ? `${repositoryUrl}/compare/${previousTag}...${tagPrefix}${version}` : null;
  const lines = [compare ? `## [${version}](${compare}) (${date})` : `## ${version} (${date})`];
  const breaking = parsed.filter((commit) => commit.breaking);
  if (breaking.length > 0) {
    lines.push("", "### ⚠ BREAKING CHANGES", "");
    for (const commit of breaking) lines.push(entry({ ...commit, subject: commit.breakingNote ?? commit.subject }, repositoryUrl));
  }
  for (const [type, title] of SECTIONS) {
    const matching = parsed.filter((commit) => commit.type === type);
    if (matching.length === 0) continue;
    lines.push("", `### ${title}`, "");
    for (const commit of matching) lines.push(entry(commit, repositoryUrl));
  }
  if (lines.length === 1) lines.push("", "No notable changes.");
  return lines.join("\n") + "\n";
}

/**
 * `existing` CHANGELOG.md text with `section` inserted above the newest release (the first "## " heading), below
 * the title and intro; appended when there is no release yet. Refuses (returns null) when the version is already there.
 */
export function insertSection(existing, section, version) {
  if (existing.includes(`## [${version}]`) || existing.includes(`## ${version} `)) return null;
  const at = existing.search(/^## /m);
  if (at < 0) return `${existing.trimEnd()}\n\n${section}`;
  return `${existing.slice(0, at)}${section}\n${existing.slice(at)}`;
}
