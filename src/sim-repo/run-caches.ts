// Every cache of code runs the simulated repository keeps for the life of a process, cleared together.
import { clearLintCache } from './lint-command.js';
import { clearNodeRunCache } from './node-command.js';
import { clearTestRunCaches } from './test-runner.js';

/**
 * Forgets every cached test, lint and `node` run: a benchmark that makes several runs in one process clears them
 * before each, so each pays what a fresh `stratbench run` process pays (bench:ollama).
 */
export function clearRunCaches(): void {
  clearTestRunCaches();
  clearLintCache();
  clearNodeRunCache();
}
