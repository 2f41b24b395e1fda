import { describe, it, expect } from "vitest";
import { bumpLevel, levelOf, parseCommitMessage } from "../src/conventional.js";

describe("parseCommitMessage", () => {
  it("reads type, scope and subject", () => {
    expect(parseCommitMessage("Feat(stats): show the release cadence\n\nCloses #41")).toEqual({
      type: "feat",
      scope: "stats",
      subject: "show the release cadence",
      breaking: false,
      breakingNote: null,
    });
    expect(parseCommitMessage("fix: handle tags without a date")).toMatchObject({ type: "fix", scope: null });
  });

  it("marks breaking changes from the ! and from the footer", () => {
    expect(parseCommitMessage("feat(cli)!: drop the --json flag")).toMatchObject({ breaking: true, breakingNote: "drop the --json flag" });
    const footer = "refactor: read the config once\n\nBREAKING CHANGE:  the config file is read from the working directory \n";
    expect(parseCommitMessage(footer)).toMatchObject({ breaking: true, breakingNote: "the config file is read from the working directory" });
    expect(parseCommitMessage("fix!: x\n\nBREAKING-CHANGE: y")).toMatchObject({ breaking: true, breakingNote: "y" });
    expect(parseCommitMessage("fix: x\nBREAKING CHANGE: z")).toMatchObject({ breaking: true, breakingNote: "z" });
  });

  it("returns null for headers that are not conventional", () => {
    expect(parseCommitMessage("Merge branch 'main'")).toBeNull();
    expect(parseCommitMessage("fix:no space")).toBeNull();
    expect(parseCommitMessage("fix(): empty scope")).toBeNull();
  });
});

describe("bump levels", () => {
  const parse = (message) => parseCommitMessage(message);

  it("maps types to levels", () => {
    expect(levelOf(parse("feat: a"))).toBe("minor");
    expect(levelOf(parse("fix: a"))).toBe("patch");
    expect(levelOf(parse("perf: a"))).toBe("patch");
    expect(levelOf(parse("docs: a"))).toBe("none");
    expect(levelOf(parse("docs!: a"))).toBe("major");
  });

  it("takes the strongest level and skips unparsed commits", () => {
    const one = { major: 1, minor: 4, patch: 2 };
    expect(bumpLevel([parse("fix: a"), null, parse("feat: b"), parse("chore: c")], one)).toBe("minor");
    expect(bumpLevel([parse("fix: a"), parse("feat!: b")], one)).toBe("major");
    expect(bumpLevel([parse("chore: a"), null], one)).toBe("none");
    expect(bumpLevel([], one)).toBe("none");
  });

  it("keeps breaking changes to a minor bump before 1.0.0", () => {
    expect(bumpLevel([parse("feat!: b")], { major: 0, minor: 3, patch: 1 })).toBe("minor");
    expect(bumpLevel([parse("fix: b")], { major: 0, minor: 3, patch: 1 })).toBe("patch");
    expect(bumpLevel([parse("feat!: b")])).toBe("major");
  });
});
