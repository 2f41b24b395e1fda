import { describe, it, expect } from "vitest";
import { pad, renderTable, truncate } from "../src/table.js";

describe("truncate and pad", () => {
  it("cuts with an ellipsis only past the limit", () => {
    expect(truncate("release", 7)).toBe("release");
    expect(truncate("release", 6)).toBe("relea…");
    expect(truncate("release", 1)).toBe("…");
    expect(truncate("release", 0)).toBe("");
    expect(truncate(12345, 4)).toBe("123…");
  });

  it("pads left or right", () => {
    expect(pad("7", 3, "right")).toBe("  7");
    expect(pad("7", 3)).toBe("7  ");
  });
});

describe("renderTable", () => {
  const columns = [
    { key: "version", header: "Version" },
    { key: "gap", header: "Days", align: "right" },
    { key: "note", header: "Note" },
  ];
  const rows = [
    { version: "1.10.0", gap: 14, note: "stats command" },
    { version: "1.9.0", gap: 3, note: "" },
  ];

  it("sizes columns to the widest cell and aligns them", () => {
    expect(renderTable(rows, columns)).toBe(
      ["Version  Days  Note", "-------  ----  -------------", "1.10.0     14  stats command", "1.9.0       3"].join("\n"),
    );
  });

  it("shrinks the widest column to fit the width, not below its minimum", () => {
    expect(renderTable(rows, columns, { width: 25 })).toBe(
      ["Version  Days  Note", "-------  ----  ----------", "1.10.0     14  stats com…", "1.9.0       3"].join("\n"),
    );
    const narrow = renderTable(rows, columns, { width: 10 });
    expect(narrow.split("\n")[1]).toBe("------  ----  ------");
    expect(narrow.split("\n")[2]).toBe("1.10.0    14  stats…");
  });

  it("shrinks the leftmost of equally wide columns first, and fits 80 characters by default", () => {
    const tie = [{ version: "1.10.0", gap: 1, note: "stats c" }];
    expect(renderTable(tie, columns, { width: 21 }).split("\n")[0]).toBe("Versi…  Days  Note");
    const wide = [{ version: "1", gap: 1, note: "n".repeat(70) }];
    expect(renderTable(wide, columns).split("\n")[2]).toBe(`1${" ".repeat(11)}1  ${"n".repeat(64)}…`);
    expect(renderTable([{ version: "1", gap: 1, note: "n".repeat(67) }], columns).split("\n")[2]).toHaveLength(80);
  });

  it("prints only the header and rule for no rows", () => {
    expect(renderTable([], columns, { width: 80 })).toBe("Version  Days  Note\n-------  ----  ----");
  });
});
