import { describe, it, expect } from "vitest";
import { InvalidRequestError, ResponseShapeError } from "../src/errors.js";
import { checkDraft, issueProblems, parseIssue } from "../src/validate.js";

const raw = {
  number: 42,
  title: "Login fails with SSO",
  state: "open",
  priority: "p1",
  labels: ["bug", "auth"],
  created_at: "2026-10-01T08:30:00Z",
  closed_at: null,
};

describe("validate", () => {
  it("turns a well-formed issue into the client's shape", () => {
    expect(parseIssue(raw)).toEqual({
      number: 42,
      title: "Login fails with SSO",
      state: "open",
      priority: "p1",
      labels: ["bug", "auth"],
      createdAt: Date.parse("2026-10-01T08:30:00Z"),
      closedAt: null,
    });
    const closed = parseIssue({ ...raw, state: "closed", closed_at: "2026-10-02T10:00:00Z", priority: null });
    expect([closed.closedAt, closed.priority]).toEqual([Date.parse("2026-10-02T10:00:00Z"), null]);
  });

  it("names every field at fault", () => {
    expect(issueProblems(null)).toEqual(["issue is not an object"]);
    expect(issueProblems("42")).toEqual(["issue is not an object"]);
    expect(issueProblems({ ...raw, number: 1 })).toEqual([]);
    expect(issueProblems({ ...raw, number: 0 })).toEqual(["number must be a positive integer"]);
    expect(issueProblems({ ...raw, number: 1.5 })).toEqual(["number must be a positive integer"]);
    expect(issueProblems({ ...raw, title: "" })).toEqual(["title must be a non-empty string"]);
    expect(issueProblems({ ...raw, state: "merged", priority: "p4" })).toEqual([
      "state must be one of open, closed",
      "priority must be null or one of p0, p1, p2, p3",
    ]);
    expect(issueProblems({ ...raw, labels: "bug" })).toEqual(["labels must be a list of strings"]);
    expect(issueProblems({ ...raw, labels: ["bug", 3] })).toEqual(["labels must be a list of strings"]);
    expect(issueProblems({ ...raw, created_at: "yesterday" })).toEqual(["created_at must be an ISO timestamp"]);
    expect(issueProblems({ ...raw, closed_at: "later" })).toEqual(["closed_at must be null or an ISO timestamp"]);
    expect(issueProblems({ ...raw, state: "closed" })).toEqual(["a closed issue needs closed_at"]);
  });

  it("throws a ResponseShapeError listing the problems", () => {
    let caught;
    try {
      parseIssue({ ...raw, number: -1, state: "gone" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ResponseShapeError);
    expect(caught.message).toBe("unexpected issue in response: number must be a positive integer; state must be one of open, closed");
    expect(caught.problems).toHaveLength(2);
    expect(() => parseIssue({ ...raw, number: 0 })).toThrow("unexpected issue in response: number must be a positive integer");
  });

  it("trims a draft and drops duplicate labels", () => {
    expect(checkDraft({ title: "  Login fails  ", labels: ["bug", "bug", "auth"] })).toEqual({
      title: "Login fails",
      body: "",
      labels: ["bug", "auth"],
      priority: null,
    });
    expect(checkDraft({ title: "x".repeat(256), labels: Array.from({ length: 20 }, (_, i) => `l${i}`), priority: "p3" }).labels).toHaveLength(20);
  });

  it("refuses a bad draft before sending it", () => {
    const fieldsOf = (draft) => {
      try {
        checkDraft(draft);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        return { message: error.message, fields: error.fields, status: error.status };
      }
    };
    expect(fieldsOf({}).fields).toEqual({ title: "is required" });
    expect(fieldsOf({ title: "   " })).toEqual({ message: "invalid issue draft: title", fields: { title: "is required" }, status: null });
    expect(fieldsOf({ title: "x".repeat(257) }).fields).toEqual({ title: "is longer than 256 characters" });
    expect(fieldsOf({ title: "ok", labels: Array.from({ length: 21 }, (_, i) => `l${i}`), priority: "p5" })).toEqual({
      message: "invalid issue draft: labels, priority",
      fields: { labels: "has more than 20 labels", priority: "must be one of p0, p1, p2, p3" },
      status: null,
    });
  });
});
