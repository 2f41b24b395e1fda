// The .relnoterc.json config file: defaults, validation with bounds, and the file read through an injected reader.
import { ConfigError } from "./errors.js";

/** The config file's name, looked up in the working directory. */
export const CONFIG_FILE = ".relnoterc.json";

/** Defaults for every key (docs/config.md lists them with their bounds). */
export const DEFAULTS = Object.freeze({
  tagPrefix: "v",
  preid: "rc",
  repositoryUrl: null,
  maxHeaderLength: 72,
  staleAfterDays: 90,
  tableWidth: 80,
  types: ["feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore", "revert"],
});

/** Inclusive bounds of the numeric keys. */
export const BOUNDS = Object.freeze({
  maxHeaderLength: [50, 120],
  staleAfterDays: [1, 3650],
  tableWidth: [40, 200],
});

/**
 * The config from a file's text (`source` names it in errors), merged over DEFAULTS.
 * @throws ConfigError naming the file: not JSON, not an object, an unknown key, a wrong type, a number out of bounds.
 */
export function parseConfig(text, source = CONFIG_FILE) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(source, `not valid JSON (${error.message})`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError(source, "must hold a JSON object");
  const config = { ...DEFAULTS };
  for (const [key, value] of Object.entries(raw)) {
    if (!Object.hasOwn(DEFAULTS, key)) throw new ConfigError(source, `unknown key "${key}"`);
    config[key] = checked(source, key, value);
  }
  return config;
}

function checked(source, key, value) {
  if (key in BOUNDS) {
    const [min, max] = BOUNDS[key];
    if (!Number.isInteger(value)) throw new ConfigError(source, `"${key}" must be a whole number`);
    if (value < min || value > max) throw new ConfigError(source, `"${key}" must be between ${min} and ${max}, got ${value}`);
    return value;
  }
  if (key === "types") {
    if (!Array.isArray(value) || value.length === 0 || !value.every((type) => typeof type === "string")) {
      throw new ConfigError(source, `"types" must be a non-empty list of strings`);
    }
    return value;
  }
  if (key === "repositoryUrl" && value !== null && !/^https?:\/\//.test(value)) {
    throw new ConfigError(source, `"repositoryUrl" must start with http:// or https://`);
  }
  if (value !== null && typeof value !== "string") throw new ConfigError(source, `"${key}" must be a string`);
  return key === "repositoryUrl" && value !== null ? value.replace(/\/+$/, "") : value;
}

/**
 * Loads the config through `readFile(path) → string | null` (null: no such file, so the defaults apply).
 * @throws ConfigError as parseConfig does.
 */
export function loadConfig(readFile, path = CONFIG_FILE) {
  const text = readFile(path);
  return text === null ? { ...DEFAULTS } : parseConfig(text, path);
}
