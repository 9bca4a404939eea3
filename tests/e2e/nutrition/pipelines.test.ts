import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { startEmbeddedHost } from '../../support/http-host/embedded-host.ts';
import type { HttpHost } from '../../support/http-host/http-host.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { describePipelineHttp } from '../../support/nutrition/pipeline-http-suite.ts';

// The shared pipeline HTTP tests on the embedded host; tests/cluster/pipeline-http.test.ts runs
// the same ones against `npm run start:cluster`.
let host: HttpHost;
beforeAll(async () => {
  host = await startEmbeddedHost();
});
afterAll(async () => {
  await host.stop();
});
describePipelineHttp(() => host);

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
});
