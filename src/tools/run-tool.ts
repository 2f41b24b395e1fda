// Owns the run tool: a command in the simulated shell, classified by exit code, faults and refusals.
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { fromRun, timed } from './tool-result.js';

export const run = defineTool({
  name: 'run',
  description:
    'Run a shell command in the repository root and return its output and exit code: package scripts (pnpm test, pnpm run <script>, pnpm install), ' +
    'test runs (npx vitest run <filter>), git status/log/show/diff, cat, ls, grep -rn, echo, printenv. Commands can be joined with && or ;. ' +
    'Pipes and redirections are not supported. Some commands have side effects (migrations are irreversible).',
  args: z.strictObject({
    cmd: z.string().min(1).describe('The command line, e.g. "pnpm test:checkout" or "CI=1 pnpm test -- --grep total"'),
  }),
  sideEffect: 'irreversible',
  readOnly: false,
  sideEffectOf: (args, repo) => repo.classifyCommand(args.cmd),
  execute: (repo, args) => timed(repo, () => fromRun(repo.run(args.cmd))),
});
