// Command-line options: --name value, --name=value, -n value, --no-flag and "--", checked against a spec.
import { UsageError } from "./errors.js";

/**
 * Parses `argv` (no program name) against `spec`: { [name]: { type: "string" | "integer" | "boolean", short?,
 * default?, min?, max?, choices? } }. Returns { options, positionals }; every option of the spec is present
 * (its default, or undefined). Integer bounds are inclusive.
 * @throws UsageError naming the option: unknown, missing value, not a whole number, out of bounds, not a choice.
 */
export function parseArgs(argv, spec) {
  const options = {};
  for (const [name, option] of Object.entries(spec)) options[name] = option.default;
  const positionals = [];
  const byShort = new Map(Object.entries(spec).filter(([, option]) => option.short).map(([name, option]) => [option.short, name]));
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index];
    if (word === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    const long = word.startsWith("--");
    const equals = word.indexOf("=");
    const key = long ? word.slice(2, equals > 0 ? equals : undefined) : byShort.get(word.slice(1));
    if (long && key.startsWith("no-") && spec[key.slice(3)]?.type === "boolean") {
      options[key.slice(3)] = false;
      continue;
    }
    const option = key === undefined ? undefined : spec[key];
    if (option === undefined) throw new UsageError(`unknown option ${long ? word.split("=")[0] : word}`);
    if (option.type === "boolean") {
      if (long && equals > 0) throw new UsageError(`--${key} takes no value`);
      options[key] = true;
      continue;
    }
    let raw;
    if (long && equals > 0) raw = word.slice(equals + 1);
    else if (index + 1 < argv.length) raw = argv[++index];
    else throw new UsageError(`--${key} needs a value`);
    options[key] = convert(key, option, raw);
  }
  return { options, positionals };
}

function convert(name, option, raw) {
  if (option.choices && !option.choices.includes(raw)) {
    throw new UsageError(`--${name} must be one of ${option.choices.join(", ")}, got "${raw}"`);
  }
  if (option.type !== "integer") return raw;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  const min = option.min ?? -Infinity;
  const max = option.max ?? Infinity;
  if (value < min || value > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}
