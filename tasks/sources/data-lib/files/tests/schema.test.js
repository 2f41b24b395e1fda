import { describe, expect, it } from "vitest";
import { coerceRecords, parseNumber } from "../src/schema.js";

describe("parseNumber", () => {
  it("reads numbers with either decimal mark and thousands separators", () => {
    expect(parseNumber("1,234.50")).toBe(1234.5);
    expect(parseNumber("1.234,5", ",")).toBe(1234.5);
    expect(parseNumber("1 234 567")).toBe(1234567);
    expect(parseNumber("1'000")).toBe(1000);
    expect(parseNumber(" -3.5 ")).toBe(-3.5);
    expect(parseNumber("+.5")).toBe(0.5);
    expect(parseNumber("2.")).toBe(2);
    expect(parseNumber("1e3")).toBe(1000);
    expect(parseNumber("0,5", ",")).toBe(0.5);
  });

  it("returns null for what is not a number", () => {
    expect(parseNumber("abc")).toBe(null);
    expect(parseNumber("1.2.3")).toBe(null);
    expect(parseNumber("")).toBe(null);
    expect(parseNumber("0x10")).toBe(null);
    expect(parseNumber("Infinity")).toBe(null);
  });
});

const schema = {
  sku: { type: "string", required: true, maxLength: 8 },
  quantity: { type: "integer", min: 0, max: 999 },
  price: { type: "number", min: 0.01 },
  active: { type: "boolean", default: true },
  since: { type: "date" },
  tier: { type: "enum", values: ["gold", "silver"] },
};

describe("coerceRecords", () => {
  it("coerces every type and drops fields not in the schema", () => {
    const { records, errors } = coerceRecords(
      [{ sku: " MUG-1 ", quantity: "12", price: "9.99", active: "No", since: "2026-02-28", tier: "gold", extra: "x" }],
      schema,
    );
    expect(errors).toEqual([]);
    expect(records).toEqual([{ sku: "MUG-1", quantity: 12, price: 9.99, active: false, since: new Date("2026-02-28T00:00:00Z"), tier: "gold" }]);
  });

  it("fills defaults and nulls for empty fields", () => {
    const { records } = coerceRecords([{ sku: "A", quantity: "", price: " ", active: "", since: "", tier: "" }], schema);
    expect(records).toEqual([{ sku: "A", quantity: null, price: null, active: true, since: null, tier: null }]);
  });

  it("reads yes/no words", () => {
    const flags = ["true", "YES", "y", "1", "false", "no", "N", "0"].map((word) => ({ flag: word }));
    const { records } = coerceRecords(flags, { flag: { type: "boolean" } });
    expect(records.map((record) => record.flag)).toEqual([true, true, true, true, false, false, false, false]);
    expect(() => coerceRecords([{ flag: "maybe" }], { flag: { type: "boolean" } })).toThrow('line 2, field "flag": "maybe" is not a yes/no value');
  });

  it("accepts values on the inclusive bounds and refuses those past them", () => {
    const ok = coerceRecords([{ sku: "12345678", quantity: "0", price: "0.01" }, { sku: "B", quantity: "999", price: "5" }], schema);
    expect(ok.records.map((record) => [record.sku, record.quantity, record.price])).toEqual([
      ["12345678", 0, 0.01],
      ["B", 999, 5],
    ]);
    expect(() => coerceRecords([{ sku: "123456789" }], schema)).toThrow('line 2, field "sku": is longer than 8 characters');
    expect(() => coerceRecords([{ sku: "A", quantity: "-1" }], schema)).toThrow('field "quantity": -1 is below the minimum 0');
    expect(() => coerceRecords([{ sku: "A", quantity: "1000" }], schema)).toThrow('field "quantity": 1000 is above the maximum 999');
    expect(() => coerceRecords([{ sku: "A", price: "0.009" }], schema)).toThrow('field "price": 0.009 is below the minimum 0.01');
  });

  it("names the line and field of the first problem", () => {
    const rows = [{ sku: "A" }, { sku: "B", quantity: "2.5" }, { sku: "" }];
    expect(() => coerceRecords(rows, schema)).toThrow('line 3, field "quantity": "2.5" is not a whole number');
    expect(() => coerceRecords(rows, schema, { firstLine: 10 })).toThrow("line 11,");
    expect(() => coerceRecords([{ sku: "A", price: "cheap" }], schema)).toThrow('"cheap" is not a number');
    expect(() => coerceRecords([{ sku: "A", since: "2026-02-29" }], schema)).toThrow('"2026-02-29" is not a date (YYYY-MM-DD)');
    expect(() => coerceRecords([{ sku: "A", tier: "bronze" }], schema)).toThrow('"bronze" is not one of gold, silver');
  });

  it("collects every problem and keeps only the good records", () => {
    const rows = [{ sku: "A", quantity: "1" }, { sku: "", quantity: "x" }, { sku: "C", tier: "gold" }];
    const { records, errors } = coerceRecords(rows, schema, { collect: true });
    expect(records.map((record) => record.sku)).toEqual(["A", "C"]);
    expect(errors.map((error) => [error.line, error.field, error.message])).toEqual([
      [3, "sku", 'line 3, field "sku": is required'],
      [3, "quantity", 'line 3, field "quantity": "x" is not a number'],
    ]);
  });

  it("reads decimal commas when told to", () => {
    const { records } = coerceRecords([{ price: "1.299,90" }], { price: { type: "number" } }, { decimal: "," });
    expect(records).toEqual([{ price: 1299.9 }]);
  });

  it("refuses an unknown type", () => {
    expect(() => coerceRecords([{ a: "1" }], { a: { type: "money" } })).toThrow('unknown type "money"');
  });
});
