// Owns sandboxed runs of repository JavaScript: QuickJS engines restored from a snapshot, limits, module loading, host bridges.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { isTestModulePath, resolveSpecifier, type ResolutionMode } from './module-resolve.js';
import { LOCKDOWN_SOURCE } from './lockdown.js';
import { FORMAT_SOURCE, PRELUDE_SOURCE } from './prelude.js';
import { MEMORY_MAXIMUM_BYTES, memoryGrowthDenied, quickJS, renewQuickJS } from './quickjs.js';
import { viteImports } from './vite-imports.js';
import { VITEST_MODULE_SOURCE, VITEST_SOURCE_MODULE_NAME, VITEST_SOURCE_MODULE_SOURCE } from './vitest-api.js';
import { vitestLibrariesSource } from './vitest-libraries.js';
import type { SandboxError, SandboxRunOptions, SandboxRunResult, SourceLocation } from './types.js';

import { DEFAULT_MEMORY_BYTES, DEFAULT_OPERATION_BUDGET, DEFAULT_TIMEOUT_MS, outOfMemoryMessage } from './limits.js';

export { DEFAULT_OPERATION_BUDGET, DEFAULT_TIMEOUT_MS };
export { DEFAULT_MEMORY_BYTES };
/** The fixture date when a repository declares none (ISO). */
export const DEFAULT_DATE = '2026-01-01T09:00:00.000Z';
const MAX_STACK_BYTES = 256 * 1024;
/** Output kept per stream; longer output is cut with a marker (a run printing in a loop must not exhaust the host). */
const MAX_OUTPUT_CHARS = 200_000;

/** Extra options of a run that only the harness's own runners set. */
export interface RunInternals {
  /** `vite` for test runs (vitest's resolution), `node` for `node FILE` (default). */
  resolution?: ResolutionMode;
  /** ISO date for `new Date()` / `Date.now()`. */
  date?: string;
  /** Seed of Math.random. */
  seed?: number;
  /**
   * Runs the entry (a test file) through the vitest API's runner captured before any repository module loaded (never
   * looked up on the global object), with this options JSON plus `file`, the entry's path: @vitest/runner imports the
   * file itself. Its string result is returned as `value`. Only with the `vitest` synthetic module and a file entry.
   */
  runTests?: string;
}

/**
 * What one host callback (console output, Intl formatting) costs of the operation budget, in interrupt checks: 0.02
 * (about 200 operations). Host work is invisible to QuickJS's operation count, so without it a loop of a million
 * `console.log` calls ended only at the host-time limit — a verdict that depended on the machine's speed. At this
 * charge the default budget allows 250,000 host calls per run, far more than any test prints or formats.
 */
const HOST_CALL_CHARGE = 0.02;

/**
 * What one promise job (a microtask: a reaction, an `await` resuming) costs of the operation budget, in interrupt
 * checks: 0.005 (about 50 operations). QuickJS's counter sees about one operation of a job (its call), so a flood of
 * microtasks (`function again() { Promise.resolve().then(again); }`) ran ~50 million jobs before the budget ran out —
 * far past the CPU-time limit, which ended it instead: a verdict that depended on the machine's speed (issue 31).
 * Charged, the default budget allows a million jobs per run (~2 s of a flood), far more than any test file awaits (a
 * test costs vitest's runner ~50 jobs; 100,000 awaits in a loop use a tenth of the budget).
 */
const JOB_CHARGE = 0.005;

/** Jobs run per `executePendingJobs` call, so a flood returns to the host to be charged and checked. */
const JOB_BATCH = 1_000;

/** The current run's scope, with one host call charged to its operation budget. */
function chargeHostCall(): RunScope {
  const run = activeScope();
  run.interrupts += HOST_CALL_CHARGE;
  return run;
}

/**
 * Characters of tried module paths one run may make the host look up, at most: 4 Mi. Each path tried is charged its
 * share of the run's operation budget (`lengthCharge`), so a loop of imports of long missing names ends at the budget,
 * having made the host hold a few megabytes of paths, not gigabytes (a fresh adversarial review, issue 32).
 */
const MAX_TRIED_PATH_CHARS = 4 * 1024 * 1024;

/** What host work on `text` (a tried path, Intl options) costs of the run's operation budget: its length's share of MAX_TRIED_PATH_CHARS. */
function lengthCharge(run: RunScope, text: string): number {
  return Number.isFinite(run.operationBudget) ? (text.length * run.operationBudget) / MAX_TRIED_PATH_CHARS : 0;
}

/** Most tamper reports kept per run (a loop of refused writes must not exhaust the host). */
const MAX_TAMPER_REPORTS = 20;

class ExitRequested {
  constructor(readonly code: number) {}
}

/**
 * The process's CPU time (user + system), ms: the clock of a run's time limit. Unlike the wall clock it does not run
 * while the machine gives the process no CPU, so a loaded machine (other processes, load 10+ on 2 cores) does not stop
 * code that an idle one lets finish — a verdict must not depend on the load (issue 29).
 */
function cpuClockMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Whether the current run's time limit was found passed (reset by each run): see SandboxRunResult.timeLimitReached. */
let timeLimitReached = false;

/** Whether `deadline` (on cpuClockMs's clock) has passed; noted for the run's result when it has. */
function pastDeadline(deadline: number): boolean {
  if (cpuClockMs() <= deadline) return false;
  timeLimitReached = true;
  return true;
}

/** What the host callbacks of the engines (module loader, console, Intl, interrupt) act on during one run. */
interface RunScope {
  files: (path: string) => string | undefined;
  write: (stream: string, text: string) => void;
  /** When the run's time limit passes, on cpuClockMs's clock (ms of the process's CPU time). */
  deadline: number;
  /** Interrupt checks so far, and how many the run may make (see DEFAULT_OPERATION_BUDGET). */
  interrupts: number;
  operationBudget: number;
  synthetic: ReadonlyMap<string, string>;
  resolveOptions: { mode: ResolutionMode; synthetic: ReadonlySet<string>; packages: ReadonlySet<string> };
  /** The specifier each resolved module was first imported as, for Node-style link error messages. */
  requestedAs: Map<string, string>;
  failedResolutions: Map<string, string>;
  /** What repository code tried to change of the locked realm or the test API (LOCKDOWN_SOURCE, the vitest API). */
  tampered: string[];
  /** Modules reached through a module that is not test code: even test code among them gets the restricted vitest API. */
  viaSource: Set<string>;
  /** The module name of an inline entry (`node -e`), which imports resolve from the root; undefined for a file. */
  inlineEntry?: string;
}

/** Module names of the harness's own code: imports from them resolve as from the root, with the whole vitest API. */
const HARNESS_MODULES = new Set(['[preload]']);

/** One QuickJS runtime and context with the prelude evaluated (and, for `vitest`, the vitest API loaded). */
interface Engine {
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  /** Host functions, held so no run can free them (their ids live on the host side, outside the snapshot). */
  hostFunctions: QuickJSHandle[];
  /** The prelude's virtual-timer step, captured before the snapshot (the global name is deleted). */
  nextTimer: QuickJSHandle;
  /** The vitest API's runner `(optionsJson) => Promise<string>`, captured before the snapshot; vitest engine only. */
  runner?: QuickJSHandle;
  /** `() => number`: the exit code `process.exitCode` asks for (EXIT_CODE_SOURCE), compiled once before the snapshot. */
  exitCode: QuickJSHandle;
}

/**
 * What a run's exit code is when it ends normally: `process.exitCode` as a number, 0 when unset (as Node). Evaluated
 * per run until issue 32, which cost QuickJS a parse and compile every run; as a function made before the snapshot it
 * reads the same global `process` at call time.
 */
const EXIT_CODE_SOURCE = '(function () { return typeof process === "object" && process.exitCode ? Number(process.exitCode) : 0; })';

/**
 * The engines and the snapshot of QuickJS's WebAssembly memory taken once both were ready. Every run restores
 * the snapshot first, so it starts from exactly the state a fresh runtime with the prelude and the vitest API
 * would have — the same bytes every time — without evaluating the ~270 KB of matcher libraries and the vitest module
 * again (QuickJS compiles eagerly; there is no bytecode cache in quickjs-emscripten 0.32). The snapshot is the technique
 * Wizer/Javy use to pre-initialise QuickJS; it covers all of the module's linear memory in use (malloc's state
 * included), and everything a run leaves behind is overwritten by the next restore.
 */
interface Engines {
  plain: Engine;
  vitest: Engine;
  snapshot: Snapshot;
  dirty: boolean;
  /** memoryGrowthDenied() once the engines were ready: a run that reached the cap since then is followed by a renewal. */
  deniedAtReady: number;
}

/**
 * The memory below malloc's free top at snapshot time (static data, the C stack, the heap: ~9.6 MB), by 4 KiB page:
 * only pages holding a non-zero byte keep their bytes (~4.2 MB); every other page of the span is restored as zeros.
 * Consecutive pages with content are kept as one run (three in the snapshot measured), so a restore is a few `fill`s and `set`s:
 * restoring page by page (1,065 `subarray` views and `set` calls a run) cost ~0.3 ms more of the ~0.9 ms a restore
 * took (measured in a loop of the data-lib and shop-green hidden test files, issue 32).
 */
interface Snapshot {
  /** Bytes from 0 that the snapshot covers (beyond them is malloc's free top). */
  span: number;
  /** Runs of consecutive pages with content, ascending by offset: where each starts and its bytes. */
  runs: ReadonlyArray<{ offset: number; bytes: Uint8Array }>;
}

const PAGE_BYTES = 4096;

/**
 * Where malloc's free top begins: a request larger than the whole memory cannot fit any free chunk, so malloc
 * extends the top and returns its start (then it is freed again; the memory stays grown, untouched). Every byte at
 * or beyond it is free memory whose content no allocator or QuickJS reads before writing.
 */
function heapTop(): number {
  const module = emscripten();
  const probe = module._malloc(module.HEAPU8.length);
  if (probe === 0) return module.HEAPU8.length;
  module._free(probe);
  return probe;
}

/**
 * Copies the pages below the heap top that hold a non-zero byte. Only that span is read: reading the rest of
 * the WebAssembly memory would fault its untouched pages into the process's resident set (16 MB and more).
 */
function takeSnapshot(): Snapshot {
  const top = heapTop();
  const memory = heap();
  const end = Math.min(memory.byteLength, Math.ceil(top / PAGE_BYTES) * PAGE_BYTES);
  const words = new Uint32Array(memory.buffer, memory.byteOffset, end >>> 2);
  const wordsPerPage = PAGE_BYTES >>> 2;
  const runs: Array<{ offset: number; bytes: Uint8Array }> = [];
  let runStart = -1;
  for (let page = 0; page <= words.length; page += wordsPerPage) {
    let content = false;
    for (let word = page; word < Math.min(page + wordsPerPage, words.length); word++) {
      if (words[word] !== 0) {
        content = true;
        break;
      }
    }
    if (content && runStart < 0) runStart = page << 2;
    if (!content && runStart >= 0) {
      runs.push({ offset: runStart, bytes: memory.slice(runStart, page << 2) });
      runStart = -1;
    }
  }
  return { span: end, runs };
}

/** Writes the snapshot back: its runs of pages with content, and zeros in every other page of its span. */
function restoreSnapshot(memory: Uint8Array, snapshot: Snapshot): void {
  let cursor = 0;
  for (const run of snapshot.runs) {
    if (run.offset > cursor) memory.fill(0, cursor, run.offset);
    memory.set(run.bytes, run.offset);
    cursor = run.offset + run.bytes.length;
  }
  if (snapshot.span > cursor) memory.fill(0, cursor, snapshot.span);
}

let engines: Engines | undefined;
let scope: RunScope | undefined;

/** Sandbox renewals so far (`npm run bench` and tests read it). */
export const sandboxRenewals = { count: 0 };

/**
 * Gives the memory a run used back to the system: after a run that reached the cap (a growth was refused since the
 * engines were built), the engines are dropped and the module is made anew with a fresh memory (~100 ms with the
 * engines' rebuild on the next run). Call between runs, never during one; the code worker calls it after answering
 * a request. Resolves true if renewed.
 */
export async function renewSandboxWhenGrown(): Promise<boolean> {
  if (scope !== undefined) throw new Error('renewSandboxWhenGrown called during a sandbox run');
  if (engines === undefined || memoryGrowthDenied() === engines.deniedAtReady) return false;
  engines = undefined;
  await renewQuickJS();
  sandboxRenewals.count++;
  return true;
}

/**
 * Grows the memory to (just under) its cap once the snapshot is taken, through the allocator (emscripten's own path,
 * which keeps its views current): one block as large as fits, then freed. The pages are not touched, so they cost no
 * resident memory until a run uses them. Why: emscripten grows by 1.2×, 1.1× or 1.05× of the current size, so whether
 * an allocation near the cap fit depended on the size earlier runs had left (a fresh review found a run booked one way
 * fresh and another after a renewal). At the cap from the start, no run grows it: an allocation fits, or a growth is
 * refused, the same way every time.
 */
function growToCap(): void {
  const module = emscripten();
  // From the cap down: the first block that fits ends within a step of the cap (a block the current memory already
  // holds would grow nothing: a fresh review found the memory left at 48 MiB).
  for (let size = MEMORY_MAXIMUM_BYTES; size > PAGE_BYTES; size -= 64 * PAGE_BYTES) {
    const block = module._malloc(size);
    if (block !== 0) {
      module._free(block);
      return;
    }
  }
}

/** The emscripten module under quickjs-emscripten's module: the memory's view and the allocator. */
function emscripten(): { HEAPU8: Uint8Array; _malloc(size: number): number; _free(pointer: number): void } {
  return (quickJS as unknown as { module: ReturnType<typeof emscripten> }).module;
}

/** The emscripten module's view of the WebAssembly memory (replaced by emscripten when the memory grows). */
function heap(): Uint8Array {
  return emscripten().HEAPU8;
}

function activeScope(): RunScope {
  if (scope === undefined) throw new Error('sandbox host callback outside a run');
  return scope;
}

function loadModule(name: string): string | { error: Error } {
  const run = chargeHostCall();
  const failed = run.failedResolutions.get(name);
  if (failed !== undefined) return { error: new Error(failed) };
  const provided = run.synthetic.get(name);
  if (provided !== undefined) return provided;
  const source = run.files(name);
  if (source === undefined) return { error: new Error(`Cannot find module '/repo/${name}'`) };
  if (name.endsWith('.json')) {
    try {
      JSON.parse(source);
    } catch (error) {
      return { error: new SyntaxError(`/repo/${name}: Unexpected token in JSON (${(error as Error).message})`) };
    }
    return `export default ${source};`;
  }
  return run.resolveOptions.mode === 'vite' && /\.[cm]?[jt]sx?$/.test(name) ? viteImports(source) : source;
}

function normalizeModule(base: string, requested: string): string {
  const run = chargeHostCall();
  const importer = run.synthetic.has(base) || HARNESS_MODULES.has(base) || base === run.inlineEntry ? '' : base;
  // Every path resolution tries is host work QuickJS does not count: each is charged as a host call, so a loop of
  // imports of missing modules (14 paths tried each) ends at the operation budget, not at the CPU-time limit.
  const files = (path: string): string | undefined => {
    run.interrupts += HOST_CALL_CHARGE + lengthCharge(run, path);
    // Past the budget the run ends at QuickJS's next interrupt check (every ~10,000 operations): until then, paths
    // are not looked up (nor kept as reads), or a loop of imports would keep trying them.
    if (run.interrupts > run.operationBudget) return undefined;
    return run.files(path);
  };
  const resolved = resolveSpecifier(requested, importer, files, run.resolveOptions);
  if (!resolved.ok) {
    // A normaliser error is not reported cleanly by quickjs-emscripten: resolve to a marker the loader fails on.
    const marker = `[unresolved ${run.failedResolutions.size}] ${requested.slice(0, 200)}`;
    run.failedResolutions.set(marker, resolved.message);
    return marker;
  }
  // Source code, and test code that source code imported (a helper the agent added under tests/), get the restricted
  // test API (no registration, no expect.extend): see vitest-api.ts. The module loader sees every importer's path.
  const throughSource = importer !== '' && (!isTestModulePath(importer) || run.viaSource.has(importer));
  if (throughSource && !run.synthetic.has(resolved.name)) run.viaSource.add(resolved.name);
  if (resolved.name === 'vitest' && throughSource && run.synthetic.has(VITEST_SOURCE_MODULE_NAME)) return VITEST_SOURCE_MODULE_NAME;
  if (!run.requestedAs.has(resolved.name)) run.requestedAs.set(resolved.name, requested);
  return resolved.name;
}

function createEngine(preload: string | undefined): Engine {
  const runtime = quickJS.newRuntime();
  runtime.setMemoryLimit(DEFAULT_MEMORY_BYTES);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setInterruptHandler(() => {
    if (scope === undefined) return false;
    scope.interrupts += 1;
    if (scope.interrupts > scope.operationBudget) {
      stoppedBy = 'operations';
      return true;
    }
    // The CPU clock costs ~0.3 µs a read: read every 16th check (about every 160,000 operations).
    if ((scope.interrupts & 15) === 0 && pastDeadline(scope.deadline)) {
      stoppedBy = 'time';
      return true;
    }
    return false;
  });
  runtime.setModuleLoader(loadModule, normalizeModule);
  const ctx = runtime.newContext();
  const hostFunctions = installHost(ctx);
  const prelude = ctx.evalCode(PRELUDE_SOURCE, '[prelude]');
  if (prelude.error) throw new Error(`sandbox prelude failed: ${JSON.stringify(ctx.dump(prelude.error))}`);
  prelude.value.dispose();
  if (preload !== undefined) {
    // The real matcher libraries (chai, @vitest/expect, @vitest/spy), a ~260 KB script the vitest module takes over.
    const libraries = ctx.evalCode(vitestLibrariesSource(), '[vitest-libraries]');
    if (libraries.error) throw new Error(`sandbox vitest libraries failed: ${JSON.stringify(ctx.dump(libraries.error))}`);
    libraries.value.dispose();
    const loaded = ctx.evalCode(preload, '[preload]', { type: 'module' });
    if (loaded.error) throw new Error(`sandbox preload failed: ${JSON.stringify(ctx.dump(loaded.error))}`);
    loaded.value.dispose();
    const jobs = runtime.executePendingJobs();
    if (jobs.error) throw new Error(`sandbox preload failed: ${JSON.stringify(ctx.dump(jobs.error))}`);
  }
  const exitCode = ctx.evalCode(EXIT_CODE_SOURCE, '[exit]');
  if (exitCode.error) throw new Error(`sandbox exit code function failed: ${JSON.stringify(ctx.dump(exitCode.error))}`);
  const engine: Engine = { runtime, ctx, hostFunctions, nextTimer: takeGlobal(ctx, '__stratbench_next_timer__'), exitCode: exitCode.value };
  if (preload !== undefined) engine.runner = takeGlobal(ctx, '__vitest_run__');
  const locked = ctx.evalCode(LOCKDOWN_SOURCE, '[lockdown]');
  if (locked.error) throw new Error(`sandbox lockdown failed: ${JSON.stringify(ctx.dump(locked.error))}`);
  locked.value.dispose();
  return engine;
}

/** A global the harness itself calls: its handle is kept and the name deleted, so repository code can neither reach nor replace it. */
function takeGlobal(ctx: QuickJSContext, name: string): QuickJSHandle {
  const handle = ctx.getProp(ctx.global, name);
  if (ctx.typeof(handle) !== 'function') throw new Error(`sandbox: ${name} is not defined`);
  const deleted = ctx.evalCode(`delete globalThis[${JSON.stringify(name)}]`, '[harness]');
  if (deleted.error) throw new Error(`sandbox: cannot delete ${name}`);
  deleted.value.dispose();
  return handle;
}

/**
 * The vitest engine loads the API and fails one assertion, so what a first failure sets up lazily is in the snapshot
 * too; the expect state it counts is reset by the runner before every test.
 */
const VITEST_PRELOAD = `import { expect } from 'vitest';
import ${JSON.stringify(VITEST_SOURCE_MODULE_NAME)};
try { expect({ a: [1] }).toEqual({ a: [2] }); } catch (error) { String(error && error.message); }`;

/**
 * Builds both engines and snapshots the memory, once per process or worker thread, on the first run (never at import:
 * the CLI's start-up does not pay for it). Measured with the real matcher libraries: ~550 ms with the first run, ~140 ms
 * more than the hand-written API (docs/decisions/0043).
 */
function readyEngines(): Engines {
  if (engines !== undefined) return engines;
  scope = {
    files: () => undefined,
    write: () => undefined,
    deadline: Number.POSITIVE_INFINITY,
    interrupts: 0,
    operationBudget: Number.POSITIVE_INFINITY,
    synthetic: new Map([
      ['vitest', VITEST_MODULE_SOURCE],
      [VITEST_SOURCE_MODULE_NAME, VITEST_SOURCE_MODULE_SOURCE],
    ]),
    resolveOptions: { mode: 'vite', synthetic: new Set(['vitest', VITEST_SOURCE_MODULE_NAME]), packages: new Set() },
    requestedAs: new Map(),
    failedResolutions: new Map(),
    tampered: [],
    viaSource: new Set(),
  };
  try {
    const plain = createEngine(undefined);
    const vitest = createEngine(VITEST_PRELOAD);
    const snapshot = takeSnapshot();
    growToCap();
    // The first run restores the snapshot too: growToCap changed the allocator's state after it.
    engines = { plain, vitest, snapshot, dirty: true, deniedAtReady: memoryGrowthDenied() };
    return engines;
  } finally {
    scope = undefined;
  }
}

/**
 * Runs repository code in QuickJS (see SandboxRunOptions). Each run starts from the same pristine state — a fresh
 * runtime with the prelude (and, for the harness's vitest API, that API) loaded, restored from a memory snapshot —
 * so nothing survives between runs. Synchronous and deterministic: nothing of the host is visible but the working
 * tree, the given env, a fixed Date, a seeded Math.random and Intl formatting. Never throws for what the code does
 * (syntax errors, missing modules, exceptions, infinite loops, runaway allocation are results); throws only on a
 * harness bug (including a run started from inside another run's host callback).
 */
export function runInSandbox(options: SandboxRunOptions & RunInternals): SandboxRunResult {
  if (scope !== undefined) throw new Error('runInSandbox called during another sandbox run');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ready = readyEngines();
  if (ready.dirty) restoreSnapshot(heap(), ready.snapshot);
  ready.dirty = true;
  const deadline = cpuClockMs() + timeoutMs;
  stoppedBy = 'time';
  timeLimitReached = false;
  const reads = new Map<string, string | undefined>();
  const files = (path: string): string | undefined => {
    if (reads.has(path)) return reads.get(path);
    const content = options.files(path);
    reads.set(path, content);
    return content;
  };
  const synthetic = new Map(Object.entries(options.syntheticModules ?? {}));
  const useVitest = synthetic.get('vitest') === VITEST_MODULE_SOURCE;
  const engine = useVitest ? ready.vitest : ready.plain;
  const { runtime, ctx } = engine;
  const stdout: string[] = [];
  const stderr: string[] = [];
  let written = 0;
  const write = (stream: string, text: string): void => {
    if (written > MAX_OUTPUT_CHARS) return;
    // One write longer than what is left is cut too (it was kept whole: 20 MB of stderr from one console.error).
    const kept = written + text.length > MAX_OUTPUT_CHARS ? text.slice(0, MAX_OUTPUT_CHARS - written) : text;
    written += text.length;
    const target = stream.startsWith('stderr') ? stderr : stdout;
    const lines = (stream.endsWith('-raw') ? kept.replace(/\n$/, '') : kept).split('\n');
    // A loop, not push(...lines): 600,000 lines in one console.log overflowed the host's stack.
    for (const line of lines) target.push(line);
    if (written > MAX_OUTPUT_CHARS) target.push(`… output cut at ${MAX_OUTPUT_CHARS} characters`);
  };
  const requestedAs = new Map<string, string>();
  scope = {
    files,
    write,
    deadline,
    interrupts: 0,
    operationBudget: options.operationBudget ?? DEFAULT_OPERATION_BUDGET,
    synthetic,
    resolveOptions: { mode: options.resolution ?? 'node', synthetic: new Set(synthetic.keys()), packages: new Set(options.packages ?? []) },
    requestedAs,
    failedResolutions: new Map(),
    tampered: [],
    viaSource: new Set(),
  };
  const tampered = scope.tampered;
  const resolution = scope.resolveOptions.mode;
  const deniedBefore = memoryGrowthDenied();
  const finish = (status: SandboxRunResult['status'], exitCode: number, error?: SandboxError, value?: string): SandboxRunResult => {
    // QuickJS throws a primitive (`null`, `''`) when it cannot even allocate its out-of-memory error: after a
    // refused growth, that is what it means. An Error the code threw stays its own: emscripten asks for 1.2× first,
    // so a run that fits can see a refusal (a fresh review found such a run's own error lost).
    const refused = memoryGrowthDenied() !== deniedBefore;
    if (refused && status === 'error' && error !== undefined && error.stack === '' && error.message.startsWith('Uncaught '))
      return finish('out_of_memory', 1, limitError('out_of_memory', options));
    // A job that ran out of memory leaves the promise it would have settled pending: not a promise that never settles.
    if (refused && status === 'timeout' && stoppedBy === 'idle') return finish('out_of_memory', 1, limitError('out_of_memory', options));
    // Host work is charged between QuickJS's interrupt checks: a run that spent its budget and ended before the next
    // check (a short loop of costly host calls) is stopped by the budget all the same.
    if (status === 'ok' && budgetSpent()) return finish('timeout', 1, limitError('timeout', options));
    const result: SandboxRunResult = { status, exitCode, stdout, stderr, reads: [...reads.entries()] };
    if (tampered.length > 0) result.tampered = [...tampered];
    if (refused) result.memoryRefused = true;
    if (timeLimitReached) result.timeLimitReached = true;
    if (error !== undefined) result.error = error;
    if (value !== undefined) result.value = value;
    return result;
  };
  try {
    runtime.setMemoryLimit(options.memoryBytes ?? DEFAULT_MEMORY_BYTES);
    configure(ctx, options);

    const entryName = 'path' in options.entry ? options.entry.path : options.entry.code === undefined ? '' : options.entry.filename;
    if (!('path' in options.entry)) scope.inlineEntry = entryName;
    const entrySource = 'path' in options.entry ? files(options.entry.path) : options.entry.code;
    if (entrySource === undefined) {
      return finish('error', 1, { name: 'Error', message: `Cannot find module '/repo/${entryName}'`, stack: '' });
    }
    if (options.runTests !== undefined) {
      if (engine.runner === undefined || !('path' in options.entry)) throw new Error('runTests needs the vitest engine and a test file');
      // @vitest/runner imports the test file itself (its collector must be ready before the file registers tests).
      const argument = ctx.newString(JSON.stringify({ ...JSON.parse(options.runTests), file: options.entry.path }));
      const called = settle(engine, ctx.callFunction(engine.runner, ctx.undefined, argument), deadline);
      argument.dispose();
      if (called.kind !== 'fulfilled') return failure(ctx, called, requestedAs, options, finish);
      const value = called.handle === undefined ? undefined : ctx.typeof(called.handle) === 'string' ? ctx.getString(called.handle) : undefined;
      called.handle?.dispose();
      return finish('ok', exitCodeOf(engine), undefined, value);
    }
    const entryCode = resolution === 'vite' ? viteImports(entrySource) : entrySource;
    const loaded = settle(engine, ctx.evalCode(entryCode, entryName, { type: 'module' }), deadline);
    if (loaded.kind !== 'fulfilled') return failure(ctx, loaded, requestedAs, options, finish);
    loaded.handle?.dispose();
    if (options.after === undefined) {
      const drained = drain(engine, deadline);
      if (drained !== undefined) return failure(ctx, drained, requestedAs, options, finish);
      return finish('ok', exitCodeOf(engine));
    }
    const after = settle(engine, ctx.evalCode(options.after, '[harness]'), deadline);
    if (after.kind !== 'fulfilled') return failure(ctx, after, requestedAs, options, finish);
    const value = after.handle === undefined ? undefined : ctx.typeof(after.handle) === 'string' ? ctx.getString(after.handle) : undefined;
    after.handle?.dispose();
    return finish('ok', exitCodeOf(engine), undefined, value);
  } catch (error) {
    if (error instanceof ExitRequested) return finish('ok', error.code);
    const message = error instanceof Error ? error.message : String(error);
    if (/out of memory/i.test(message)) return finish('out_of_memory', 1, limitError('out_of_memory', options));
    throw error;
  } finally {
    // Whatever the run left in the engine (handles, modules, garbage) is overwritten by the next restore.
    scope = undefined;
  }
}

type Failed = { kind: 'rejected'; handle: QuickJSHandle } | { kind: 'timeout' } | { kind: 'out_of_memory' };
type Settled = { kind: 'fulfilled'; handle?: QuickJSHandle } | Failed;

/** Evaluates a result handle to completion: runs jobs and virtual timers until its promise settles or the deadline passes. */
function settle(engine: Engine, result: ReturnType<QuickJSContext['evalCode']>, deadline: number): Settled {
  const { ctx } = engine;
  if (result.error) return classify(ctx, result.error);
  const handle = result.value;
  for (;;) {
    const state = ctx.getPromiseState(handle);
    if (state.type === 'fulfilled') {
      // For a non-promise value, getPromiseState hands back the same handle.
      if (!state.notAPromise) handle.dispose();
      return { kind: 'fulfilled', handle: state.value };
    }
    if (state.type === 'rejected') {
      handle.dispose();
      return classify(ctx, state.error);
    }
    const stuck = step(engine, deadline);
    if (stuck !== undefined) {
      handle.dispose();
      return stuck;
    }
  }
}

/** Runs queued jobs, then timers, until nothing is left; a thrown job error (uncaught) ends the run. */
function drain(engine: Engine, deadline: number): Failed | undefined {
  for (;;) {
    const advanced = advance(engine, deadline);
    if (advanced !== 'progress') return advanced === 'idle' ? undefined : advanced;
  }
}

/** Whether the current run has used up its operation budget (then it is stopped by it). */
function budgetSpent(): boolean {
  if (scope === undefined || scope.interrupts <= scope.operationBudget) return false;
  stoppedBy = 'operations';
  return true;
}

/** One step of the event loop for a pending promise; undefined when progress was made. */
function step(engine: Engine, deadline: number): Failed | undefined {
  const advanced = advance(engine, deadline);
  // Nothing queued and no timer: the promise can never settle (awaiting something that never resolves).
  if (advanced === 'idle') stoppedBy = 'idle';
  return advanced === 'progress' ? undefined : advanced === 'idle' ? { kind: 'timeout' } : advanced;
}

/** Runs the pending jobs, or else the next virtual timer: `progress`, `idle` (nothing left to run) or how it failed. */
function advance(engine: Engine, deadline: number): 'progress' | 'idle' | Failed {
  const { ctx, runtime } = engine;
  if (pastDeadline(deadline)) return { kind: 'timeout' };
  // A spent budget ends the run for good: QuickJS turns an interrupt inside a promise job into that promise's
  // rejection, so the code could otherwise go on (or finish `ok`) after its budget ran out.
  if (budgetSpent()) return { kind: 'timeout' };
  const jobs = runtime.executePendingJobs(JOB_BATCH);
  if (jobs.error) return classify(ctx, jobs.error);
  if (jobs.value > 0) {
    if (scope !== undefined) scope.interrupts += jobs.value * JOB_CHARGE;
    return budgetSpent() ? { kind: 'timeout' } : 'progress';
  }
  const timer = ctx.callFunction(engine.nextTimer, ctx.undefined);
  if (timer.error) return classify(ctx, timer.error);
  const ran = ctx.dump(timer.value) === true;
  timer.value.dispose();
  return ran ? 'progress' : 'idle';
}

/**
 * A thrown value as plain data. quickjs-emscripten's dump of a promise consumes its handle (a thrown promise), so a
 * thrown value that is not a plain object or primitive is dumped through a copy; never throws.
 */
function dumpThrown(ctx: QuickJSContext, handle: QuickJSHandle): unknown {
  if (!handle.alive) return { name: 'Error', message: 'a thrown value the sandbox could not read', stack: '' };
  const copy = handle.dup();
  try {
    return ctx.dump(copy);
  } catch {
    return { name: 'Error', message: 'a thrown value the sandbox could not read', stack: '' };
  } finally {
    if (copy.alive) copy.dispose();
  }
}

function classify(ctx: QuickJSContext, errorHandle: QuickJSHandle): Failed {
  let dumped: unknown;
  try {
    dumped = dumpThrown(ctx, errorHandle);
  } catch {
    dumped = { name: 'InternalError', message: 'out of memory' };
  }
  if (isExit(dumped)) {
    if (errorHandle.alive) errorHandle.dispose();
    throw new ExitRequested(Number((dumped as { __stratbench_exit__: number }).__stratbench_exit__) || 0);
  }
  const error = dumped as { name?: string; message?: string };
  if (error?.name === 'InternalError' && error.message === 'interrupted') {
    if (errorHandle.alive) errorHandle.dispose();
    return { kind: 'timeout' };
  }
  if (error?.name === 'InternalError' && /out of memory/.test(error.message ?? '')) {
    if (errorHandle.alive) errorHandle.dispose();
    return { kind: 'out_of_memory' };
  }
  return { kind: 'rejected', handle: errorHandle };
}

function isExit(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '__stratbench_exit__' in value;
}

function failure(
  ctx: QuickJSContext,
  settled: Failed,
  requestedAs: ReadonlyMap<string, string>,
  options: { timeoutMs?: number; memoryBytes?: number; operationBudget?: number },
  finish: (status: SandboxRunResult['status'], exitCode: number, error?: SandboxError) => SandboxRunResult,
): SandboxRunResult {
  if (settled.kind === 'timeout' || settled.kind === 'out_of_memory') return finish(settled.kind, 1, limitError(settled.kind, options));
  const error = toSandboxError(dumpThrown(ctx, settled.handle), requestedAs);
  if (settled.handle.alive) settled.handle.dispose();
  return finish('error', 1, error);
}

/** Which limit ended the current run's interrupted evaluation: its operation budget or its host time. */
let stoppedBy: 'operations' | 'time' | 'idle' = 'time';

function limitError(kind: 'timeout' | 'out_of_memory', options?: { timeoutMs?: number; memoryBytes?: number; operationBudget?: number }): SandboxError {
  const operations = Math.round(((options?.operationBudget ?? DEFAULT_OPERATION_BUDGET) * 10_000) / 1e6);
  return kind === 'timeout'
    ? {
        name: 'Error',
        message:
          stoppedBy === 'idle'
            ? 'run stopped: a promise it awaits never settles (no job and no timer left that could settle it)'
            : stoppedBy === 'operations'
              ? `run stopped after about ${operations} million operations (an infinite loop, or a promise that never settles)`
              : `run stopped after ${options?.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms of CPU time (an infinite loop, or a promise that never settles)`,
        stack: '',
      }
    : {
        name: 'RangeError',
        message: outOfMemoryMessage(options?.memoryBytes),
        stack: '',
      };
}

/** `text` cut at MAX_OUTPUT_CHARS with a marker, as output is (a thrown 25 MB string came back whole). */
function cutText(text: string): string {
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}… cut at ${MAX_OUTPUT_CHARS} characters` : text;
}

/** Converts a dumped QuickJS error into Node's wording where the two differ (missing exports, non-Error throws). */
export function toSandboxError(dumped: unknown, requestedAs: ReadonlyMap<string, string> = new Map()): SandboxError {
  if (typeof dumped !== 'object' || dumped === null || !('message' in dumped)) {
    return { name: 'Error', message: cutText(`Uncaught ${typeof dumped === 'string' ? `'${dumped}'` : showThrown(dumped)}`), stack: '' };
  }
  const raw = dumped as { name?: unknown; message?: unknown; stack?: unknown; fileName?: unknown; lineNumber?: unknown };
  let name = typeof raw.name === 'string' ? raw.name : 'Error';
  let message = typeof raw.message === 'string' ? raw.message : String(raw.message);
  const missingExport = /^Could not find export '([^']+)' in module '([^']+)'$/.exec(message);
  if (missingExport) {
    name = 'SyntaxError';
    message = `The requested module '${requestedAs.get(missingExport[2]!) ?? missingExport[2]}' does not provide an export named '${missingExport[1]}'`;
  }
  const stack = typeof raw.stack === 'string' ? raw.stack : '';
  const error: SandboxError = { name, message: cutText(message), stack: cutText(stack) };
  const location =
    firstLocation(stack) ??
    (typeof raw.fileName === 'string' && typeof raw.lineNumber === 'number' ? { file: raw.fileName, line: raw.lineNumber, column: 1 } : undefined);
  if (location !== undefined) error.location = location;
  return error;
}

/** A thrown non-error value as Node prints it after `Uncaught` (a BigInt as `10n`); never throws. */
function showThrown(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item)) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The first `file:line:col` stack frame that points into the repository (not the harness's own modules). */
export function firstLocation(stack: string): SourceLocation | undefined {
  for (const match of stack.matchAll(/(?:\(|at )([^\s()]+):(\d+):(\d+)\)?/g)) {
    const file = match[1]!;
    if (file.startsWith('[') || !file.includes('.')) continue;
    return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

function exitCodeOf(engine: Engine): number {
  const { ctx } = engine;
  const handle = ctx.callFunction(engine.exitCode, ctx.undefined);
  if (handle.error) {
    handle.error.dispose();
    return 0;
  }
  const code = ctx.getNumber(handle.value);
  handle.value.dispose();
  return code;
}

/** Per-run settings the prelude's `__stratbench_configure__` applies: env, argv, the fixed date, the random seed. */
function configure(ctx: QuickJSContext, options: SandboxRunOptions & RunInternals): void {
  const date_ms = Date.parse(options.date ?? DEFAULT_DATE);
  const entryPath = 'path' in options.entry ? `/repo/${options.entry.path}` : undefined;
  const settings = JSON.stringify({
    env: { ...(options.env ?? {}) },
    argv: entryPath === undefined ? ['/usr/local/bin/node', ...(options.args ?? [])] : ['/usr/local/bin/node', entryPath, ...(options.args ?? [])],
    date_ms: Number.isNaN(date_ms) ? Date.parse(DEFAULT_DATE) : date_ms,
    seed: options.seed ?? 1,
  });
  const fn = ctx.getProp(ctx.global, '__stratbench_configure__');
  const arg = ctx.newString(settings);
  const result = ctx.callFunction(fn, ctx.undefined, arg);
  arg.dispose();
  fn.dispose();
  if (result.error) {
    const dumped = ctx.dump(result.error);
    result.error.dispose();
    throw new Error(`sandbox configure failed: ${JSON.stringify(dumped)}`);
  }
  result.value.dispose();
}

/** The host bridges (console output, Intl) as global functions the prelude takes and deletes; they act on the current run. */
function installHost(ctx: QuickJSContext): QuickJSHandle[] {
  const settingsHandle = ctx.newString(
    JSON.stringify({ env: {}, argv: ['/usr/local/bin/node'], date_ms: Date.parse(DEFAULT_DATE), seed: 1, cwd: '/repo', formatSource: FORMAT_SOURCE }),
  );
  ctx.setProp(ctx.global, '__stratbench_settings__', settingsHandle);
  settingsHandle.dispose();
  const writeFn = ctx.newFunction('__host_write', (stream, text) => {
    const run = chargeHostCall();
    run.write(ctx.getString(stream), ctx.getString(text));
  });
  ctx.setProp(ctx.global, '__host_write', writeFn);
  const intlFn = ctx.newFunction('__host_intl', (kindHandle, localeHandle, optionsHandle, valueHandle) => {
    const run = chargeHostCall();
    // Past the budget (the run ends at the next interrupt check) or the time limit, no more host work.
    if (run.interrupts > run.operationBudget || pastDeadline(run.deadline)) return ctx.newString('');
    try {
      const locale = ctx.getString(localeHandle);
      const options = ctx.getString(optionsHandle);
      // Host work grows with the options' text: charged by length as tried paths are, so huge options end at the
      // operation budget, not at the CPU-time limit (a verdict that depended on the machine's speed).
      run.interrupts += lengthCharge(run, locale) + lengthCharge(run, options);
      return ctx.newString(hostIntl(ctx.getString(kindHandle), JSON.parse(locale), JSON.parse(options), ctx.dump(valueHandle)));
    } catch (error) {
      return { error: ctx.newError({ name: 'RangeError', message: error instanceof Error ? error.message : String(error) }) };
    }
  });
  ctx.setProp(ctx.global, '__host_intl', intlFn);
  const tamperFn = ctx.newFunction('__host_tamper', (what, stack) => {
    const run = activeScope();
    if (run.tampered.length >= MAX_TAMPER_REPORTS) return;
    const text = ctx.typeof(what) === 'string' ? ctx.getString(what).slice(0, 200) : 'tampering';
    const where = stack !== undefined && ctx.typeof(stack) === 'string' ? firstLocation(ctx.getString(stack)) : undefined;
    run.tampered.push(where === undefined ? text : `${text} (at ${where.file}:${where.line})`);
  });
  ctx.setProp(ctx.global, '__host_tamper', tamperFn);
  return [writeFn, intlFn, tamperFn];
}

/** Longest key of a kept formatter: options of a megabyte (a fresh review, issue 32) would make 1,000 of them a gigabyte. */
const MAX_FORMATTER_KEY_CHARS = 1_000;

/** Formatters by kind, locale and options: creating one costs far more than formatting with it. */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string | string[], options: Record<string, unknown>): Intl.NumberFormat {
  const key = `n${JSON.stringify(locale)}${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as Intl.NumberFormat | undefined;
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions);
    if (formatters.size < 1_000 && key.length <= MAX_FORMATTER_KEY_CHARS) formatters.set(key, formatter);
  }
  return formatter;
}

/** Number and date formatting through the host's ICU, with UTC as the time zone unless the options name one. */
function hostIntl(kind: string, locale: string | string[], options: Record<string, unknown>, value: unknown): string {
  switch (kind) {
    case 'number':
      return numberFormat(locale, options).format(value as number);
    case 'number-parts':
      return JSON.stringify(new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions).formatToParts(value as number));
    case 'number-options':
      return JSON.stringify(new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions).resolvedOptions());
    case 'date':
      return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options } as Intl.DateTimeFormatOptions).format(value as number);
    case 'date-parts':
      return JSON.stringify(new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options } as Intl.DateTimeFormatOptions).formatToParts(value as number));
    case 'date-options':
      return JSON.stringify(new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options } as Intl.DateTimeFormatOptions).resolvedOptions());
    default:
      throw new Error(`unknown Intl bridge call ${kind}`);
  }
}
