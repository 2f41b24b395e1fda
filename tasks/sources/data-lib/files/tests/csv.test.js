import { describe, expect, it } from "vitest";
import { formatCsv, formatField, parseCsv } from "../src/csv.js";

describe("parseCsv", () => {
  it("reads a header and records", () => {
    expect(parseCsv("region,amount\nnorth,12.5\nsouth,7\n")).toEqual([
      { region: "north", amount: "12.5" },
      { region: "south", amount: "7" },
    ]);
  });

  it("reads quoted fields with delimiters, doubled quotes and line breaks", () => {
    const text = 'name,note\n"Smith, J.","said ""hi"""\n"multi\nline",x\n';
    expect(parseCsv(text)).toEqual([
      { name: "Smith, J.", note: 'said "hi"' },
      { name: "multi\nline", note: "x" },
    ]);
  });

  it("accepts CRLF line ends, a byte-order mark and no final line break", () => {
    expect(parseCsv("\uFEFFa,b\r\n1,2\r\n3,4")).toEqual([
      { a: "1", b: "2" },
      { a: "3", b: "4" },
    ]);
    expect(parseCsv("a\r1\r")).toEqual([{ a: "1" }]);
  });

  it("keeps empty fields, including a trailing one", () => {
    expect(parseCsv("a,b,c\n,,\n1,,3\n")).toEqual([
      { a: "", b: "", c: "" },
      { a: "1", b: "", c: "3" },
    ]);
    expect(parseCsv("a,b\n1,")).toEqual([{ a: "1", b: "" }]);
  });

  it("skips blank lines unless asked not to", () => {
    expect(parseCsv("a\n\n1\n  \n2\n")).toEqual([{ a: "1" }, { a: "2" }]);
    expect(parseCsv("a\n\n1\n", { header: false, skipBlankLines: false })).toEqual([["a"], [""], ["1"]]);
  });

  it("returns arrays without a header, and nothing for empty text", () => {
    expect(parseCsv("1;2\n3;4\n", { delimiter: ";", header: false })).toEqual([
      ["1", "2"],
      ["3", "4"],
    ]);
    expect(parseCsv("")).toEqual([]);
    expect(parseCsv("", { header: false })).toEqual([]);
    expect(parseCsv("a,b\n")).toEqual([]);
  });

  it("trims header names and keeps quotes inside unquoted fields", () => {
    expect(parseCsv(' id , name \n7,5" screen\n')).toEqual([{ id: "7", name: '5" screen' }]);
  });

  it("names the line of a row with the wrong number of fields", () => {
    expect(() => parseCsv("a,b\n1,2\n\n3\n")).toThrow('line 4: expected 2 fields, found 1');
    expect(() => parseCsv('a,b\n"x\ny",1\n1,2,3\n')).toThrow("line 4: expected 2 fields, found 3");
  });

  it("refuses unterminated quotes, bad headers and bad delimiters", () => {
    expect(() => parseCsv('a\n1\n"open\n')).toThrow("line 3: unterminated quoted field");
    expect(() => parseCsv("a,a\n1,2\n")).toThrow('line 1: duplicate header "a"');
    expect(() => parseCsv("a,,c\n1,2,3\n")).toThrow("line 1: header column 2 has no name");
    expect(() => parseCsv("a", { delimiter: ";;" })).toThrow('delimiter must be one character other than a quote or a line break, got ";;"');
    expect(() => parseCsv("a", { delimiter: '"' })).toThrow("delimiter must be one character");
    expect(() => parseCsv("a", { delimiter: "\n" })).toThrow("delimiter must be one character");
    expect(() => parseCsv("a", { delimiter: "\r" })).toThrow("delimiter must be one character");
  });
});

describe("formatCsv", () => {
  it("quotes only the fields that need it", () => {
    expect(formatField("plain")).toBe("plain");
    expect(formatField("a,b")).toBe('"a,b"');
    expect(formatField('say "hi"')).toBe('"say ""hi"""');
    expect(formatField("two\nlines")).toBe('"two\nlines"');
    expect(formatField("cr\r")).toBe('"cr\r"');
    expect(formatField(" padded")).toBe('" padded"');
    expect(formatField("a;b", ";")).toBe('"a;b"');
    expect(formatField("a,b", ";")).toBe("a,b");
    expect(formatField(null)).toBe("");
    expect(formatField(undefined)).toBe("");
    expect(formatField(0)).toBe("0");
  });

  it("writes a header and one line per record, in column order", () => {
    const records = [
      { region: "north", amount: 12.5 },
      { region: "south, east", amount: 7 },
    ];
    expect(formatCsv(records)).toBe('region,amount\nnorth,12.5\n"south, east",7\n');
    expect(formatCsv(records, { columns: ["amount", "missing"], delimiter: ";", eol: "\r\n" })).toBe("amount;missing\r\n12.5;\r\n7;\r\n");
    expect(formatCsv([])).toBe("\n");
  });

  it("round-trips through parseCsv", () => {
    const records = [{ name: 'A "quoted", name', note: "line\nbreak" }];
    expect(parseCsv(formatCsv(records))).toEqual(records);
  });
});
