// Owns the simulated durations (ms) of operations; the clock advances by these, nothing waits.

/** read, list, search and every git query (log, show, diff, status). */
export const LOOKUP_MS = 200;
/** edit and write. */
export const EDIT_MS = 100;
/** A push to the remote. */
export const PUSH_MS = 3_000;
/** Shell built-ins run through `run`: cat, ls, pwd, echo, grep, env, printenv, true, false. */
export const SHELL_BUILTIN_MS = 50;
/** An unknown command or a line the shell cannot parse. */
export const UNKNOWN_COMMAND_MS = 10;
/** A package-manager call that runs no script (missing script, script list, script without behaviour). */
export const PACKAGE_MANAGER_MS = 500;
/** A direct `vitest run` when no `test` script declares its own duration (the study's 20 s test run). */
export const DEFAULT_TEST_RUN_MS = 20_000;
/** A `pnpm install` when the spec declares no install script. */
export const DEFAULT_INSTALL_MS = 15_000;
/** A direct `eslint …` when typed outside a package script. */
export const DEFAULT_LINT_MS = 6_000;
/** `node FILE` or `node -e CODE`: Node's start-up plus a short script. */
export const NODE_RUN_MS = 500;
