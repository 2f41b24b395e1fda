// Starts the code worker before the rest of the CLI loads, when the command is `run`: evaluated first (cli.ts
// imports it before anything else), so QuickJS's WebAssembly and ESLint load on the other core while this thread
// loads its modules, the suite and the prompts. `run` stops it again when the suite's repositories run no code.
import { prewarmCodeWorker } from './sim-repo/code-host.js';

if (process.argv[2] === 'run') prewarmCodeWorker({ eslint: true });
