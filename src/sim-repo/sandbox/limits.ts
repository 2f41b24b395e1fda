// The sandbox's limits per run, in a module without the engine (the main thread reads them without loading QuickJS).

/**
 * Default host-time limit of one run, in ms: a safety net for code that stops yielding to the interrupt check
 * (a long native call). Runs normally end far sooner, by the operation budget, which does not depend on the load of
 * the machine; a 2 s host-time limit alone ended correct test runs on a loaded machine (4 shard processes on 2 cores).
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Default operation budget of one run, in QuickJS interrupt checks (QuickJS checks about every 10,000 operations:
 * loop iterations and calls): 5,000 checks are about 50 million operations, 0.3–3 s of `while (true) {}` on this
 * machine idle or loaded. Deterministic: the same code is stopped at the same point whatever the load, so a
 * cached verdict is the verdict.
 */
export const DEFAULT_OPERATION_BUDGET = 5_000;
