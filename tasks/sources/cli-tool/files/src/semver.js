// Semantic versions (semver.org 2.0.0): parsing, formatting, ordering and bumping.
const PATTERN = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z.-]+))?$/;
const NUMERIC = /^\d+$/;

/**
 * Parses "1.4.0", "v2.0.0-rc.1" or "1.0.0+build.7" into { major, minor, patch, prerelease: string[], build };
 * returns null for anything else (a leading "v" is allowed, as git tags carry it).
 */
export function parseVersion(text) {
  const match = PATTERN.exec(String(text).trim());
  if (match === null) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] === undefined ? [] : match[4].split("."),
    build: match[5] ?? "",
  };
}

/** "1.5.0-rc.1" (build metadata is dropped: it does not take part in ordering). */
export function formatVersion(version) {
  const core = `${version.major}.${version.minor}.${version.patch}`;
  return version.prerelease.length > 0 ? `${core}-${version.prerelease.join(".")}` : core;
}

/** Orders two pre-release identifiers (semver §11.4): numbers numerically and below words; words in ASCII order. */
function compareIdentifiers(left, right) {
  const leftNumeric = NUMERIC.test(left);
  const rightNumeric = NUMERIC.test(right);
  if (leftNumeric && rightNumeric) return Math.sign(Number(left) - Number(right));
  if (leftNumeric) return -1;
  if (rightNumeric) return 1;
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

/** -1, 0 or 1 as `a` orders before, with or after `b` (semver §11); a release orders after its pre-releases. */
export function compareVersions(a, b) {
  for (const key of ["major", "minor", "patch"]) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  const left = a.prerelease;
  const right = b.prerelease;
  if (left.length === 0 || right.length === 0) return Math.sign(right.length - left.length);
  for (let index = 0; index < left.length; index += 1) {
    if (index >= right.length) return 1;
    const order = compareIdentifiers(left[index], right[index]);
    if (order !== 0) return order;
  }
  return left.length < right.length ? -1 : 0;
}

/** Versions sorted newest first (a new array). */
export function sortNewestFirst(versions) {
  return [...versions].sort((a, b) => compareVersions(b, a));
}

/**
 * The version after `version` at `level` ("major" | "minor" | "patch" | "prerelease"). Bumping a pre-release to the
 * level it is a pre-release of finishes it (2.0.0-rc.1 → major → 2.0.0), as npm version does. A prerelease bump
 * starts at `<preid>.0` on the next patch, or counts up the last numeric identifier.
 * @throws RangeError for an unknown level.
 */
export function bumpVersion(version, level, preid = "rc") {
  const { major, minor, patch, prerelease } = version;
  const pre = prerelease.length > 0;
  switch (level) {
    case "major":
      return release(pre && minor === 0 && patch === 0 ? major : major + 1, 0, 0);
    case "minor":
      return release(major, pre && patch === 0 ? minor : minor + 1, 0);
    case "patch":
      return release(major, minor, pre ? patch : patch + 1);
    case "prerelease": {
      if (!pre) return { ...release(major, minor, patch + 1), prerelease: [preid, "0"] };
      const last = prerelease[prerelease.length - 1];
      const counted = NUMERIC.test(last) ? [...prerelease.slice(0, -1), String(Number(last) + 1)] : [...prerelease, "0"];
      return { ...release(major, minor, patch), prerelease: counted };
    }
    default:
      throw new RangeError(`unknown bump level "${level}" (expected major, minor, patch or prerelease)`);
  }
}

function release(major, minor, patch) {
  return { major, minor, patch, prerelease: [], build: "" };
}
