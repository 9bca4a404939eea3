import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedHost } from '../../support/http-host/embedded-host.ts';
import type { HttpHost } from '../../support/http-host/http-host.ts';
import { describeNutritionA2a } from '../../support/nutrition/nutrition-a2a-suite.ts';

// The shared nutrition A2A tests on the embedded host; tests/cluster/pipeline-http.test.ts runs
// the same ones against `npm run start:cluster`.
let host: HttpHost;
beforeAll(async () => {
  host = await startEmbeddedHost();
});
afterAll(async () => {
  await host.stop();
});
describeNutritionA2a(() => host);
