import { describe, it, expect } from "vitest";
import { bumpVersion, compareVersions, formatVersion, parseVersion, sortNewestFirst } from "../src/semver.js";

const v = (text) => parseVersion(text);

describe("parseVersion", () => {
  it("reads major, minor, patch, pre-release and build", () => {
    expect(v("v2.10.3-rc.1+build.7")).toEqual({ major: 2, minor: 10, patch: 3, prerelease: ["rc", "1"], build: "build.7" });
    expect(v(" 1.4.0 ")).toEqual({ major: 1, minor: 4, patch: 0, prerelease: [], build: "" });
  });

  it("refuses leading zeros, missing parts and words", () => {
    expect(v("01.2.3")).toBeNull();
    expect(v("1.2")).toBeNull();
    expect(v("nightly")).toBeNull();
    expect(v("1.2.3-")).toBeNull();
  });
});

describe("formatVersion", () => {
  it("prints the pre-release after a dash and drops the build", () => {
    expect(formatVersion(v("1.5.0-beta"))).toBe("1.5.0-beta");
    expect(formatVersion(v("1.5.0-rc.2+sha.5114f85"))).toBe("1.5.0-rc.2");
    expect(formatVersion(v("v1.5.0"))).toBe("1.5.0");
  });
});

describe("compareVersions", () => {
  it("orders by major, then minor, then patch", () => {
    expect(compareVersions(v("2.0.0"), v("1.9.9"))).toBe(1);
    expect(compareVersions(v("1.2.0"), v("1.10.0"))).toBe(-1);
    expect(compareVersions(v("1.2.4"), v("1.2.3"))).toBe(1);
    expect(compareVersions(v("1.2.3"), v("1.2.4"))).toBe(-1);
    expect(compareVersions(v("1.2.3"), v("v1.2.3"))).toBe(0);
  });

  it("puts a release after its pre-releases", () => {
    expect(compareVersions(v("1.0.0"), v("1.0.0-rc.1"))).toBe(1);
    expect(compareVersions(v("1.0.0-rc.1"), v("1.0.0"))).toBe(-1);
  });

  it("follows semver's pre-release precedence example", () => {
    const ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"];
    for (let index = 1; index < ordered.length; index += 1) {
      expect([ordered[index - 1], ordered[index], compareVersions(v(ordered[index - 1]), v(ordered[index]))]).toEqual([ordered[index - 1], ordered[index], -1]);
      expect(compareVersions(v(ordered[index]), v(ordered[index - 1]))).toBe(1);
    }
    expect(compareVersions(v("1.0.0-rc.1"), v("1.0.0-rc.1"))).toBe(0);
    expect(compareVersions(v("1.0.0-2"), v("1.0.0-10"))).toBe(-1);
  });

  it("sorts newest first without touching the input", () => {
    const input = [v("1.2.0"), v("1.10.0"), v("1.10.0-rc.1"), v("0.9.0")];
    expect(sortNewestFirst(input).map(formatVersion)).toEqual(["1.10.0", "1.10.0-rc.1", "1.2.0", "0.9.0"]);
    expect(input.map(formatVersion)).toEqual(["1.2.0", "1.10.0", "1.10.0-rc.1", "0.9.0"]);
  });
});

describe("bumpVersion", () => {
  const bump = (text, level, preid) => formatVersion(bumpVersion(v(text), level, preid));

  it("bumps releases at each level and resets the lower parts", () => {
    expect(bump("1.4.2", "major")).toBe("2.0.0");
    expect(bump("1.4.2", "minor")).toBe("1.5.0");
    expect(bump("1.4.2", "patch")).toBe("1.4.3");
  });

  it("finishes a pre-release of the same level instead of skipping a version", () => {
    expect(bump("2.0.0-rc.1", "major")).toBe("2.0.0");
    expect(bump("2.1.0-rc.1", "major")).toBe("3.0.0");
    expect(bump("2.0.1-rc.1", "major")).toBe("3.0.0");
    expect(bump("1.5.0-rc.1", "minor")).toBe("1.5.0");
    expect(bump("1.5.1-rc.1", "minor")).toBe("1.6.0");
    expect(bump("1.5.1-rc.1", "patch")).toBe("1.5.1");
  });

  it("starts and counts pre-releases", () => {
    expect(bump("1.4.2", "prerelease")).toBe("1.4.3-rc.0");
    expect(bump("1.4.2", "prerelease", "beta")).toBe("1.4.3-beta.0");
    expect(bump("1.4.3-rc.0", "prerelease")).toBe("1.4.3-rc.1");
    expect(bump("1.4.3-rc.9", "prerelease")).toBe("1.4.3-rc.10");
    expect(bump("1.4.3-beta", "prerelease")).toBe("1.4.3-beta.0");
  });

  it("refuses an unknown level", () => {
    expect(() => bumpVersion(v("1.0.0"), "huge")).toThrow('unknown bump level "huge" (expected major, minor, patch or prerelease)');
  });
});
