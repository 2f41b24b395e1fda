// The relnote command line: picks the command, parses its options, loads the config, maps errors to exit codes.
import { parseArgs } from "./args.js";
import { loadConfig } from "./config.js";
import { EXIT, UsageError, exitCodeFor } from "./errors.js";
import * as changelogCommand from "./commands/changelog.js";
import * as checkCommand from "./commands/check.js";
import * as nextCommand from "./commands/next.js";
import * as statsCommand from "./commands/stats.js";

export const VERSION = "1.4.2";

const COMMANDS = {
  next: { run: nextCommand.next, options: nextCommand.OPTIONS, summary: "print the next version the commits ask for" },
  changelog: { run: changelogCommand.changelog, options: changelogCommand.OPTIONS, summary: "print or write the next changelog section" },
  stats: { run: statsCommand.stats, options: statsCommand.OPTIONS, summary: "list recent releases and the release cadence" },
  check: { run: checkCommand.check, options: checkCommand.OPTIONS, summary: "lint commit messages since the last release" },
};

/** The usage text printed by --help and after a usage error. */
export function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width, " ")}  ${command.summary}`);
  return ["Usage: relnote <command> [options]", "", "Commands:", ...lines, "", "Options: --config <file>, --help, --version"].join("\n") + "\n";
}

/**
 * Runs one command line. `argv` excludes the program name; `io` is { stdout(text), stderr(text), readFile(path) →
 * string | null, writeFile(path, text), now() → ms, git: { tags() → text, log(range | null) → text } }. Returns the
 * exit code: 0 done, 1 problems found, 2 bad usage or input (the message on stderr), 70 an internal error (a bug).
 */
export function run(argv, io) {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr(`relnote: unknown command "${name}"\n\n${usage()}`);
    return EXIT.USAGE;
  }
  try {
    const { options, positionals } = parseArgs(rest, { ...command.options, config: { type: "string" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const config = loadConfig(io.readFile, options.config);
    return command.run({ options, config, io });
  } catch (error) {
    const code = exitCodeFor(error);
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(code === EXIT.INTERNAL ? `relnote: internal error: ${message} (a bug: please report it with the command line)\n` : `relnote ${name}: ${message}\n`);
    return code;
  }
}
