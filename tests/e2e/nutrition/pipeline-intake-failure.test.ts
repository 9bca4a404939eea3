import { describe, expect, it } from 'vitest';
import { nutritionBrain } from '../../../actors/nutrition/nutrition-brain.ts';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import { startEmbeddedHost } from '../../support/http-host/embedded-host.ts';
import { fullTierIntake } from '../../support/nutrition/checkin-scenarios.ts';

/*
 * intake_pending is not a dead end (a decision, PIPELINE_DECISIONS): a run whose INTAKE fails, or
 * that reaches the total pipeline timeout before SCIENTIST, ends in error like any other stage.
 */
async function runWithIntake(intake: Parameters<typeof nutritionBrain>[1]) {
  const host = await startEmbeddedHost({
    systems: {
      nutrition: {
        brains: { ...offlineNutritionBrains(), INTAKE: nutritionBrain('INTAKE', intake) },
        pipelineTimeoutMs: 1_500,
      },
    },
  });
  try {
    const created = await host.call('ada', 'POST', '/pipelines', fullTierIntake());
    expect(created.status).toBe(201);
    // A failing INTAKE may have failed twice already by the time the run is acknowledged.
    expect(['intake_pending', 'error']).toContain(created.body.state);
    const id: string = created.body.pipeline_run_id;
    await expect
      .poll(async () => (await host.call('ada', 'GET', `/pipelines/${id}`)).body.state, {
        timeout: 20_000,
        interval: 50,
      })
      .toBe('error');
    const run = (await host.call('ada', 'GET', `/pipelines/${id}`)).body;
    const listed = (await host.call('ada', 'GET', '/pipelines')).body;
    return { run, listed, id };
  } finally {
    await host.stop();
  }
}

describe('a pipeline whose INTAKE does not hand the intake on', () => {
  it('ends in error when INTAKE fails, naming it', async () => {
    const { run } = await runWithIntake(async () => {
      throw new Error('the intake store is down');
    });
    expect(run.status).toBe('error');
    expect(run.error).toMatchObject({ failing_agent: 'INTAKE', error_type: 'validation_failure' });
    expect(run.error.details).toContain('the intake store is down');
  });

  it('ends in error at the pipeline timeout when INTAKE never answers', async () => {
    const { run, listed, id } = await runWithIntake(() => new Promise(() => undefined));
    expect(run.status).toBe('error');
    expect(run.error).toMatchObject({ failing_agent: 'INTAKE', error_type: 'timeout', timeout_duration_ms: 1_500 });
    expect(run.error.details).toContain('intake_pending');
    // Its listing follows it into error (a settled state).
    expect(listed.pipelines.find((p: { pipeline_run_id: string }) => p.pipeline_run_id === id)?.state).toBe('error');
  });
});
