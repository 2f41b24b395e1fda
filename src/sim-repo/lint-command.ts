// Owns the `eslint` command: ESLint's in-process Linter on the working tree with the fixture's own flat config.
import { callCodeWorker, hardCutoffMs } from './code-host.js';
import type { EslintRun } from './lint/run-eslint.js';
import { RunCache } from './run-cache.js';
import { STORED_FORMS, type LintOutcome } from './stored-results.js';
import { overlayTree, pathSetName, recordChange, workingFile, workingPaths, type RepoState } from './state.js';

/**
 * The time limit of one lint run (config evaluation included), ms; the worker is killed at hardCutoffMs of it in wall
 * time (200 s): ESLint runs natively, so only the wall clock can stop it, and a loaded machine must not.
 */
const LINT_DEADLINE_MS = 20_000;

/** Earlier lint runs, valid while every file they read reads the same and the set of paths is the same. */
const lintCache = new RunCache<LintOutcome>({
  maxEntries: 500,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (outcome) => 2 * outcome.output.length + [...(outcome.fixed ?? [])].reduce((sum, [path, content]) => sum + 2 * (path.length + content.length), 0),
  stored: { name: 'eslint', ...STORED_FORMS.eslint },
});

/** Forgets every cached lint run (benchmarks: each run as a fresh process would make it). */
export function clearLintCache(): void {
  lintCache.clear();
}

/**
 * Runs `eslint` with `args` (the words after `eslint`) on the working tree, as ESLint 9's CLI would in /repo:
 * stylish output, exit 0 (clean), 1 (errors, or warnings over --max-warnings) or 2 (usage or config error).
 * `--fix` writes the fixed files into the working tree (a reversible change, recorded).
 */
export function runLint(state: RepoState, env: Readonly<Record<string, string>>, args: readonly string[]): { exit_code: number; output: string } {
  const files = (path: string) => workingFile(state, path);
  // The set of paths by name (a digest of the base's paths + created files), not by listing every path: O(files written).
  const key = JSON.stringify([args, env, pathSetName(state)]);
  const held = (path: string) => state.base.initial.get(path);
  let outcome = lintCache.get(key, files, held);
  if (outcome === undefined) {
    const answered = callCodeWorker({ kind: 'eslint', input: { args, env }, tree: overlayTree(state) }, LINT_DEADLINE_MS) as EslintRun | undefined;
    const run = answered ?? {
      exit_code: 2,
      output: `\nOops! Something went wrong! :(\n\nlint run killed after ${hardCutoffMs(LINT_DEADLINE_MS)} ms (the harness's hard cutoff)`,
      reads: workingPaths(state).map((path): [string, string | undefined] => [path, files(path)]),
    };
    outcome = { exit_code: run.exit_code, output: run.output, ...(run.fixed !== undefined && run.fixed.size > 0 ? { fixed: run.fixed } : {}) };
    // A run killed at the hard cutoff, or whose config reached its time limit, may be the machine's load, not the
    // code's: no code cache keeps it.
    lintCache.set(key, run.reads, outcome, held, answered !== undefined && answered.timeLimitReached !== true);
  }
  for (const [path, content] of outcome.fixed ?? []) {
    state.written.set(path, content);
    recordChange(state, { kind: 'write', path, side_effect: 'reversible' });
  }
  return { exit_code: outcome.exit_code, output: outcome.output };
}
