import { describe, expect, it } from 'vitest';
import { nutritionBrain } from '../../../actors/nutrition/nutrition-brain.ts';
import { OFFLINE_HANDLERS, offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import { embeddedForFile, startEmbeddedHost } from '../../support/http-host/embedded-host.ts';
import { fullTierIntake, measured } from '../../support/nutrition/checkin-scenarios.ts';
import { describePipelineCheckins } from '../../support/nutrition/pipeline-checkins-suite.ts';

// The shared check-in HTTP tests on the embedded host; tests/cluster/pipeline-http.test.ts runs
// the same ones against `npm run start:cluster`.
const host = embeddedForFile();
describePipelineCheckins(host);

// Embedded only: a brain swapped in-process (a service process of the cluster cannot reach it).
describe('pipeline check-ins, with a swapped brain', () => {
  it('refuses a check-in with 409 until the run is output_ready, and does not count it', async () => {
    const USER = 'checkin-user';
    // The DIETITIAN waits for the test, so the run is certainly not ready when the check-in comes.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const brains = offlineNutritionBrains();
    const gated = await startEmbeddedHost({
      systems: {
        nutrition: {
          brains: {
            ...brains,
            DIETITIAN: nutritionBrain(
              'DIETITIAN',
              async (request, tools) => (await gate, OFFLINE_HANDLERS.DIETITIAN(request, tools)),
            ),
          },
        },
      },
    });
    try {
      const created = await gated.call(USER, 'POST', '/pipelines', fullTierIntake());
      const id: string = created.body.pipeline_run_id;
      const early = await gated.call(USER, 'POST', `/pipelines/${id}/checkins`, measured(0.3));
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('not_ready');
      release();
      await expect
        .poll(async () => (await gated.call(USER, 'GET', `/pipelines/${id}`)).body.state, {
          timeout: 20_000,
          interval: 50,
        })
        .toBe('output_ready');
      const first = await gated.call(USER, 'POST', `/pipelines/${id}/checkins`, measured(0.3));
      expect(first.body.payload.notes[0]).toMatch(/^Week 1:/);
    } finally {
      release();
      await gated.stop();
    }
  });
});
