// Owns the worker thread that executes repository code (sandbox runs, ESLint) for the main thread, one request at a time.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runEslint } from './lint/run-eslint.js';
import { runInSandbox, type RunInternals, type SandboxRunOptions } from './sandbox/index.js';
import { VITEST_MODULE_SOURCE } from './sandbox/vitest-api.js';
import type { CodeRequest, CodeResponse } from './code-host.js';

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
const flag = new Int32Array(signal);

function handle(request: CodeRequest): CodeResponse {
  const files = new Map(Object.entries(request.files));
  const lookup = (path: string) => files.get(path);
  try {
    if (request.kind === 'sandbox') {
      const { vitest, ...rest } = request.options;
      const options: SandboxRunOptions & RunInternals = { ...rest, files: lookup };
      if (vitest === true) options.syntheticModules = { ...rest.syntheticModules, vitest: VITEST_MODULE_SOURCE };
      return { ok: true, value: runInSandbox(options) };
    }
    return { ok: true, value: runEslint({ ...request.input, files: lookup, runInSandbox }) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort!.on('message', (request: CodeRequest) => {
  const response = handle(request);
  port.postMessage(response);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

// Loaded: tell the waiting main thread.
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);
