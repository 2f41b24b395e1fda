import { describe, it, expect } from "vitest";
import { insertSection, renderSection } from "../src/changelog-section.js";
import { parseCommitMessage } from "../src/conventional.js";

const commit = (message, sha) => ({ ...parseCommitMessage(message), sha, shortSha: sha.slice(0, 7) });
const commits = [
  commit("feat(stats): show the release cadence", "a9d2c7e41b0f8e3d"),
  commit("fix: handle tags without a date", "5114f85c0a7e4b8d"),
  commit("docs: explain the config file", "0c1d2e3f4a5b6c7d"),
  commit("feat(cli)!: drop the --json flag\n\nBREAKING CHANGE: use --format json", "77e1b0a9c8d7e6f5"),
  null,
];

describe("renderSection", () => {
  it("prints breaking changes first, then features and fixes, with links", () => {
    expect(
      renderSection({ version: "2.0.0", previousTag: "v1.4.2", date: "2026-10-06", commits, repositoryUrl: "https://git.example/relnote" }),
    ).toBe(
      [
        "## [2.0.0](https://git.example/relnote/compare/v1.4.2...v2.0.0) (2026-10-06)",
        "",
        "### ⚠ BREAKING CHANGES",
        "",
        "* **cli:** use --format json ([77e1b0a](https://git.example/relnote/commit/77e1b0a9c8d7e6f5))",
        "",
        "### Features",
        "",
        "* **stats:** show the release cadence ([a9d2c7e](https://git.example/relnote/commit/a9d2c7e41b0f8e3d))",
        "* **cli:** drop the --json flag ([77e1b0a](https://git.example/relnote/commit/77e1b0a9c8d7e6f5))",
        "",
        "### Bug fixes",
        "",
        "* handle tags without a date ([5114f85](https://git.example/relnote/commit/5114f85c0a7e4b8d))",
        "",
      ].join("\n"),
    );
  });

  it("prints a plain heading without a repository or a previous tag, and says when nothing is notable", () => {
    expect(renderSection({ version: "0.1.0", date: "2026-10-06", commits: [commits[1]] })).toBe(
      "## 0.1.0 (2026-10-06)\n\n### Bug fixes\n\n* handle tags without a date (5114f85)\n",
    );
    expect(renderSection({ version: "1.0.1", previousTag: "v1.0.0", date: "2026-10-06", commits: [commits[2]] })).toBe(
      "## 1.0.1 (2026-10-06)\n\nNo notable changes.\n",
    );
  });

  it("cuts subjects longer than 100 characters", () => {
    const long = commit(`perf: ${"a".repeat(101)}`, "1234567890abcdef");
    expect(renderSection({ version: "1.0.1", date: "2026-10-06", commits: [long] })).toContain(`* ${"a".repeat(99)}… (1234567)`);
    const exact = commit(`perf: ${"b".repeat(100)}`, "1234567890abcdef");
    expect(renderSection({ version: "1.0.1", date: "2026-10-06", commits: [exact] })).toContain(`* ${"b".repeat(100)} (1234567)`);
  });
});

describe("insertSection", () => {
  const section = "## 1.5.0 (2026-10-06)\n\n### Features\n\n* x (abc1234)\n";

  it("goes above the newest release, below the title", () => {
    const existing = "# Changelog\n\nAll notable changes.\n\n## 1.4.2 (2026-09-14)\n\n* y\n";
    expect(insertSection(existing, section, "1.5.0")).toBe(
      "# Changelog\n\nAll notable changes.\n\n## 1.5.0 (2026-10-06)\n\n### Features\n\n* x (abc1234)\n\n## 1.4.2 (2026-09-14)\n\n* y\n",
    );
  });

  it("is appended when there is no release yet, and refused when the version is there", () => {
    expect(insertSection("# Changelog\n\n", section, "1.5.0")).toBe(`# Changelog\n\n${section}`);
    expect(insertSection("## 1.4.2 (2026-09-14)\n", section, "1.5.0")).toBe(`${section}\n## 1.4.2 (2026-09-14)\n`);
    expect(insertSection("# Changelog\n\n## 1.5.0 (2026-10-01)\n", section, "1.5.0")).toBeNull();
    expect(insertSection("# Changelog\n\n## [1.5.0](https://x) (2026-10-01)\n", section, "1.5.0")).toBeNull();
    expect(insertSection("# Changelog\n\n## 1.5.01 (2026-10-01)\n", section, "1.5.0")).not.toBeNull();
  });
});
