// The sandbox's public shapes: what a run of repository code gets (files, env, clock, limits) and what it returns.

/** A lookup of the in-memory working tree: repo-relative posix path → content, or undefined when absent. */
export type FileLookup = (path: string) => string | undefined;

/** Where a thrown error points: repo-relative file, 1-based line and column (when known). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A JavaScript error raised by repository code, as the sandbox saw it. */
export interface SandboxError {
  /** `SyntaxError`, `TypeError`, `AssertionError`, … ; `InternalError` for QuickJS limits. */
  name: string;
  message: string;
  /** QuickJS stack text with repo-relative paths (may be empty). */
  stack: string;
  /** First frame inside the repository, when there is one. */
  location?: SourceLocation;
}

/** Options of one sandboxed run. Every run starts from the same pristine QuickJS state: nothing survives between runs. */
export interface SandboxRunOptions {
  /** The working tree (module source, JSON imports). */
  files: FileLookup;
  /** Entry module: a repo-relative path, or inline code (`node -e`) evaluated as a module named `filename`. */
  entry: { path: string } | { code: string; filename: string };
  /** `process.env` as the code sees it. */
  env?: Readonly<Record<string, string>>;
  /** `process.argv` after `node FILE` (`['node', '/repo/FILE', ...args]` is built from this). */
  args?: readonly string[];
  /** Bare-specifier modules provided by the harness (e.g. `vitest` → the vitest API shim), name → ES module source. */
  syntheticModules?: Readonly<Record<string, string>>;
  /** Package names the fixture declares (package.json dependencies); any other bare import fails like Node. */
  packages?: readonly string[];
  /**
   * Global script evaluated after the entry module has loaded (e.g. `__vitest_run__("{…}")`); its value may be a
   * promise, which is awaited (pending jobs run) and must resolve to a string, returned as `value`.
   */
  after?: string;
  /**
   * Milliseconds of the process's CPU time (not wall time, so the machine's load does not change the verdict) before
   * the run is interrupted: a safety net behind the operation budget (default DEFAULT_TIMEOUT_MS, 10,000).
   */
  timeoutMs?: number;
  /** QuickJS interrupt checks (about 10,000 operations each) before the run is stopped, whatever the machine's load (default DEFAULT_OPERATION_BUDGET, 5,000). */
  operationBudget?: number;
  /** QuickJS heap limit in bytes (default 64 MiB). */
  memoryBytes?: number;
}

/** What one sandboxed run produced. `reads` lists every working-tree path the run looked up, with what it saw. */
export interface SandboxRunResult {
  /** `ok`: ran to the end; `error`: an uncaught exception (syntax, link, runtime); `timeout`/`out_of_memory`: a limit ended it. */
  status: 'ok' | 'error' | 'timeout' | 'out_of_memory';
  /** `process.exit(code)` or 1 for an uncaught error or a limit, else 0. */
  exitCode: number;
  /** console.log/info/debug output, one entry per line written. */
  stdout: string[];
  /** console.error/warn output. */
  stderr: string[];
  error?: SandboxError;
  /**
   * What repository code tried to change of what grades it (a locked intrinsic assigned, a built-in matcher
   * replaced, tests or hooks registered by a source module); each attempt was refused. Absent when none.
   */
  tampered?: string[];
  /**
   * True when the run's memory hit the sandbox's cap (a growth was refused): a value the run's code caught that is no
   * Error (QuickJS throws `null` or `''` when it cannot allocate its out-of-memory error) means out of memory.
   */
  memoryRefused?: true;
  /**
   * True when the run reached its time limit (`timeoutMs` of the process's CPU time, which other threads' work counts
   * in): a safety net behind the operation budget, whose outcome can depend on the machine's load, so the code cache
   * keeps no such run (decision 0049).
   */
  timeLimitReached?: true;
  /** The resolved value of `after`, when given and it resolved to a string. */
  value?: string;
  /** Every working-tree path looked up (module resolution included), with the content seen (undefined = absent). */
  reads: ReadonlyArray<readonly [string, string | undefined]>;
}
