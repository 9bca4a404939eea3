import { runCalls } from '../sandbox/run-calls.ts';
import { runTests } from '../sandbox/run-tests.ts';
import type { FleetSandbox } from './fleet-sandbox.ts';
import { createJsSolver } from './js-solver.ts';
import { createReviewer } from './reviewer.ts';
import type { Specialist } from './specialist-result.ts';
import { createTestDesigner } from './test-designer.ts';

/** The child-process sandbox of actors/tiers/sandbox. */
export const realSandbox: FleetSandbox = { runCalls, runTests };

/** A specialist of the fleet: the task types it takes and how it runs one. */
export interface FleetSpecialist {
  taskTypes: readonly string[];
  run: Specialist;
}

/**
 * The fleet's specialists, each over `sandbox`: one actor each in the fleet tier, addressed by
 * `specialist_hint`.
 *
 * @example const fleet = offlineSpecialists(fakeSandbox); await fleet['js-solver']!.run(request);
 */
export function offlineSpecialists(sandbox: FleetSandbox): Readonly<Record<string, FleetSpecialist>> {
  return Object.freeze({
    'js-solver': { taskTypes: ['execute_code'], run: createJsSolver(sandbox) },
    'test-designer': { taskTypes: ['design_tests'], run: createTestDesigner(sandbox) },
    reviewer: { taskTypes: ['review_complexity'], run: createReviewer(sandbox) },
  });
}

/**
 * The offline fleet (no model, no network): `js-solver` (execute_code), `test-designer`
 * (design_tests), `reviewer` (review_complexity), all running code in the real sandbox.
 *
 * @example const result = await OFFLINE_SPECIALISTS['js-solver']!.run({ problem, task_type: 'execute_code', objective: 'Solve it', constraints: [] });
 */
export const OFFLINE_SPECIALISTS: Readonly<Record<string, FleetSpecialist>> = offlineSpecialists(realSandbox);
