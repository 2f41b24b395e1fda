// Owns the worker thread that executes repository code (sandbox runs, ESLint) for the main thread, one request at a time.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { renewSandboxWhenGrown, runInSandbox, type RunInternals, type SandboxRunOptions, type SandboxRunResult } from './sandbox/index.js';
import { VITEST_MODULE_SOURCE, VITEST_SOURCE_MODULE_NAME, VITEST_SOURCE_MODULE_SOURCE } from './sandbox/vitest-api.js';
import type { CodeAnswer, CodeEnvelope, CodeHint, CodeResponse, TreeEnvelope } from './code-host.js';

const { port, signal, preloadEslint } = workerData as { port: MessagePort; signal: SharedArrayBuffer; preloadEslint?: boolean };
const flag = new Int32Array(signal);

/**
 * ESLint (its Linter, rules and parser: about half a second to load) is imported on the first lint request, or
 * in the background right after start-up when the host asked for it; a worker that only runs tests never loads it.
 */
let eslint: Promise<typeof import('./lint/run-eslint.js')> | undefined;
const loadEslint = () => (eslint ??= import('./lint/run-eslint.js'));

/** The bases this worker holds (the host says which to keep: see `envelopeFor` in code-host.ts), with their sorted paths. */
const bases = new Map<number, { files: Map<string, string>; paths?: string[] }>();
/** The last content seen per path: a base sent later reuses the equal strings of earlier ones (tasks share a fixture). */
const latest = new Map<string, string>();

/** Takes in the envelope's base (when sent) and returns the tree's lookup and its sorted paths (computed on demand). */
function receiveTree(tree: TreeEnvelope): { lookup: (path: string) => string | undefined; paths: () => string[] } {
  for (const id of tree.drop) bases.delete(id);
  if (tree.parent !== undefined) {
    const parent = bases.get(tree.parent);
    if (parent === undefined) throw new Error(`code worker: base ${tree.parent} was never sent`);
    const files = new Map(parent.files);
    for (const path of tree.removed ?? []) files.delete(path);
    for (const [path, content] of tree.baseFiles ?? []) files.set(path, content);
    bases.set(tree.base, { files });
  } else if (tree.baseFiles !== undefined) {
    const files = new Map<string, string>();
    for (const [path, content] of tree.baseFiles) {
      const seen = latest.get(path);
      if (seen === content) files.set(path, seen);
      else {
        latest.set(path, content);
        files.set(path, content);
      }
    }
    bases.set(tree.base, { files });
  }
  const base = bases.get(tree.base);
  if (base === undefined) throw new Error(`code worker: base ${tree.base} was never sent`);
  const overlay = new Map(Object.entries(tree.overlay));
  const lookup = (path: string) => (overlay.has(path) ? overlay.get(path) : base.files.get(path));
  const paths = () => {
    base.paths ??= [...base.files.keys()].sort();
    const added = [...overlay.keys()].filter((path) => !base.files.has(path));
    return added.length === 0 ? base.paths : [...base.paths, ...added].sort();
  };
  return { lookup, paths };
}

/** Whether a sandbox run of the current lint (its config's evaluation) reached its time limit. */
let lintReachedTimeLimit = false;

/**
 * The sandbox of lint runs: runInSandbox, noting a run that reached its time limit (the lint's result may then depend
 * on the machine's load: EslintRun.timeLimitReached). One function for every lint: config evaluations are cached per runner.
 */
function lintSandbox(options: SandboxRunOptions): SandboxRunResult {
  const run = runInSandbox(options);
  if (run.timeLimitReached === true) lintReachedTimeLimit = true;
  return run;
}

/** The sandbox's renewal after the last answer (see renewSandboxWhenGrown): the next request waits for it. */
let renewing: Promise<unknown> = Promise.resolve();

async function handle(request: CodeEnvelope): Promise<CodeAnswer> {
  try {
    await renewing;
    const { lookup, paths } = receiveTree(request.tree);
    if (request.kind === 'sandbox') {
      const { vitest, ...rest } = request.options;
      const options: SandboxRunOptions & RunInternals = { ...rest, files: lookup };
      if (vitest === true)
        options.syntheticModules = { ...rest.syntheticModules, vitest: VITEST_MODULE_SOURCE, [VITEST_SOURCE_MODULE_NAME]: VITEST_SOURCE_MODULE_SOURCE };
      return { ok: true, value: runInSandbox(options) };
    }
    const { runEslint } = await loadEslint();
    lintReachedTimeLimit = false;
    const value = runEslint({ ...request.input, paths: paths(), files: lookup, runInSandbox: lintSandbox });
    return { ok: true, value: lintReachedTimeLimit ? { ...value, timeLimitReached: true } : value };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort!.on('message', async (request: CodeEnvelope | CodeHint) => {
  if (request.kind === 'preload-eslint') {
    // A hint: no answer (the host is not waiting for one).
    void loadEslint();
    return;
  }
  const response: CodeResponse = { ...(await handle(request)), id: request.id };
  port.postMessage(response);
  // The answer is on the port before its id is in the flag (the host reads the port once it sees the id).
  Atomics.store(flag, 0, request.id);
  Atomics.notify(flag, 0);
  // After the answer, so the host does not wait for it; a failed renewal is the next run's error to report.
  renewing = renewSandboxWhenGrown().catch(() => false);
});

// Loaded: tell the waiting main thread (1 = READY in code-host.ts; request ids start above it).
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);
if (preloadEslint === true) setImmediate(() => void loadEslint());
