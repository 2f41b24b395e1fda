// The sandbox's limits per run, in a module without the engine (the main thread reads them without loading QuickJS).

/**
 * Default time limit of one run, in ms of the process's CPU time: a safety net for code that yields to the interrupt
 * check only rarely (long native calls in a loop). Runs normally end far sooner, by the operation budget. It is CPU
 * time, not wall time: a 2 s wall limit ended correct test runs on a loaded machine (4 shard processes on 2 cores), and
 * a 10 s one grader runs at load 13 on 2 cores (issue 29) — a verdict must not depend on the machine's load.
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The code worker's hard cutoff for one request, as a multiple of its time limit, in wall time: for code that never
 * yields to QuickJS's interrupt check (one long native call), the worker is killed. Ten times the limit: a run's CPU
 * time stretches about tenfold on the wall clock at load 20 on 2 cores, so only code that never yields reaches it.
 */
export const HARD_CUTOFF_FACTOR = 10;

/**
 * Default operation budget of one run, in QuickJS interrupt checks (QuickJS checks about every 10,000 operations:
 * loop iterations and calls): 5,000 checks are about 50 million operations, 0.3–3 s of `while (true) {}` on this
 * machine idle or loaded. Deterministic: the same code is stopped at the same point whatever the load, so a
 * cached verdict is the verdict.
 */
export const DEFAULT_OPERATION_BUDGET = 5_000;

/** Default QuickJS heap limit, in bytes (a runaway allocation ends as `out_of_memory`; see also quickjs.ts's cap). */
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/** The message of a run (or a test) stopped by the memory limit, `bytes` (default DEFAULT_MEMORY_BYTES). */
export function outOfMemoryMessage(bytes: number = DEFAULT_MEMORY_BYTES): string {
  return `run stopped: out of memory (limit ${Math.round(bytes / 1024 / 1024)} MiB)`;
}
