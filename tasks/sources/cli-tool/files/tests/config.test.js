import { describe, it, expect } from "vitest";
import { DEFAULTS, loadConfig, parseConfig } from "../src/config.js";

const message = (text) => {
  try {
    parseConfig(text, "team.json");
    return null;
  } catch (error) {
    return `${error.name} ${error.exitCode}: ${error.message}`;
  }
};

describe("parseConfig", () => {
  it("merges the file over the defaults", () => {
    const config = parseConfig('{ "tagPrefix": "release-", "tableWidth": 100, "repositoryUrl": "https://git.example/relnote/" }');
    expect(config).toEqual({ ...DEFAULTS, tagPrefix: "release-", tableWidth: 100, repositoryUrl: "https://git.example/relnote" });
    expect(parseConfig('{ "repositoryUrl": null }').repositoryUrl).toBeNull();
  });

  it("has documented defaults", () => {
    expect(DEFAULTS).toMatchObject({ tagPrefix: "v", preid: "rc", repositoryUrl: null, maxHeaderLength: 72, staleAfterDays: 90, tableWidth: 80 });
    expect(parseConfig('{ "types": ["feat", "fix"] }').types).toEqual(["feat", "fix"]);
  });

  it("accepts both ends of every bound", () => {
    expect(parseConfig('{ "maxHeaderLength": 50, "staleAfterDays": 1, "tableWidth": 40 }')).toMatchObject({ maxHeaderLength: 50, staleAfterDays: 1, tableWidth: 40 });
    expect(parseConfig('{ "maxHeaderLength": 120, "staleAfterDays": 3650, "tableWidth": 200 }')).toMatchObject({ maxHeaderLength: 120, staleAfterDays: 3650, tableWidth: 200 });
  });

  it("names the file and the key of every problem", () => {
    expect(message("{ tagPrefix: 'v' }")).toMatch(/^ConfigError 2: team\.json: not valid JSON \(/);
    expect(message("[]")).toBe("ConfigError 2: team.json: must hold a JSON object");
    expect(message("null")).toBe("ConfigError 2: team.json: must hold a JSON object");
    expect(message('{ "tagprefix": "v" }')).toBe('ConfigError 2: team.json: unknown key "tagprefix"');
    expect(message('{ "tableWidth": 39 }')).toBe('ConfigError 2: team.json: "tableWidth" must be between 40 and 200, got 39');
    expect(message('{ "tableWidth": 201 }')).toBe('ConfigError 2: team.json: "tableWidth" must be between 40 and 200, got 201');
    expect(message('{ "staleAfterDays": 0 }')).toBe('ConfigError 2: team.json: "staleAfterDays" must be between 1 and 3650, got 0');
    expect(message('{ "maxHeaderLength": 121 }')).toBe('ConfigError 2: team.json: "maxHeaderLength" must be between 50 and 120, got 121');
    expect(message('{ "maxHeaderLength": 49 }')).toBe('ConfigError 2: team.json: "maxHeaderLength" must be between 50 and 120, got 49');
    expect(message('{ "staleAfterDays": 3651 }')).toBe('ConfigError 2: team.json: "staleAfterDays" must be between 1 and 3650, got 3651');
    expect(message('{ "tableWidth": 80.5 }')).toBe('ConfigError 2: team.json: "tableWidth" must be a whole number');
    expect(message('{ "types": [] }')).toBe('ConfigError 2: team.json: "types" must be a non-empty list of strings');
    expect(message('{ "types": ["feat", 3] }')).toBe('ConfigError 2: team.json: "types" must be a non-empty list of strings');
    expect(message('{ "types": "feat" }')).toBe('ConfigError 2: team.json: "types" must be a non-empty list of strings');
    expect(message('{ "repositoryUrl": "git@git.example:relnote" }')).toBe('ConfigError 2: team.json: "repositoryUrl" must start with http:// or https://');
    expect(message('{ "preid": 7 }')).toBe('ConfigError 2: team.json: "preid" must be a string');
  });
});

describe("loadConfig", () => {
  it("uses the defaults when the file is missing and names the file it read", () => {
    const reads = [];
    const missing = (path) => {
      reads.push(path);
      return null;
    };
    expect(loadConfig(missing)).toEqual(DEFAULTS);
    expect(reads).toEqual([".relnoterc.json"]);
    expect(() => loadConfig(() => "{", "ci/relnote.json")).toThrow(/^ci\/relnote\.json: not valid JSON/);
    expect(loadConfig(() => '{ "preid": "beta" }', "x.json").preid).toBe("beta");
  });
});
