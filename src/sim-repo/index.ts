// The simulated repository's public surface: the SimRepo class, its result types and the spec schemas.
export * from './spec.js';
export { SimRepo } from './sim-repo.js';
export type { RepoError, RepoErrorCode, RepoResult } from './results.js';
export type { ChangeEntry, SimClock } from './state.js';
export type { RunResult } from './shell.js';
export type { EditApplied, SearchMatch } from './file-ops.js';
export type { LogOptions } from './git-history.js';
export type { PushOptions } from './push.js';
export type { WorktreeChanges } from './git-worktree.js';
export { REPO_ROOT, resolveRepoPath } from './paths.js';
export { usesCrlf } from './edit-text.js';
export * as durations from './durations.js';
export type { TestResult, TestState, FileResult, TestRun } from './test-runner.js';
export { clearTestRunCaches, testFileStats, testRunCache } from './test-runner.js';
export { clearRunCaches } from './run-caches.js';
export { pinSandboxTimeZone, withHostTimeZone } from './time-zone.js';
export { activeRunStore, clearRunStore, RunStore, useRunStore, type RunStoreStats } from './run-store.js';
export type { CacheStats } from './run-cache.js';
export {
  codeAhead,
  codeAheadOverlaps,
  codeAheadPure,
  codeAheadStats,
  codeWorkerCount,
  prewarmForRepos,
  runEpisodesSideBySide,
  stopCodeWorker,
} from './code-host.js';
export type { SandboxRunOptions, SandboxRunResult, SandboxError } from './sandbox/index.js';
