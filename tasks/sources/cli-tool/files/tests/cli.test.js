import { describe, it, expect } from "vitest";
import { run, usage, VERSION } from "../src/cli.js";
import { commitProblems } from "../src/commands/check.js";
import { summaryLine } from "../src/commands/stats.js";
import { DEFAULTS } from "../src/config.js";
import { parseCommitMessage } from "../src/conventional.js";
import { fakeIo, LOGS, TAGS } from "./support/fake-io.js";

const runWith = (argv, setup) => {
  const fake = fakeIo(setup);
  const code = run(argv, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr(), written: fake.written };
};

describe("relnote (entry)", () => {
  it("prints usage to stderr with exit 2 when no command is given, to stdout for --help", () => {
    expect(runWith([])).toEqual({ code: 2, stdout: "", stderr: usage(), written: new Map() });
    expect(runWith(["--help"])).toMatchObject({ code: 0, stdout: usage(), stderr: "" });
    expect(usage().split("\n").slice(3, 7)).toEqual([
      "  next       print the next version the commits ask for",
      "  changelog  print or write the next changelog section",
      "  stats      list recent releases and the release cadence",
      "  check      lint commit messages since the last release",
    ]);
  });

  it("prints its version", () => {
    expect(runWith(["--version"])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it("refuses an unknown command, option or argument with exit 2", () => {
    expect(runWith(["publish"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^relnote: unknown command "publish"\n\nUsage:/) });
    expect(runWith(["next", "--limit", "3"])).toMatchObject({ code: 2, stdout: "", stderr: "relnote next: unknown option --limit\n" });
    expect(runWith(["stats", "--limit", "51"])).toMatchObject({ code: 2, stderr: "relnote stats: --limit must be between 1 and 50, got 51\n" });
    expect(runWith(["next", "major"])).toMatchObject({ code: 2, stderr: 'relnote next: unexpected argument "major"\n' });
    expect(runWith(["next", "--from", "v9.9.9"])).toMatchObject({
      code: 2,
      stderr: "relnote next: --from v9.9.9 is not a release tag (known: v1.4.2, v1.4.1, v1.4.0)\n",
    });
  });

  it("exits 2 naming the config file when it is broken", () => {
    const broken = runWith(["next", "--config", "ci/relnote.json"], { files: { "ci/relnote.json": '{ "tableWidth": 20 }' } });
    expect(broken).toMatchObject({ code: 2, stdout: "", stderr: 'relnote next: ci/relnote.json: "tableWidth" must be between 40 and 200, got 20\n' });
  });

  it("exits 70 on an internal error", () => {
    expect(runWith(["next"], { logs: {} })).toMatchObject({
      code: 70,
      stderr: "relnote: internal error: unexpected git log v1.4.2..HEAD (a bug: please report it with the command line)\n",
    });
  });
});

describe("relnote next", () => {
  it("prints the version the commits since the last release ask for", () => {
    expect(runWith(["next"])).toMatchObject({ code: 0, stdout: "1.5.0\n", stderr: "" });
    expect(runWith(["next", "--explain"]).stdout).toBe("1.5.0\nminor: 0 breaking, 1 features, 1 fixes since v1.4.2 (3 commits)\n");
    expect(runWith(["next", "-e", "--from", "v1.4.0"]).stdout).toBe("2.0.0\nmajor: 1 breaking, 0 features, 0 fixes since v1.4.0 (1 commits)\n");
  });

  it("counts from the newest pre-release with --pre, or starts one with the preid", () => {
    const logs = { ...LOGS, "v1.5.0-rc.1..HEAD": LOGS["v1.4.2..HEAD"] };
    expect(runWith(["next", "--pre"], { logs })).toMatchObject({ code: 0, stdout: "1.5.0-rc.2\n" });
    const released = TAGS.replace("v1.5.0-rc.1 2026-10-01", "");
    expect(runWith(["next", "--pre", "--preid", "beta"], { tags: released })).toMatchObject({ code: 0, stdout: "1.4.3-beta.0\n" });
    const files = { ".relnoterc.json": '{ "preid": "next" }' };
    expect(runWith(["next", "--pre"], { tags: released, files })).toMatchObject({ code: 0, stdout: "1.4.3-next.0\n" });
  });

  it("reads the range from the only tag there is", () => {
    expect(runWith(["next"], { tags: "v1.4.0 2026-08-01" })).toMatchObject({ code: 0, stdout: "2.0.0\n" });
  });

  it("exits 1 when nothing asks for a release", () => {
    const logs = { ...LOGS, "v1.4.1..HEAD": LOGS["v1.4.1..HEAD"].repeat(2) };
    expect(runWith(["next", "--from", "v1.4.1"], { logs }).stderr).toBe("nothing to release since v1.4.1: 2 commits, none a feat, fix, perf or revert\n");
    expect(runWith(["next", "--from", "v1.4.1"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "nothing to release since v1.4.1: 1 commit, none a feat, fix, perf or revert\n",
      written: new Map(),
    });
  });

  it("starts from 0.0.0 without tags, where a breaking change is a minor bump", () => {
    const logs = { "(all)": LOGS["v1.4.0..HEAD"] + LOGS["v1.4.2..HEAD"] };
    expect(runWith(["next", "--explain"], { tags: "", logs }).stdout).toBe("0.1.0\nminor: 1 breaking, 1 features, 1 fixes since the first commit (4 commits)\n");
  });
});

describe("relnote changelog", () => {
  const config = '{ "repositoryUrl": "https://git.example/relnote" }';

  it("prints the next section dated today", () => {
    expect(runWith(["changelog"], { files: { ".relnoterc.json": config } })).toMatchObject({
      code: 0,
      stdout:
        "## [1.5.0](https://git.example/relnote/compare/v1.4.2...v1.5.0) (2026-10-06)\n\n### Features\n\n" +
        "* **stats:** show the release cadence ([a9d2c7e](https://git.example/relnote/commit/a9d2c7e41b0f8e3d6c5b4a39281706f5e4d3c2b1))\n\n" +
        "### Bug fixes\n\n* handle tags without a date ([5114f85](https://git.example/relnote/commit/5114f85c0a7e4b8d9f21a3c6e0b7d4f1a2c3e4f5))\n",
    });
  });

  it("takes --version and --date, and refuses bad ones with exit 2", () => {
    expect(runWith(["changelog", "--version", "v1.6.0", "--date", "2026-10-09", "--from", "v1.4.1"]).stdout).toBe(
      "## 1.6.0 (2026-10-09)\n\nNo notable changes.\n",
    );
    expect(runWith(["changelog", "--from", "v1.4.1"]).stdout).toBe("## 1.4.1 (2026-10-06)\n\nNo notable changes.\n");
    expect(runWith(["changelog", "--version", "1.6"])).toMatchObject({ code: 2, stderr: "relnote changelog: --version 1.6 is not a semantic version\n" });
    expect(runWith(["changelog", "--date", "2026-02-30"])).toMatchObject({ code: 2, stderr: "relnote changelog: --date 2026-02-30 is not a YYYY-MM-DD day\n" });
  });

  it("writes the section into CHANGELOG.md, once", () => {
    const existing = "# Changelog\n\n## 1.4.2 (2026-09-14)\n\n* y\n";
    const first = runWith(["changelog", "--write"], { files: { "CHANGELOG.md": existing } });
    expect(first).toMatchObject({ code: 0, stdout: "wrote the 1.5.0 section to CHANGELOG.md\n" });
    expect(first.written.get("CHANGELOG.md")).toBe(
      "# Changelog\n\n## 1.5.0 (2026-10-06)\n\n### Features\n\n* **stats:** show the release cadence (a9d2c7e)\n\n### Bug fixes\n\n" +
        "* handle tags without a date (5114f85)\n\n## 1.4.2 (2026-09-14)\n\n* y\n",
    );
    const again = runWith(["changelog", "-w"], { files: { "CHANGELOG.md": first.written.get("CHANGELOG.md") } });
    expect(again).toEqual({ code: 1, stdout: "", stderr: "CHANGELOG.md already has a section for 1.5.0\n", written: new Map() });
    expect(runWith(["changelog", "--write"]).written.get("CHANGELOG.md")).toMatch(/^# Changelog\n\n## 1\.5\.0 \(2026-10-06\)\n/);
  });
});

describe("relnote stats", () => {
  const tags = ["v1.4.2 2026-09-14", "v1.4.1 2026-09-01", "v1.4.0 2026-08-01", "v1.3.0", "v1.2.0 2025-10-06"].join("\n");

  it("lists the releases with their ages and the cadence", () => {
    expect(runWith(["stats"], { tags })).toMatchObject({
      code: 0,
      stdout: [
        "Version  Date        Age           Days since previous",
        "-------  ----------  ------------  -------------------",
        "1.4.2    2026-09-14  3 weeks ago                    13",
        "1.4.1    2026-09-01  5 weeks ago                    31",
        "1.4.0    2026-08-01  2 months ago",
        "1.3.0    ?           ?",
        "1.2.0    2025-10-06  a year ago",
        "",
        "4 releases, median 31 days apart (mean 114.3), 1 a month; last one 3 weeks ago",
        "",
      ].join("\n"),
    });
  });

  it("shows 10 releases by default, and the gap to a previous release that is not shown", () => {
    const many = Array.from({ length: 12 }, (_, index) => `v1.${index}.0 2026-0${(index % 9) + 1}-01`).join("\n");
    expect(runWith(["stats"], { tags: many }).stdout.split("\n").filter((line) => /^1\.\d+\.0 /.test(line))).toHaveLength(10);
    expect(JSON.parse(runWith(["stats", "-n", "1", "--format", "json"], { tags: "v1.4.2 2026-09-14\nv1.4.1 2026-09-01" }).stdout).releases[0].gap).toBe("13");
  });

  it("fits a narrow terminal", () => {
    const files = { ".relnoterc.json": '{ "tableWidth": 40 }' };
    expect(runWith(["stats", "-n", "2"], { tags, files }).stdout.split("\n").slice(0, 4)).toEqual([
      "Version  Date        Age       Days sin…",
      "-------  ----------  --------  ---------",
      "1.4.2    2026-09-14  3 weeks…         13",
      "1.4.1    2026-09-01  5 weeks…         31",
    ]);
  });

  it("limits the rows and prints JSON on request", () => {
    expect(runWith(["stats", "--format", "json"], { tags }).stdout).toMatch(/^\{\n {2}"releases": \[\n {4}\{\n {6}"version": "1\.4\.2",/);
    const json = JSON.parse(runWith(["stats", "-n", "1", "--format", "json"], { tags }).stdout);
    expect(json.releases).toEqual([{ version: "1.4.2", date: "2026-09-14", age: "3 weeks ago", gap: "13" }]);
    expect(json.summary).toMatchObject({ releases: 4, medianDays: 31, daysSinceLast: 22, stale: false });
  });

  it("fails with --fail-if-stale only when the last release is older than staleAfterDays", () => {
    const files = { ".relnoterc.json": '{ "staleAfterDays": 21 }' };
    expect(runWith(["stats", "--fail-if-stale"], { tags, files })).toMatchObject({ code: 1, stdout: expect.stringContaining("last one 3 weeks ago (stale)\n") });
    expect(runWith(["stats", "--fail-if-stale"], { tags, files: { ".relnoterc.json": '{ "staleAfterDays": 22 }' } }).code).toBe(0);
    expect(runWith(["stats"], { tags, files }).code).toBe(0);
  });

  it("words the summary for one release and none", () => {
    expect(summaryLine({ releases: 0 })).toBe("no releases yet");
    expect(summaryLine({ releases: 1, medianDays: null, perMonth: 0.3, daysSinceLast: 1, stale: false })).toBe("1 release, 0.3 a month; last one yesterday");
  });
});

describe("relnote check", () => {
  it("lists every problem and exits 1 above --max-problems", () => {
    const result = runWith(["check"]);
    expect(result).toMatchObject({ code: 1, stderr: "1 problem in 3 commits since v1.4.2 (at most 0 allowed)\n" });
    expect(result.stdout).toBe(
      ["Commit   Author     Problem", "-------  ---------  -------------------------------------------------------", "0c1d2e3  Ravi Iyer  not a conventional commit header (type(scope): subject)", ""].join("\n"),
    );
    expect(runWith(["check", "--max-problems", "1"])).toMatchObject({ code: 0, stderr: "", stdout: expect.stringMatching(/1 problem in 3 commits since v1\.4\.2, within the limit of 1\n$/) });
    expect(runWith(["check", "--from", "v1.4.1"])).toMatchObject({ code: 0, stdout: "1 commits since v1.4.1: all conventional\n" });
    expect(runWith(["check", "--max-problems", "1000"]).code).toBe(0);
    expect(runWith(["check", "--max-problems", "1001"])).toMatchObject({ code: 2, stderr: "relnote check: --max-problems must be between 0 and 1000, got 1001\n" });
    expect(runWith(["check", "--max-problems", "-1"])).toMatchObject({ code: 2, stderr: "relnote check: --max-problems must be between 0 and 1000, got -1\n" });
  });

  it("fits its table to a narrow terminal and counts problems in the plural", () => {
    const logs = { ...LOGS, "v1.4.2..HEAD": LOGS["v1.4.2..HEAD"].repeat(2) };
    const result = runWith(["check"], { logs, files: { ".relnoterc.json": '{ "tableWidth": 40 }' } });
    expect(result.stdout.split("\n").slice(0, 3)).toEqual([
      "Commit   Author     Problem",
      "-------  ---------  --------------------",
      "0c1d2e3  Ravi Iyer  not a conventional …",
    ]);
    expect(result.stderr).toBe("2 problems in 6 commits since v1.4.2 (at most 0 allowed)\n");
  });

  it("checks the header length, the type and the subject's case and period", () => {
    const problems = (message) => commitProblems({ message, parsed: parseCommitMessage(message) }, DEFAULTS);
    expect(problems(`fix: ${"x".repeat(67)}`)).toEqual([]);
    expect(problems(`fix: ${"x".repeat(68)}`)).toEqual(["header is 73 characters (max 72)"]);
    expect(problems("feature: Add stats.")).toEqual(['unknown type "feature"', "subject ends with a period", "subject starts with a capital letter"]);
    expect(problems("fix: SQL quoting")).toEqual([]);
    expect(problems(`Update ${"y".repeat(70)}`)).toEqual(["header is 77 characters (max 72)", "not a conventional commit header (type(scope): subject)"]);
  });
});
