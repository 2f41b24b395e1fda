// Owns the `node` command: `node FILE`, `node -e CODE`, `node -p CODE` run the repository's code in the sandbox.
import { RunCache } from './run-cache.js';
import { STORED_FORMS } from './stored-results.js';
import { runSandboxed, storableRun } from './code-host.js';
import type { SandboxRunResult } from './sandbox/index.js';
import type { CommandOutcome } from './script-runner.js';
import { overlayTree, workingFile, type RepoState } from './state.js';
import { DEFAULT_TIMEOUT_MS } from './sandbox/limits.js';

/** Outcomes of earlier `node` runs, valid while every file they read reads the same. */
const nodeRunCache = new RunCache<CommandOutcome>({
  maxEntries: 1_000,
  maxBytes: 4 * 1024 * 1024,
  sizeOf: (outcome) => 2 * outcome.output.length,
  stored: { name: 'node', ...STORED_FORMS.node },
});

/** Forgets every cached `node` run (benchmarks: each run as a fresh process would make it). */
export function clearNodeRunCache(): void {
  nodeRunCache.clear();
}

/**
 * Runs `node` with `args` in the sandbox: a file (`node src/x.js a b`), inline code (`-e`/`--eval`, or `-p`/`--print`
 * to print its value), `--version`. Code runs as an ES module with Node's resolution (exact paths); `require`,
 * `node:` built-ins and undeclared packages fail as they would without those modules. Output is stdout then
 * stderr; an uncaught error prints Node's `file:line` header and stack and exits 1; limits end the run with exit 1.
 * Without a script or code (`node` alone would start a REPL) it exits 1 with a message.
 */
export function runNode(state: RepoState, env: Readonly<Record<string, string>>, args: readonly string[]): CommandOutcome {
  let code: string | undefined;
  let print = false;
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-v' || arg === '--version') return { exit_code: 0, output: 'v20.20.2', side_effect: 'none' };
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') {
      print = arg === '-p' || arg === '--print';
      code = args[++index];
      if (code === undefined) return { exit_code: 9, output: `node: ${arg} requires an argument`, side_effect: 'none' };
      index++;
      break;
    }
    if (!arg.startsWith('-')) break;
  }
  const rest = args.slice(index);
  if (code === undefined && rest.length === 0) {
    return { exit_code: 1, output: 'node: the interactive REPL is not available here; run a file (node FILE) or code (node -e CODE)', side_effect: 'none' };
  }
  const path = code === undefined ? rest[0]!.replace(/^(\/repo\/|\.\/)/, '') : undefined;
  const lookup = (file: string) => workingFile(state, file);
  // The declared packages are part of the key: they change how an undeclared import fails ("Cannot find package").
  const packages = [...Object.keys(state.spec.dependencies), ...Object.keys(state.spec.devDependencies)];
  const key = JSON.stringify([code ?? null, print, path ?? null, code === undefined ? rest.slice(1) : rest, env, state.spec.date, packages]);
  const held = (file: string) => state.base.initial.get(file);
  const cached = nodeRunCache.get(key, lookup, held);
  if (cached !== undefined) return cached;
  // -p prints the value as Node's util.inspect would (console.log's formatting), statements allowed as in Node.
  const entry = path !== undefined ? { path } : { code: print ? `console.log((0, eval)(${JSON.stringify(code)}));` : code!, filename: '[eval1]' };
  const run = runSandboxed(
    {
      entry,
      env,
      args: code === undefined ? rest.slice(1) : rest,
      packages,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      resolution: 'node',
      date: state.spec.date,
    },
    overlayTree(state),
  );
  const outcome = toOutcome(run, path);
  nodeRunCache.set(key, run.reads, outcome, held, storableRun(run));
  return outcome;
}

function toOutcome(run: SandboxRunResult, path: string | undefined): CommandOutcome {
  const lines = [...run.stdout, ...run.stderr];
  if (run.status === 'ok') return { exit_code: run.exitCode, output: lines.join('\n'), side_effect: 'none' };
  const error = run.error!;
  if (error.message.startsWith('Cannot find module') && path !== undefined && run.reads.length <= 1) {
    lines.push(`node:internal/modules/run_main:123`, `Error: Cannot find module '/repo/${path}'`, `  code: 'MODULE_NOT_FOUND'`);
    return { exit_code: 1, output: lines.join('\n'), side_effect: 'none' };
  }
  const where = error.location === undefined ? [] : [`/repo/${error.location.file}:${error.location.line}`, ''];
  lines.push(
    ...where,
    `${error.name}: ${error.message}`,
    ...error.stack
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, 10),
    '',
    'Node.js v20.20.2',
  );
  return { exit_code: 1, output: lines.join('\n'), side_effect: 'none' };
}
