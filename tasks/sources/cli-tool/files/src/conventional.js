// Conventional Commits 1.0.0: commit headers parsed into type, scope, subject and breaking change; the bump they ask for.
const HEADER = /^([a-zA-Z]+)(?:\(([^()\s]+)\))?(!)?: (\S.*)$/;
const BREAKING_FOOTER = /^BREAKING[ -]CHANGE: (.+)$/m;

/** Types that ask for a patch release; "feat" asks for a minor one; everything else for none. */
export const PATCH_TYPES = ["fix", "perf", "revert"];

/** Bump levels, weakest first. */
export const LEVELS = ["none", "patch", "minor", "major"];

/**
 * Parses a full commit message. Returns { type, scope, subject, breaking, breakingNote } or null when the header is
 * not a conventional one. The type is lower-cased; `breakingNote` is the BREAKING CHANGE footer's text, else the
 * subject when the header carries "!", else null.
 */
export function parseCommitMessage(message) {
  const lines = String(message).split("\n");
  const match = HEADER.exec(lines[0].trim());
  if (match === null) return null;
  const footer = BREAKING_FOOTER.exec(lines.slice(1).join("\n"));
  const subject = match[4].trim();
  const bang = match[3] === "!";
  return {
    type: match[1].toLowerCase(),
    scope: match[2] ?? null,
    subject,
    breaking: bang || footer !== null,
    breakingNote: footer !== null ? footer[1].trim() : bang ? subject : null,
  };
}

/** The bump level one parsed commit asks for. */
export function levelOf(commit) {
  if (commit.breaking) return "major";
  if (commit.type === "feat") return "minor";
  return PATCH_TYPES.includes(commit.type) ? "patch" : "none";
}

/**
 * The strongest level any of `commits` (parsed; null entries are skipped) asks for. Before 1.0.0 (`major` of the
 * current version is 0) a breaking change asks for a minor bump only, as semver §4 leaves 0.x unstable.
 */
export function bumpLevel(commits, current) {
  let strongest = 0;
  for (const commit of commits) {
    if (commit === null) continue;
    strongest = Math.max(strongest, LEVELS.indexOf(levelOf(commit)));
  }
  if (current !== undefined && current.major === 0 && strongest > 2) return LEVELS[2];
  return LEVELS[strongest];
}
