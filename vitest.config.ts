import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/build-dist.ts'],
    pool: 'forks',
    testTimeout: 30_000,
  },
});
