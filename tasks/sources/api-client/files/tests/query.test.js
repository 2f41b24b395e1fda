import { describe, it, expect } from "vitest";
import { buildUrl, encodeComponent, encodeQuery, expandPath, formatValue } from "../src/query.js";

describe("query", () => {
  it("encodes the characters RFC 3986 reserves", () => {
    expect(encodeComponent("a b!*'()")).toBe("a%20b%21%2A%27%28%29");
    expect(encodeComponent("ü/é")).toBe("%C3%BC%2F%C3%A9");
  });

  it("formats dates without milliseconds and booleans as words", () => {
    expect(formatValue(new Date("2026-10-01T08:30:00.123Z"))).toBe("2026-10-01T08:30:00Z");
    expect(formatValue(true)).toBe("true");
    expect(formatValue(false)).toBe("false");
    expect(formatValue(7)).toBe("7");
  });

  it("sorts keys, joins lists with commas and leaves out empty values", () => {
    const query = { state: "open", labels: ["bug", "ui"], since: null, q: undefined, per_page: 25, assignee: [] };
    expect(encodeQuery(query)).toBe("labels=bug,ui&per_page=25&state=open");
    expect(encodeQuery({ labels: ["needs review"] })).toBe("labels=needs%20review");
    expect(encodeQuery({ "a&b": "x=y", closed: false })).toBe("a%26b=x%3Dy&closed=false");
    expect(encodeQuery({ count: 0 })).toBe("count=0");
    expect(encodeQuery()).toBe("");
  });

  it("fills path templates and names a missing parameter", () => {
    expect(expandPath("/projects/{project}/issues/{number}", { project: "web app", number: 7 })).toBe("/projects/web%20app/issues/7");
    expect(expandPath("/projects/{project}/issues/{number}", { project: "web", number: 0 })).toBe("/projects/web/issues/0");
    expect(expandPath("/projects")).toBe("/projects");
    expect(() => expandPath("/projects/{project}/issues/{number}", { project: "web" })).toThrow(
      'path parameter "number" is missing for /projects/{project}/issues/{number}',
    );
    expect(() => expandPath("/projects/{project}", { project: "" })).toThrow(TypeError);
    expect(() => expandPath("/projects/{project}", { project: null })).toThrow(TypeError);
  });

  it("joins base, path and query", () => {
    expect(buildUrl("https://api.linden.example/v3/", "/projects", {})).toBe("https://api.linden.example/v3/projects");
    expect(buildUrl("https://api.linden.example/v3", "/projects", { page: 2 })).toBe("https://api.linden.example/v3/projects?page=2");
  });
});
