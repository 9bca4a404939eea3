import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { test: { name: 'property', include: ['tests/property/**/*.test.ts'], testTimeout: 60_000 } },
      // Hooks start servers and browsers: on a loaded 2-core machine that takes longer than 10 s.
      { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      // A Restate server and service processes per file: one file at a time, beside the others.
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
