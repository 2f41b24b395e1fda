// Owns the main thread's side of code execution: a pool of worker threads called synchronously (or ahead, asynchronously, side by side), with a hard deadline.
import { pinSandboxTimeZone } from './time-zone.js';
import { activeRunStore } from './run-store.js';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { EslintRun, RunEslintInput } from './lint/run-eslint.js';
import type { RunInternals, SandboxRunOptions, SandboxRunResult } from './sandbox/index.js';
import { DEFAULT_TIMEOUT_MS, HARD_CUTOFF_FACTOR } from './sandbox/limits.js';

/**
 * The files code runs against: a frozen base (a fixture's files, shared by every repository made from it) and the
 * overlay on it (the files an episode wrote, then any extra files such as hidden tests: later wins). The code
 * worker keeps each base it has been sent, so a request carries only the overlay (see `callCodeWorker`).
 */
export interface WorkingTree {
  base: { id: number; files: ReadonlyMap<string, string> };
  overlay: Record<string, string>;
}

/** A request to the code worker, with the tree it runs against (the main thread is blocked while it runs). */
export type CodeRequest =
  | { kind: 'sandbox'; options: Omit<SandboxRunOptions, 'files'> & RunInternals & { vitest?: boolean }; tree: WorkingTree }
  | { kind: 'eslint'; input: Omit<RunEslintInput, 'files' | 'runInSandbox' | 'paths'>; tree: WorkingTree };

/**
 * The tree as posted: the base by id, its files only when the worker does not hold it yet, and the ids of bases the
 * worker should forget first (the host decides, so both sides agree on what the worker holds).
 */
export interface TreeEnvelope {
  base: number;
  /** The base's files when the worker does not hold it yet: all of them, or with `parent` only those that differ from it. */
  baseFiles?: Array<[string, string]>;
  /** A base the worker holds that the new one is derived from: its files, minus `removed`, plus `baseFiles`. */
  parent?: number;
  removed?: string[];
  drop: number[];
  overlay: Record<string, string>;
}

/** A hint with no answer: start loading ESLint in the background now (a lint request would wait for it otherwise). */
export type CodeHint = { kind: 'preload-eslint' };

/** The worker's answer to request `id` (the host drops any answer whose id is not the one it waits for). */
export type CodeAnswer = { ok: true; value: SandboxRunResult | EslintRun } | { ok: false; message: string };
export type CodeResponse = CodeAnswer & { id: number };

/** A request as posted: `id` is echoed in the answer and stored in the shared flag when the answer is posted. */
export type CodeEnvelope =
  | (Omit<Extract<CodeRequest, { kind: 'sandbox' }>, 'tree'> & { id: number; tree: TreeEnvelope })
  | (Omit<Extract<CodeRequest, { kind: 'eslint' }>, 'tree'> & { id: number; tree: TreeEnvelope });

/** Flag values: 0 while the worker loads, READY once loaded; afterwards the id of the last request answered. */
const READY = 1;

/**
 * Wall-time allowance for a worker's start (loading its modules, compiling QuickJS's WebAssembly), ms: about 0.3 s
 * idle, and generous so that a loaded machine (load 10+ on 2 cores) never turns a start into an error.
 */
const STARTUP_ALLOWANCE_MS = 120_000;
/** A prewarmed worker that no request has used within this long is ended, ms. */
const PREWARM_UNUSED_MS = 15_000;
/** Extra host time a request may take beyond its hard cutoff before the worker is killed, ms. */
const HARD_CUTOFF_GRACE_MS = 1_000;

/**
 * The wall time after which a request with time limit `deadlineMs` is killed with its worker, ms: HARD_CUTOFF_FACTOR
 * times the limit (which the sandbox counts in CPU time, and a loaded machine stretches on the wall clock) plus grace.
 */
export function hardCutoffMs(deadlineMs: number): number {
  return deadlineMs * HARD_CUTOFF_FACTOR + HARD_CUTOFF_GRACE_MS;
}
/** A worker idle this long is ended: its QuickJS heap and ESLint go with it, so repeated states cost no memory. */
const IDLE_MS = 300;
/**
 * A worker needed again within this long of an idle ending was ended too early (model calls of a real model, or of
 * the fake servers at 50 ms, leave gaps longer than IDLE_MS between test runs): the next one waits 4 times as long,
 * up to MAX_IDLE_MS. Without this, every test run of a model-backed episode paid a worker start-up (~300 ms, main
 * thread blocked) — measured with `npm run bench:ollama`.
 */
const RESTART_WINDOW_MS = 2_000;
const MAX_IDLE_MS = 30_000;
let idleMs = IDLE_MS;
/** When a worker last ended for idleness (ms since the epoch), or 0. */
let lastIdleEnd = 0;
/** Bases a worker keeps at most (a suite's tasks each have one; the least recently used is forgotten first). */
const WORKER_BASES = 32;

/**
 * Code workers at most: `STRATBENCH_CODE_WORKERS` (a whole number ≥ 1) when set, else the machine's available
 * parallelism (`os.availableParallelism()`). Only requests made ahead (`codeAhead`) run side by side, so a run whose
 * code requests all block uses one worker whatever this is. Each worker holds its own QuickJS heap (and ESLint once it
 * lints): the variable bounds memory on a machine shared with other work.
 * @throws Error when `STRATBENCH_CODE_WORKERS` is set to anything but a whole number ≥ 1.
 */
export function codeWorkerLimit(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const set = env['STRATBENCH_CODE_WORKERS'];
  if (set === undefined || set === '') return Math.max(1, availableParallelism());
  if (!/^[1-9]\d*$/.test(set)) throw new Error(`STRATBENCH_CODE_WORKERS must be a whole number ≥ 1, not ${JSON.stringify(set)}`);
  return Number(set);
}
let poolLimit: number | undefined;
const limit = () => (poolLimit ??= codeWorkerLimit());

/** The code workers this process may run at once (setCodeWorkerLimit, else codeWorkerLimit()): how many replays `run` makes side by side. */
export function codeWorkerCount(): number {
  return limit();
}

/** Sets the number of code workers (tests; undefined: codeWorkerLimit() again). Running workers beyond it end when idle. */
export function setCodeWorkerLimit(workers: number | undefined): void {
  poolLimit = workers;
}

/** Episodes the runner has in flight at once (see `runEpisodesSideBySide`). */
let episodesInFlight = 1;

/**
 * Declares that `episodes` episodes run at once from now on (the runner's `--concurrency`; 1 when done), and returns
 * the previous count to restore.
 */
export function runEpisodesSideBySide(episodes: number): number {
  const previous = episodesInFlight;
  episodesInFlight = Math.max(1, episodes);
  return previous;
}

/**
 * True when requests made ahead can run side by side with other episodes' (more than one episode in flight and room
 * for more than one worker): then even an in-process model's episodes gain by sending their code ahead (`codeAhead`),
 * as one episode's test run on one worker no longer stops the others'. With one episode or one worker a request ahead
 * only adds its probe's cost.
 */
export function codeAheadOverlaps(): boolean {
  return episodesInFlight > 1 && limit() > 1;
}

interface Live {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  /** False until the worker has signalled that its modules are loaded (a prewarmed worker may still be loading). */
  ready: boolean;
  /** True once a request was sent (a prewarmed worker nobody used can be stopped). */
  used: boolean;
  /** True once ended (idle, killed, failed start): it is out of the pool and gets no request again. */
  ended: boolean;
  /** True while a request ahead has claimed it (from choosing it until its answer is read). */
  claimed: boolean;
  /** The request ahead posted to it and not answered yet. */
  inFlight?: InFlight;
  /** True once the worker was asked to load ESLint ahead of its first lint request. */
  eslintPreloaded: boolean;
  /** The bases this worker holds by id, least recently used first. */
  bases: Map<number, ReadonlyMap<string, string>>;
  idle?: NodeJS.Timeout;
}

/** The running workers, oldest first (at most `limit()` of them; a worker that ends leaves it). */
const pool: Live[] = [];
/** Requests ahead waiting for a worker to be free, woken one at a time. */
const waitingForWorker: Array<() => void> = [];
/** Ids of requests; starting above READY so an answered id never reads as the ready signal. */
let lastRequestId = READY;

/** A request posted by `requestAhead` and not answered yet (one per worker). */
interface InFlight {
  current: Live;
  id: number;
  /** The request's identity (requestKey): a blocking request equal to it waits for this answer instead of running again. */
  key: string;
  /** Host time by which it must be answered (ms since the epoch), deadline + grace included. */
  deadline: number;
  settled: boolean;
  /** The answer, or undefined when the request ran past its deadline and the worker was killed. */
  answer?: CodeResponse;
}

/** What a request ahead gives: its answer (undefined: killed at its deadline), or 'unavailable' (see requestAhead). */
type Fetched = { answer: CodeResponse | undefined } | 'unavailable';
/** Requests ahead not answered yet, by request key: an equal request made meanwhile shares the answer. */
const pendingAhead = new Map<string, Promise<Fetched>>();
/**
 * Requests ahead not answered yet, by similarKey (the request but for the overlay): a probe needing a similar run
 * waits for it once, then probes again, since the host's content-keyed caches (test-runner.ts, lint-command.ts,
 * node-command.ts) then serve it when the run read nothing the two trees differ in. Run once, not side by side.
 */
const pendingSimilar = new Map<string, Promise<Fetched>>();

/** Answers fetched ahead for the synchronous pass now running (see `codeAhead`), by request key; else undefined. */
let ahead: Map<string, CodeResponse | undefined> | undefined;
/** True while `codeAhead`'s probe runs: a request with no answer ahead is noted in `wanted` and the probe stopped. */
let probing = false;
let wanted: { request: CodeRequest; deadlineMs: number; key: string } | undefined;

/** Thrown inside a probe at its first request with no answer yet (never escapes `codeAhead`). */
class ProbeStopped extends Error {
  override readonly name = 'ProbeStopped';
}

/**
 * Counts since the process started (for `npm run bench:ollama`): requests sent ahead of their synchronous pass,
 * answers used, requests that blocked the main thread (`blocking`), requests answered by an equal request already
 * on a worker (`shared`: run once for both), probes that waited for a similar request (`waited`: see pendingSimilar),
 * and workers started (`started`). Runs executed on workers: `ahead + blocking`.
 */
export const codeAheadStats = { ahead: 0, used: 0, blocking: 0, shared: 0, waited: 0, started: 0 };

/**
 * The worker's entry. Built (dist/), it is code-worker.js. Under tsx or vitest (development, tests) the sources
 * are TypeScript: a small bootstrap registers tsx's loader in the worker first, then imports code-worker.ts.
 */
function workerEntry(): { entry: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { entry: new URL('./code-worker.js', import.meta.url), eval: false };
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const target = new URL('./code-worker.ts', import.meta.url).href;
  return { entry: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(target)}); });`, eval: true };
}

/** Starts a worker without waiting for it (it loads its modules on another core while this thread goes on), in the pool. */
function spawn(preloadEslint: boolean): Live {
  // Before the worker starts: it takes the process's zone, which QuickJS's local-time Date methods read.
  pinSandboxTimeZone();
  if (lastIdleEnd > 0 && Date.now() - lastIdleEnd < RESTART_WINDOW_MS) idleMs = Math.min(idleMs * 4, MAX_IDLE_MS);
  const signal = new SharedArrayBuffer(4);
  const channel = new MessageChannel();
  const { entry, eval: isEval } = workerEntry();
  const worker = new Worker(entry, {
    eval: isEval,
    workerData: { port: channel.port2, signal, preloadEslint },
    transferList: [channel.port2],
    stdout: false,
    stderr: false,
  });
  worker.unref();
  channel.port1.unref();
  codeAheadStats.started++;
  const current: Live = {
    worker,
    port: channel.port1,
    flag: new Int32Array(signal),
    ready: false,
    used: false,
    ended: false,
    claimed: false,
    eslintPreloaded: preloadEslint,
    bases: new Map(),
  };
  pool.push(current);
  return current;
}

/** Waits for a spawned worker to signal that its modules (QuickJS's WebAssembly included) are loaded. */
function awaitReady(current: Live): void {
  if (current.ready) return;
  const deadline = Date.now() + STARTUP_ALLOWANCE_MS;
  while (Atomics.load(current.flag, 0) === 0) {
    const left = deadline - Date.now();
    if (left <= 0 || Atomics.wait(current.flag, 0, 0, left) === 'timed-out') {
      if (Atomics.load(current.flag, 0) !== 0) break;
      stop(current);
      throw new Error(`the code worker did not start within ${STARTUP_ALLOWANCE_MS} ms`);
    }
  }
  current.ready = true;
}

/**
 * Waits until the answer to request `id` is on the port, or `budgetMs` has passed (then undefined). Answers with
 * another id (left behind by an earlier request) are dropped, and a wake-up that brought no answer (a late
 * notify of the ready signal) waits again: the answer returned is always this request's.
 */
export function awaitAnswer(current: { port: MessagePort; flag: Int32Array }, id: number, budgetMs: number): CodeResponse | undefined {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    for (let received = receiveMessageOnPort(current.port); received !== undefined; received = receiveMessageOnPort(current.port)) {
      const answer = received.message as CodeResponse;
      if (answer.id === id) return answer;
    }
    const seen = Atomics.load(current.flag, 0);
    // The worker stores the id after posting the answer: when it is already there, the loop above took it.
    if (seen === id) continue;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(current.flag, 0, seen, left);
  }
}

/** True once prewarmCodeWorker was asked for ESLint: a worker started later for a request ahead loads it too. */
let eslintWanted = false;

/**
 * Starts a code worker now, in the background, so that loading QuickJS's WebAssembly (and, with
 * `eslint: true`, ESLint) overlaps with this thread's own start-up instead of delaying the first test run.
 * When workers are already running, only asks them to preload ESLint (if `eslint: true` and not asked yet). A worker
 * still ends after IDLE_MS without requests once it has served one; a prewarmed worker that is never used ends after
 * PREWARM_UNUSED_MS. More workers (up to codeWorkerLimit()) start when requests ahead need them.
 */
export function prewarmCodeWorker(options: { eslint?: boolean } = {}): void {
  if (options.eslint === true) eslintWanted = true;
  if (pool.length > 0) {
    for (const current of pool) {
      if (options.eslint === true && !current.eslintPreloaded) {
        current.eslintPreloaded = true;
        current.worker.postMessage({ kind: 'preload-eslint' } satisfies CodeHint);
      }
    }
    return;
  }
  const current = spawn(options.eslint === true);
  current.idle = setTimeout(() => stop(current), PREWARM_UNUSED_MS);
  current.idle.unref();
}

/** Ends `current` (its request in flight, if any, is answered undefined: killed) and takes it out of the pool. */
function stop(current: Live): void {
  if (current.ended) return;
  current.ended = true;
  clearTimeout(current.idle);
  void current.worker.terminate();
  if (current.inFlight !== undefined) settle(current.inFlight, undefined);
  pool.splice(pool.indexOf(current), 1);
  // A request ahead waiting for room can start a worker in its place.
  waitingForWorker.shift()?.();
}

/** Records the in-flight request's answer (undefined: killed at its deadline) and wakes its asynchronous waiter. */
function settle(request: InFlight, answer: CodeResponse | undefined): void {
  if (request.settled) return;
  request.settled = true;
  request.answer = answer;
  if (request.current.inFlight === request) request.current.inFlight = undefined;
  Atomics.notify(request.current.flag, 0);
}

/**
 * Waits, blocking, for `request` (posted ahead): its answer is kept for its asynchronous waiter. At its deadline the
 * worker is killed, as for a synchronous request.
 */
function settleBlocking(request: InFlight): void {
  if (request.settled) return;
  const answer = awaitAnswer(request.current, request.id, Math.max(0, request.deadline - Date.now()));
  if (answer === undefined) stop(request.current);
  else settle(request, answer);
}

/** Of `candidates`, one that holds `baseId` (it is sent only the overlay), else the first; undefined when none. */
function preferHolding(candidates: readonly Live[], baseId: number): Live | undefined {
  return candidates.find((current) => current.bases.has(baseId)) ?? candidates[0];
}

/**
 * The worker for a blocking request: a free one (ready first, holding the tree's base first), else a new one while
 * the pool has room, else a worker with a request ahead, after waiting for that request (a request posted behind it
 * would be charged its time). Ready on return.
 */
function acquireBlocking(baseId: number): Live {
  const free = pool.filter((current) => !current.claimed);
  let current = preferHolding(
    free.filter((candidate) => candidate.ready),
    baseId,
  );
  current ??= free[0];
  if (current === undefined && pool.length < limit()) current = spawn(false);
  if (current === undefined) {
    current = pool.find((candidate) => candidate.inFlight !== undefined) ?? pool[0]!;
    if (current.inFlight !== undefined) {
      settleBlocking(current.inFlight);
      if (current.ended) return acquireBlocking(baseId);
    }
  }
  clearTimeout(current.idle);
  awaitReady(current);
  return current;
}

/** Claims a worker for a request ahead: a free one, else a new one while the pool has room, else the next one freed. */
async function claimAhead(baseId: number): Promise<Live> {
  for (;;) {
    let current = preferHolding(
      pool.filter((candidate) => !candidate.claimed),
      baseId,
    );
    if (current === undefined && pool.length < limit()) current = spawn(eslintWanted);
    if (current !== undefined) {
      current.claimed = true;
      clearTimeout(current.idle);
      return current;
    }
    await new Promise<void>((resolve) => waitingForWorker.push(resolve));
  }
}

/** Frees a worker claimed ahead: the next request waiting for one takes it; it ends after idleMs if nobody does. */
function release(current: Live): void {
  current.claimed = false;
  if (current.ended) return;
  const next = waitingForWorker.shift();
  if (next !== undefined) next();
  else idleLater(current);
}

/** Ends `current` after `idleMs` without requests (at once when the pool is over its limit). */
function idleLater(current: Live): void {
  clearTimeout(current.idle);
  current.idle = setTimeout(
    () => {
      if (current.ended || current.claimed) return;
      lastIdleEnd = Date.now();
      stop(current);
    },
    pool.length > limit() ? 0 : idleMs,
  );
  current.idle.unref();
}

/** The identity of a request: equal keys ask the worker the same thing (the tree's base by id, its overlay in full). */
function requestKey(request: CodeRequest, deadlineMs: number): string {
  const { tree, ...rest } = request;
  return JSON.stringify([deadlineMs, tree.base.id, rest, tree.overlay]);
}

/** A request's identity but for its overlay: the same command on the same base, in another episode's working tree. */
function similarKey(request: CodeRequest, deadlineMs: number): string {
  const { tree, ...rest } = request;
  return JSON.stringify([deadlineMs, tree.base.id, rest]);
}

/** The value of an answer as `callCodeWorker` returns it: undefined for a killed run; a failed worker throws. */
function answerValue(answer: CodeResponse | undefined): SandboxRunResult | EslintRun | undefined {
  if (answer === undefined) return undefined;
  if (!answer.ok) throw new Error(`code worker failed: ${answer.message}`);
  return answer.value;
}

/**
 * Runs `request` on a code worker and waits for it, blocking this thread (repository code is synchronous for
 * its callers). Workers are started on demand and ended after IDLE_MS without requests (longer once one was needed
 * again soon after such an ending: see RESTART_WINDOW_MS). When an equal request is already running ahead on a
 * worker, its answer is waited for and shared (run once). If the request runs past hardCutoffMs(deadlineMs) of wall
 * time (+ start-up allowance for a fresh worker), its worker is killed — a hard cutoff for code that never yields to
 * QuickJS's interrupt handler — and `undefined` is returned; other workers and their requests go on.
 * @throws Error when the worker itself fails (a harness bug), with the worker's stack.
 */
export function callCodeWorker(request: CodeRequest, deadlineMs: number): SandboxRunResult | EslintRun | undefined {
  let key: string | undefined;
  if (ahead !== undefined) {
    key = requestKey(request, deadlineMs);
    if (ahead.has(key)) {
      if (!probing) codeAheadStats.used++;
      return answerValue(ahead.get(key));
    }
    if (probing) {
      wanted ??= { request, deadlineMs, key };
      throw new ProbeStopped('a probe needs the code worker');
    }
  }
  if (pendingAhead.size > 0) {
    key ??= requestKey(request, deadlineMs);
    const running = pool.find((current) => current.inFlight?.key === key)?.inFlight;
    if (running !== undefined) {
      codeAheadStats.shared++;
      settleBlocking(running);
      return answerValue(running.answer);
    }
  }
  codeAheadStats.blocking++;
  const current = acquireBlocking(request.tree.base.id);
  current.used = true;
  const id = ++lastRequestId;
  current.worker.postMessage({ ...request, id, tree: envelopeFor(current, request.tree) } satisfies CodeEnvelope);
  const message = awaitAnswer(current, id, hardCutoffMs(deadlineMs));
  if (message === undefined) {
    stop(current);
    return undefined;
  }
  if (!current.claimed) idleLater(current);
  return answerValue(message);
}

/**
 * Sends `request` to a free code worker without blocking this thread (up to codeWorkerLimit() side by side; later
 * calls wait for a worker) and resolves with the answer, or undefined for a run killed at `deadlineMs` + grace (as
 * `callCodeWorker`). An equal request already ahead (same key) is not sent again: both get its answer. Resolves with
 * `'unavailable'` when no worker could be started or its worker was ended meanwhile: the synchronous pass then makes
 * the request itself.
 */
function requestAhead(request: CodeRequest, deadlineMs: number, key: string): Promise<Fetched> {
  const pending = pendingAhead.get(key);
  if (pending !== undefined) {
    codeAheadStats.shared++;
    return pending;
  }
  const similar = similarKey(request, deadlineMs);
  const fetched = fetchAhead(request, deadlineMs, key).finally(() => {
    pendingAhead.delete(key);
    if (pendingSimilar.get(similar) === fetched) pendingSimilar.delete(similar);
  });
  pendingAhead.set(key, fetched);
  pendingSimilar.set(similar, fetched);
  return fetched;
}

async function fetchAhead(request: CodeRequest, deadlineMs: number, key: string): Promise<Fetched> {
  // Keeps the process alive while it waits (the workers and their ports are unref'd; Atomics.waitAsync holds nothing).
  const keepAlive = setInterval(() => {}, 1_000);
  const current = await claimAhead(request.tree.base.id);
  try {
    if (!(await readyAhead(current)) || current.ended) return 'unavailable';
    current.used = true;
    const id = ++lastRequestId;
    const posted: InFlight = { current, id, key, deadline: Date.now() + hardCutoffMs(deadlineMs), settled: false };
    current.inFlight = posted;
    current.worker.postMessage({ ...request, id, tree: envelopeFor(current, request.tree) } satisfies CodeEnvelope);
    codeAheadStats.ahead++;
    while (!posted.settled) {
      for (let received = receiveMessageOnPort(current.port); received !== undefined; received = receiveMessageOnPort(current.port)) {
        const answer = received.message as CodeResponse;
        if (answer.id === id) settle(posted, answer);
      }
      if (posted.settled) break;
      const seen = Atomics.load(current.flag, 0);
      if (seen === id) continue;
      const left = posted.deadline - Date.now();
      if (left <= 0) {
        stop(current);
        break;
      }
      const wait = waitAsync(current.flag, 0, seen, left);
      if (wait.async) await wait.value;
    }
    return { answer: posted.answer };
  } finally {
    clearInterval(keepAlive);
    release(current);
  }
}

/** `awaitReady` without blocking: false when the worker did not start within STARTUP_ALLOWANCE_MS (it is stopped). */
async function readyAhead(current: Live): Promise<boolean> {
  const deadline = Date.now() + STARTUP_ALLOWANCE_MS;
  while (!current.ready && Atomics.load(current.flag, 0) === 0) {
    const left = deadline - Date.now();
    if (left <= 0 || current.ended) {
      stop(current);
      return false;
    }
    const wait = waitAsync(current.flag, 0, 0, left);
    if (wait.async) await wait.value;
  }
  current.ready = true;
  return true;
}

/**
 * `Atomics.waitAsync` (Node ≥ 16; ES2024, newer than this project's TypeScript lib): resolves when `flag[index]` is
 * notified or no longer `value`, or after `timeoutMs`.
 */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(flag: Int32Array, index: number, value: number, timeoutMs: number): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** Probe rounds of `codeAhead` at most: a command line needing more sandbox runs than this runs the rest blocking. */
const MAX_PROBES = 8;

/**
 * Runs `real` — synchronous code that may call the code worker (a `run` tool call, scoring) — after fetching, without
 * blocking this thread, the answers it will ask for, so that other episodes' model calls go on meanwhile (issue 14 §5:
 * a blocked main thread reads no HTTP reply) and other episodes' requests run on other workers. `probe` must do what
 * `real` does on a copy of its state (e.g. `repo.clone()`): it runs until its first request with no answer yet, which
 * is then sent ahead, up to MAX_PROBES times. `real` then runs with those answers; a request the probe did not foresee
 * is made blocking, as without this, so the result is always the synchronous one. The probe's own results and errors
 * are discarded.
 * @returns what `real` returns; throws what it throws.
 */
export function codeAhead<T>(probe: () => unknown, real: () => T): Promise<T> {
  return runAhead(probe, real, false);
}

/**
 * `codeAhead` for a computation without side effects on shared state (scoring checks on a copy of the repository):
 * the probe is the computation itself, and its last round, which ran with every answer it needed, is the result.
 * @returns what `compute` returns; throws what it throws.
 */
export function codeAheadPure<T>(compute: () => T): Promise<T> {
  return runAhead(compute, compute, true);
}

async function runAhead<T>(probe: () => unknown, real: () => T, probeIsReal: boolean): Promise<T> {
  const answers = new Map<string, CodeResponse | undefined>();
  /** The similar requests this pass has waited for (once each, MAX_PROBES at most). */
  const waited = new Set<string>();
  for (let round = 0; round < MAX_PROBES; ) {
    ahead = answers;
    probing = true;
    wanted = undefined;
    let outcome: { value: unknown } | { error: unknown };
    try {
      outcome = { value: probe() };
    } catch (error) {
      // ProbeStopped, or a failure `real` will meet and report itself.
      outcome = { error };
    } finally {
      ahead = undefined;
      probing = false;
    }
    const need = wanted as { request: CodeRequest; deadlineMs: number; key: string } | undefined;
    wanted = undefined;
    if (need === undefined) {
      if (!probeIsReal) break;
      if ('error' in outcome) throw outcome.error;
      return outcome.value as T;
    }
    const similar = pendingAhead.has(need.key) ? undefined : similarKey(need.request, need.deadlineMs);
    const running = similar === undefined || waited.has(similar) || waited.size >= MAX_PROBES ? undefined : pendingSimilar.get(similar);
    if (running !== undefined) {
      // Another episode's run of the same command: its result may serve this one from the host's caches.
      waited.add(similar!);
      codeAheadStats.waited++;
      await running;
      continue;
    }
    round++;
    const fetched = await requestAhead(need.request, need.deadlineMs, need.key);
    if (fetched === 'unavailable') break;
    answers.set(need.key, fetched.answer);
  }
  ahead = answers.size > 0 ? answers : undefined;
  try {
    return real();
  } finally {
    ahead = undefined;
  }
}

/**
 * Prewarms a code worker when any of `specs` runs code (a `test` or `lint` script; `eslint` preloaded only when
 * a `lint` script exists), or stops speculatively prewarmed workers that none of them needs. Call once before a
 * run's first episode: worker start-up then overlaps the run's own. When the code cache in use already holds runs
 * of this harness (run-store.ts), no worker is prewarmed and speculative ones stop: a run served from the disk needs
 * none, and a worker costs ~40 MB (decision 0049); one starts at the first run the cache does not hold.
 * @throws Error when `STRATBENCH_CODE_WORKERS` is not a whole number ≥ 1 (codeWorkerLimit).
 */
export function prewarmForRepos(specs: Iterable<{ scripts: Readonly<Record<string, { kind: string }>> }>): void {
  // A wrong STRATBENCH_CODE_WORKERS fails the run here, before its first episode.
  limit();
  let tests = false;
  let lint = false;
  for (const spec of specs) {
    for (const script of Object.values(spec.scripts)) {
      tests ||= script.kind === 'test';
      lint ||= script.kind === 'lint';
    }
  }
  if ((tests || lint) && activeRunStore()?.holdsRuns() !== true) prewarmCodeWorker({ eslint: lint });
  else for (const current of pool.filter((candidate) => !candidate.used)) stop(current);
}

/** Ends every worker now (tests; a process that is about to exit needs nothing: the workers are unref'd). */
export function stopCodeWorker(): void {
  for (const current of [...pool]) stop(current);
}

/**
 * What `current` must be sent for `tree`: the overlay always; a base only the first time, and then as its difference
 * from the base the worker used last when that is small (a suite's tasks share one fixture, with a few overrides
 * each), so a new task costs O(files) comparisons here but ships O(changed files). Keeps the LRU bookkeeping.
 */
function envelopeFor(current: Live, tree: WorkingTree): TreeEnvelope {
  const { id, files } = tree.base;
  const held = current.bases.get(id);
  if (held !== undefined) {
    current.bases.delete(id);
    current.bases.set(id, held);
    return { base: id, drop: [], overlay: tree.overlay };
  }
  const drop: number[] = [];
  for (const old of current.bases.keys()) {
    if (current.bases.size - drop.length < WORKER_BASES) break;
    drop.push(old);
  }
  for (const forgotten of drop) current.bases.delete(forgotten);
  const parent = [...current.bases].at(-1);
  current.bases.set(id, files);
  if (parent !== undefined) {
    const [parentId, parentFiles] = parent;
    const changed: Array<[string, string]> = [];
    for (const [path, content] of files) if (parentFiles.get(path) !== content) changed.push([path, content]);
    const removed: string[] = [];
    for (const path of parentFiles.keys()) if (!files.has(path)) removed.push(path);
    if (changed.length + removed.length < files.size / 2) return { base: id, parent: parentId, baseFiles: changed, removed, drop, overlay: tree.overlay };
  }
  return { base: id, baseFiles: [...files], drop, overlay: tree.overlay };
}

/** The tree as one lookup: overlay first, then the base. */
export function treeLookup(tree: WorkingTree): (path: string) => string | undefined {
  return (path) => (Object.hasOwn(tree.overlay, path) ? tree.overlay[path] : tree.base.files.get(path));
}

/** Every file of the tree as `[path, content]` (O(files): only for the rare run the harness had to kill). */
export function treeEntries(tree: WorkingTree): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [path, content] of tree.base.files) if (!Object.hasOwn(tree.overlay, path)) entries.push([path, content]);
  return [...entries, ...Object.entries(tree.overlay)];
}

/**
 * Runs repository code in the sandbox on the code worker (see runInSandbox for the options and the result). A run
 * the worker had to be killed for (it never yielded: a long native call) ends as `timeout` with a message saying so.
 */
export function runSandboxed(options: Omit<SandboxRunOptions, 'files'> & RunInternals & { vitest?: boolean }, tree: WorkingTree): SandboxRunResult {
  const deadline = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = callCodeWorker({ kind: 'sandbox', options, tree }, deadline);
  if (result !== undefined) return result as SandboxRunResult;
  const killed: SandboxRunResult = {
    status: 'timeout',
    exitCode: 1,
    stdout: [],
    stderr: [],
    error: {
      name: 'Error',
      message: `run killed after ${hardCutoffMs(deadline)} ms: the code never yielded (a long native call); the harness's hard cutoff ended it`,
      stack: '',
    },
    reads: treeEntries(tree),
  };
  killedRuns.add(killed);
  return killed;
}

/** Runs the harness killed at its hard cutoff (runSandboxed): the wall clock decided them, so no run store keeps them. */
const killedRuns = new WeakSet<SandboxRunResult>();

/**
 * Whether a code cache may keep `run`'s result (decision 0049): not when the harness killed it at its hard cutoff, nor
 * when it reached its CPU-time limit (SandboxRunResult.timeLimitReached) — the machine's load, not the code, may have
 * decided those. The operation budget, the memory cap and a promise that never settles decide the same on any machine.
 */
export function storableRun(run: SandboxRunResult): boolean {
  return !killedRuns.has(run) && run.timeLimitReached !== true;
}
