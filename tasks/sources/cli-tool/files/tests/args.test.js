import { describe, it, expect } from "vitest";
import { parseArgs } from "../src/args.js";

const spec = {
  limit: { type: "integer", short: "n", default: 10, min: 1, max: 50 },
  format: { type: "string", default: "table", choices: ["table", "json"] },
  from: { type: "string" },
  write: { type: "boolean", short: "w", default: false },
  offset: { type: "integer", default: 0 },
};

describe("parseArgs", () => {
  it("fills defaults", () => {
    expect(parseArgs([], spec)).toEqual({ options: { limit: 10, format: "table", from: undefined, write: false, offset: 0 }, positionals: [] });
  });

  it("reads long, long=value, short and negated options", () => {
    const { options, positionals } = parseArgs(["--limit", "5", "--format=json", "-w", "--from=v1.4.0", "extra"], spec);
    expect(options).toEqual({ limit: 5, format: "json", from: "v1.4.0", write: true, offset: 0 });
    expect(positionals).toEqual(["extra"]);
    expect(parseArgs(["-n", "7", "--write", "--no-write"], spec).options).toMatchObject({ limit: 7, write: false });
    expect(parseArgs(["--from", "a=b"], spec).options.from).toBe("a=b");
  });

  it("stops at -- and keeps a lone - as a positional", () => {
    expect(parseArgs(["-", "--", "--limit", "3"], spec)).toMatchObject({ positionals: ["-", "--limit", "3"], options: { limit: 10 } });
  });

  it("accepts both ends of an integer range and negative numbers without bounds", () => {
    expect(parseArgs(["--limit", "1"], spec).options.limit).toBe(1);
    expect(parseArgs(["--limit=50"], spec).options.limit).toBe(50);
    expect(parseArgs(["--offset", "-3"], spec).options.offset).toBe(-3);
  });

  it("names the option in every usage error", () => {
    const error = (argv) => {
      try {
        parseArgs(argv, spec);
        return null;
      } catch (caught) {
        return [caught.name, caught.exitCode, caught.message];
      }
    };
    expect(error(["--limit", "0"])).toEqual(["UsageError", 2, "--limit must be between 1 and 50, got 0"]);
    expect(error(["--limit", "51"])).toEqual(["UsageError", 2, "--limit must be between 1 and 50, got 51"]);
    expect(error(["--limit", "1.5"])).toEqual(["UsageError", 2, '--limit must be a whole number, got "1.5"']);
    expect(error(["--limit"])).toEqual(["UsageError", 2, "--limit needs a value"]);
    expect(error(["--format", "csv"])).toEqual(["UsageError", 2, '--format must be one of table, json, got "csv"']);
    expect(error(["--colour=always"])).toEqual(["UsageError", 2, "unknown option --colour"]);
    expect(error(["-x"])).toEqual(["UsageError", 2, "unknown option -x"]);
    expect(error(["--write=yes"])).toEqual(["UsageError", 2, "--write takes no value"]);
    expect(error(["--no-limit"])).toEqual(["UsageError", 2, "unknown option --no-limit"]);
  });
});
