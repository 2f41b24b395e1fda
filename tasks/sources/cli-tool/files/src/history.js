// What the commands read from git: the release tags and the commits since the newest one, parsed.
import { parseCommitMessage } from "./conventional.js";
import { UsageError } from "./errors.js";
import { parseGitLog, parseTags } from "./git-log.js";

/**
 * The tags (newest first), the tag the range starts from (`from`, else the newest release tag, else null for the
 * whole history) and the commits after it, newest first, each with `parsed` (null when not conventional).
 * `git` is the injected reader: { tags() → text, log(range | null) → text }.
 * @throws UsageError when `from` is not one of the release tags; InputError from the git output's parsers.
 */
export function readHistory(git, config, { from = null, includePrereleases = false } = {}) {
  const tags = parseTags(git.tags(), { prefix: config.tagPrefix, includePrereleases });
  let start = tags.length > 0 ? tags[0] : null;
  if (from !== null) {
    start = tags.find((tag) => tag.tag === from) ?? null;
    if (start === null) throw new UsageError(`--from ${from} is not a release tag (known: ${tags.map((tag) => tag.tag).join(", ") || "none"})`);
  }
  const commits = parseGitLog(git.log(start === null ? null : `${start.tag}..HEAD`)).map((commit) => ({
    ...commit,
    parsed: parseCommitMessage(commit.message),
  }));
  return { tags, start, commits };
}

/** The parsed commits of `commits` with their sha (for changelog links); unparsed ones are left out. */
export function parsedCommits(commits) {
  return commits.filter((commit) => commit.parsed !== null).map((commit) => ({ ...commit.parsed, sha: commit.sha, shortSha: commit.shortSha }));
}
