import '../../../server/restate/with-resolvers.ts';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import { nutritionRunSpec } from '../../../server/nutrition/restate-run-spec.ts';
import { runHostServices } from '../../../server/restate/run-host-object.ts';
import type { RestateBrain } from '../../../server/restate/run-object.ts';
import { servedBrains } from '../../../server/restate/served-brains.ts';
import { serveRestateEndpoint } from '../../../server/restate/service-endpoint.ts';

/*
 * A Restate service process for the run host's tests: the nutrition pipeline's runs as
 * `nutrition-host` objects, with the offline brains, each of which first tells the test's
 * counting server (COUNTER_URL) it was called and answers only once that server answered (so
 * the test counts every real brain call, across kill -9 of this process, and can hold one).
 * PIPELINE_TIMEOUT_MS sets the pipeline's timeout. Prints `ready` once it listens on PORT.
 */
const counterUrl = process.env.COUNTER_URL!;
const offline = servedBrains(offlineNutritionBrains());

const counted = Object.fromEntries(
  Object.entries(offline).map(([agent, brain]): [string, RestateBrain] => [
    agent,
    async (input) => {
      await (await fetch(`${counterUrl}/${agent}`, { method: 'POST', body: '{}' })).text();
      return brain(input);
    },
  ]),
);

const pipelineTimeoutMs = Number(process.env.PIPELINE_TIMEOUT_MS ?? 0) || undefined;
await serveRestateEndpoint(
  [...runHostServices(nutritionRunSpec(pipelineTimeoutMs ? { pipelineTimeoutMs } : {}), counted)],
  Number(process.env.PORT),
);
console.log('ready');
