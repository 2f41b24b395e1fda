import { defineConfig } from 'vitest/config';

/**
 * The slow end-to-end files (issue 31 §1): whole runs through real processes and servers, every test that drives
 * Chromium (the HTML report's views), the CI recipes run for real, and a corpus served over the model protocol end to
 * end. `npm test` runs the `unit` project (≤ 5 minutes on a quiet 2-core machine, no browser needed); `npm run
 * test:e2e` runs these; CI (`.ci/run`) runs both. The per-file table each run prints at its end says which files are
 * slow: a unit file that takes ≥ 30 s on a quiet machine belongs here or needs a faster test.
 */
export const E2E_FILES = [
  'tests/agent-bridge.test.ts',
  'tests/attribution-generated-corpus.test.ts',
  'tests/code-worker-pool-runs.test.ts',
  'tests/disk-faults.test.ts',
  'tests/episodes-gzip.test.ts',
  'tests/html-compare-view.test.ts',
  'tests/html-grid-search.test.ts',
  'tests/html-large-run.test.ts',
  'tests/html-overview.test.ts',
  'tests/html-report.test.ts',
  'tests/html-transcripts.test.ts',
  'tests/merge-partial-labels.test.ts',
  'tests/results-folder-lock.test.ts',
  'tests/resume-shard.test.ts',
  'tests/scale-out-docs.test.ts',
  'tests/shard-rows.test.ts',
  'tests/source-fixture-cli-tool.test.ts',
  'tests/terminal.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/build-dist.ts'],
    pool: 'forks',
    // Both cores (vitest's default for `run` is one worker less than the cores: one worker on this 2-core machine).
    maxWorkers: 2,
    // Timeouts are a safety net for a hung test only, never a measure of speed: one generous value for every test and
    // hook (no per-test values), so a machine at load 10+ on two cores passes what an idle one passes (issue 29 §6).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // The default reporter, then every file's duration, slowest first (issue 31 §1: the slowest stay visible in CI).
    reporters: ['default', './tests/support/file-durations-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: E2E_FILES } },
      { extends: true, test: { name: 'e2e', include: E2E_FILES } },
    ],
  },
});
