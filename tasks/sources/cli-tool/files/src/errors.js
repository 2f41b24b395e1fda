// The tool's errors and exit codes: 0 done, 1 a check found problems, 2 bad usage or bad input.
export const EXIT = Object.freeze({ OK: 0, PROBLEMS: 1, USAGE: 2, INTERNAL: 70 });

/** Bad command line: unknown option, missing value, value out of bounds. Exit 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = "UsageError";
    this.exitCode = EXIT.USAGE;
  }
}

/** A config file that is not valid JSON or holds a bad value. Exit 2; the message names the file. */
export class ConfigError extends Error {
  constructor(source, message) {
    super(`${source}: ${message}`);
    this.name = "ConfigError";
    this.exitCode = EXIT.USAGE;
  }
}

/** Input the tool reads (git log output, tags) in a shape it cannot use. Exit 2. */
export class InputError extends Error {
  constructor(message) {
    super(message);
    this.name = "InputError";
    this.exitCode = EXIT.USAGE;
  }
}

/** The exit code for a thrown error: its own for ours, 70 (EX_SOFTWARE, sysexits.h) for a bug. */
export function exitCodeFor(error) {
  return Number.isInteger(error?.exitCode) ? error.exitCode : EXIT.INTERNAL;
}
