import type { CallsReport, RunCallsInput } from '../sandbox/run-calls.ts';
import type { RunTestsInput, TestRunReport } from '../sandbox/run-tests.ts';

export type { CallResult, CallsReport } from '../sandbox/run-calls.ts';
export type { TestRunReport } from '../sandbox/run-tests.ts';

/**
 * The sandbox as the fleet uses it (actors/tiers/sandbox's `runCalls` and `runTests`).
 * Specialists take one, so tests can count runs or hold one open; `realSandbox`
 * (offline-specialists.ts) is the child-process sandbox itself.
 */
export interface FleetSandbox {
  runCalls(input: RunCallsInput): Promise<CallsReport>;
  runTests(input: RunTestsInput): Promise<TestRunReport>;
}
