import { describe } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { defineSmokeSuite } from '../../support/trainer/trainer-smoke-suite.ts';

describe('trainer smoke test (spec 001 §12.9) on the offline model', () => {
  defineSmokeSuite({
    start: () => startRuntime({ systems: { trainer: { consoleLog: false } } }),
    billed: false,
    model: 'claude-haiku-4-5',
  });
});
