// The sandbox's public surface: run repository JavaScript in QuickJS, deterministically and in isolation.
export {
  runInSandbox,
  renewSandboxWhenGrown,
  sandboxRenewals,
  DEFAULT_DATE,
  DEFAULT_MEMORY_BYTES,
  DEFAULT_TIMEOUT_MS,
  firstLocation,
  type RunInternals,
} from './run-in-sandbox.js';
export { resolveSpecifier, joinRepoPath, type ResolutionMode } from './module-resolve.js';
export type { FileLookup, SandboxError, SandboxRunOptions, SandboxRunResult, SourceLocation } from './types.js';
