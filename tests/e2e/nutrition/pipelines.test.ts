import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { embeddedForFile, startEmbeddedHost } from '../../support/http-host/embedded-host.ts';
import { runsOf } from '../../support/nutrition/restart-runs.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { describePipelineHttp } from '../../support/nutrition/pipeline-http-suite.ts';

// The shared pipeline HTTP tests on the embedded host; tests/cluster/pipeline-http.test.ts runs
// the same ones against `npm run start:cluster`.
const host = embeddedForFile();
describePipelineHttp(host);

// Embedded only: a brain swapped in-process (a service process of the cluster cannot reach it).
describe('pipelines over HTTP, with a swapped brain', () => {
  it('answers 201 once the intake is in the journal, while the run goes on in the background', async () => {
    // SCIENTIST never answers: the run stays in scientist_processing.
    const silent = fromPromise<unknown, AgentBrainInput>(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
    );
    const rt = await startEmbeddedHost({
      systems: { nutrition: { brains: { ...offlineNutritionBrains(), SCIENTIST: silent } } },
    });
    try {
      const created = await rt.call('ada', 'POST', '/pipelines', { ...payload('intake_data') });
      expect(created.status).toBe(201);
      expect(created.body.state).toBe('scientist_processing');
      const { messages } = (await rt.call('ada', 'GET', `/pipelines/${created.body.pipeline_run_id}/messages`)).body;
      expect(messages.map((m: any) => `${m.from_agent}->${m.to_agent}:${m.data_type}`)).toContain(
        'USER->INTAKE:intake_data',
      );
      expect((await rt.call('ada', 'GET', '/pipelines')).body.pipelines.map((p: any) => p.pipeline_run_id)).toEqual([
        created.body.pipeline_run_id,
      ]);
    } finally {
      await rt.stop();
    }
  });

  it('streams a paused run until the PHYSICIAN has answered, however long it takes (until=settled)', async () => {
    // The run shows paused_physician from the PHYSICIAN's query on; its answer comes 300 ms later.
    const rt = await startEmbeddedHost({
      systems: { nutrition: { brains: offlineNutritionBrains({ latencyMs: { PHYSICIAN: 300 } }) } },
    });
    try {
      const created = await rt.call('ada', 'POST', '/pipelines', {
        ...payload('intake_data'),
        menstrual_status: 'amenorrhea',
      });
      const id = created.body.pipeline_run_id;
      const text = await (await rt.fetch('ada', `/pipelines/${id}/events?until=settled`)).text();
      const blocks = text.split('\n\n').filter(Boolean);
      const messages = blocks
        .filter((block) => block.includes('event: message'))
        .map((block) => JSON.parse(/data: (.*)/.exec(block)![1]!));
      expect(messages.map((m) => `${m.from_agent}:${m.data_type}`)).toContain('PHYSICIAN:medical_context');
      expect((await rt.call('ada', 'GET', `/pipelines/${id}`)).body.physician.awaiting_confirmation).toBe(true);
    } finally {
      await rt.stop();
    }
  });

  it('lets a run paused for a referral rest: it takes no working slot, and the confirmation wakes it', async () => {
    // One working run per user: a paused run that still counted would refuse Ada's next one (429).
    const rt = await startRuntime({}, undefined, { admission: { maxWorking: 4, maxPerOwner: 1 } });
    try {
      const paused = await rt.call('ada', 'POST', '/pipelines', {
        ...payload('intake_data'),
        menstrual_status: 'amenorrhea',
      });
      const id = paused.body.pipeline_run_id;
      await expect
        .poll(async () => (await rt.call('ada', 'GET', `/pipelines/${id}`)).body.physician?.awaiting_confirmation, {
          timeout: 10_000,
        })
        .toBe(true);
      await expect.poll(() => runsOf(rt).liveState(id), { timeout: 5_000 }).toBeUndefined();
      const next = await rt.call('ada', 'POST', '/pipelines', payload('intake_data'));
      expect(next.status).toBe(201);
      await expect
        .poll(async () => (await rt.call('ada', 'GET', `/pipelines/${next.body.pipeline_run_id}`)).body.state)
        .toBe('output_ready');
      // Once that one rests too, confirming wakes the paused run: it works again, in Ada's one slot.
      await expect.poll(() => runsOf(rt).liveState(next.body.pipeline_run_id), { timeout: 5_000 }).toBeUndefined();
      expect((await rt.call('ada', 'POST', `/pipelines/${id}/physician/confirm`)).status).toBe(200);
      await expect
        .poll(async () => (await rt.call('ada', 'GET', `/pipelines/${id}`)).body.state, { timeout: 10_000 })
        .toBe('output_ready');
    } finally {
      await rt.stop();
    }
  });
});
