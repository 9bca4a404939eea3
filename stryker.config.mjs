/**
 * Mutation testing of the runtime core (`npm run mutate`): StrykerJS breaks one line of
 * `machines/runtime/` at a time and runs the runtime's own tests (`vitest.mutation.config.ts`)
 * against it; a mutant no test notices is a line the suite does not check. Not part of `npm test`
 * (it takes tens of minutes on two cores); the README has the last scores.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['machines/runtime/**/*.ts'],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
