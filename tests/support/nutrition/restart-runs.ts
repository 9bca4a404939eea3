import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { RuntimeOverrides } from '../../../server/runtime.ts';
import { startRuntime } from '../runtime-harness.ts';
import { payload } from './nutrition-fakes.ts';

/* Runs left on a data dir by a first runtime, for the tests of what a restart does with them. */

type TestRuntime = Awaited<ReturnType<typeof startRuntime>>;

/** Offline brains, but DIETITIAN never answers (until its work is cancelled): a run stuck mid-way. */
export function stuckAtDietitian() {
  const brains = offlineNutritionBrains();
  return {
    ...brains,
    DIETITIAN: fromPromise<any, AgentBrainInput>(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
    ),
  };
}

/** The pipeline runs of a runtime (for what the HTTP API does not show: whether a run is live). */
export const runsOf = (rt: TestRuntime) =>
  (rt.runtime.systems.nutrition as unknown as { runs: { liveState(id: string): string | undefined } }).runs;

/** A run of `user` in `dataDir` (a new one in the OS tmpdir when absent), done and at rest; the runtime stays open. */
export async function restingRun(dataDir?: string, user = 'ada', overrides: RuntimeOverrides = {}) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'restart-')));
  const first = await startRuntime(overrides, dir);
  const id = (await first.call(user, 'POST', '/pipelines', payload('intake_data'))).body.pipeline_run_id as string;
  await expect
    .poll(async () => (await first.call(user, 'GET', `/pipelines/${id}`)).body.state, { timeout: 10_000 })
    .toBe('output_ready');
  await expect.poll(() => runsOf(first).liveState(id), { timeout: 5_000 }).toBeUndefined();
  return { dir, first, id };
}

/** A new data dir with one of ada's runs stopped mid-way (DIETITIAN at work) by its runtime going away. */
export async function stuckRun() {
  const dir = await mkdtemp(join(tmpdir(), 'restart-'));
  const first = await startRuntime({ systems: { nutrition: { brains: stuckAtDietitian() } } }, dir);
  const created = await first.call('ada', 'POST', '/pipelines', payload('intake_data'));
  const id = created.body.pipeline_run_id as string;
  await expect
    .poll(async () => (await first.call('ada', 'GET', `/pipelines/${id}`)).body.state, { timeout: 10_000 })
    .toBe('dietitian_processing');
  const before = (await first.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages;
  // The process goes away mid-run: its actors stop where they are.
  await first.stop(false);
  return { dir, id, before };
}

/** Where a pipeline run's journal partition lives in a data dir. */
export const pipelineJournalFile = (dir: string, runId: string) => join(dir, 'journal', 'pipelines', `${runId}.ndjson`);
