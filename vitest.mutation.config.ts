import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant of the runtime core (`stryker.config.mjs`):
 * the runtime's unit and property tests, without the e2e and cluster projects' servers.
 */
export default defineConfig({
  test: {
    include: [
      'tests/unit/machines/runtime/**/*.test.ts',
      'tests/property/runtime/**/*.test.ts',
      'tests/unit/actors/runtime/**/*.test.ts',
      'tests/unit/protocol/runtime/**/*.test.ts',
    ],
    testTimeout: 60_000,
  },
});
