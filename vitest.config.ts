import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/build-dist.ts'],
    pool: 'forks',
    // Timeouts are a safety net for a hung test only, never a measure of speed: one generous value for every test and
    // hook (no per-test values), so a machine at load 10+ on two cores passes what an idle one passes (issue 29 §6).
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
