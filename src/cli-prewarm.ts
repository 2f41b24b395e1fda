// Starts the code worker before the rest of the CLI loads, when the command is `run`: evaluated first (cli.ts
// imports it before anything else), so QuickJS's WebAssembly loads on the other core while this thread loads its
// modules, the suite and the prompts. Once the suite is known, `run` asks the worker to preload ESLint (a `lint`
// script) or stops it (no repository runs code). Not when the code cache folder already holds a harness's runs
// (decision 0049): a run served from it needs no worker, and `run` starts one at the first run it does not hold.
import { readdirSync } from 'node:fs';
import { prewarmCodeWorker } from './sim-repo/code-host.js';

/** The code cache folder `run`'s arguments name (`--code-cache-dir`), its default, or null for `--no-code-cache`. */
function codeCacheDir(args: readonly string[]): string | null {
  let dir = '.stratbench-cache/code-runs';
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--no-code-cache') return null;
    if (arg === '--code-cache-dir' && index + 1 < args.length) dir = args[++index] as string;
    else if (arg.startsWith('--code-cache-dir=')) dir = arg.slice('--code-cache-dir='.length);
  }
  return dir;
}

/** Whether `dir` holds a harness's folder of stored runs. */
function holdsRuns(dir: string | null): boolean {
  if (dir === null) return false;
  try {
    return readdirSync(dir).some((name) => name.startsWith('harness-'));
  } catch {
    return false;
  }
}

if (process.argv[2] === 'run' && !holdsRuns(codeCacheDir(process.argv.slice(3)))) prewarmCodeWorker();
