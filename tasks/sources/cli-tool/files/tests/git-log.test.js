import { describe, it, expect } from "vitest";
import { parseGitLog, parseTags } from "../src/git-log.js";
import { formatVersion } from "../src/semver.js";

const record = (sha, author, date, message) => `${sha}\x1f${author}\x1f${date}\x1f${message}\x1e`;

describe("parseGitLog", () => {
  it("reads sha, author, date and the whole message of each record, newest first", () => {
    const text = [
      record("5114f85c0a7e4b8d9f21a3c6e0b7d4f1a2c3e4f5", "Lena Vogt", "2026-10-05", "fix(stats): round the mean\n\nTo one decimal.\n"),
      "\n",
      record("a9d2c7e41b0f8e3d6c5b4a39281706f5e4d3c2b1", "Kofi Mensah", "2026-10-02", "feat: x\x1fy"),
    ].join("");
    expect(parseGitLog(text)).toEqual([
      {
        sha: "5114f85c0a7e4b8d9f21a3c6e0b7d4f1a2c3e4f5",
        shortSha: "5114f85",
        author: "Lena Vogt",
        date: "2026-10-05",
        message: "fix(stats): round the mean\n\nTo one decimal.",
      },
      { sha: "a9d2c7e41b0f8e3d6c5b4a39281706f5e4d3c2b1", shortSha: "a9d2c7e", author: "Kofi Mensah", date: "2026-10-02", message: "feat: x\x1fy" },
    ]);
    expect(parseGitLog("")).toEqual([]);
  });

  it("names the record that is not in the expected format", () => {
    expect(() => parseGitLog(record("a1", "Lena", "2026-10-05", "fix: a") + "b2\x1fLena\x1f2026-10-04\x1e")).toThrow(
      "git log record 2 has 3 fields, expected 4 (format %H%x1f%an%x1f%as%x1f%B%x1e)",
    );
    expect(() => parseGitLog(record("a1", "Lena", "05/10/2026", "fix: a"))).toThrow('git log record 1: "05/10/2026" is not a YYYY-MM-DD date');
  });
});

describe("parseTags", () => {
  const tags = "v1.10.1-beta 2026-09-30\nv1.2.0 2026-06-01\nv1.10.0 2026-09-14\nnightly 2026-10-05\nv1.10.0-rc.1 2026-09-10\n\nv1.3.0\nrelease-2 2026-01-01\n";

  it("keeps release tags with the prefix, newest version first", () => {
    expect(parseTags(tags).map((tag) => [tag.tag, formatVersion(tag.version), tag.date])).toEqual([
      ["v1.10.0", "1.10.0", "2026-09-14"],
      ["v1.3.0", "1.3.0", null],
      ["v1.2.0", "1.2.0", "2026-06-01"],
    ]);
  });

  it("keeps pre-releases on request and reads another prefix", () => {
    expect(parseTags(tags, { includePrereleases: true }).map((tag) => tag.tag)).toEqual(["v1.10.1-beta", "v1.10.0", "v1.10.0-rc.1", "v1.3.0", "v1.2.0"]);
    expect(parseTags("release-2.0.0 2026-01-01\nv3.0.0 2026-02-01", { prefix: "release-" }).map((tag) => tag.tag)).toEqual(["release-2.0.0"]);
  });
});
