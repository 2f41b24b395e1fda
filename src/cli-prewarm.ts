// Starts the code worker before the rest of the CLI loads, when the command is `run`: evaluated first (cli.ts
// imports it before anything else), so QuickJS's WebAssembly loads on the other core while this thread loads its
// modules, the suite and the prompts. Once the suite is known, `run` asks the worker to preload ESLint (a `lint`
// script) or stops it (no repository runs code).
import { prewarmCodeWorker } from './sim-repo/code-host.js';

if (process.argv[2] === 'run') prewarmCodeWorker();
