import type { InspectionEvent } from 'xstate';
import { nutritionBrainsFor } from '../../actors/nutrition/nutrition-brains-for.ts';
import { MACHINES } from '../../machines/nutrition/machines.ts';
import { pipelineMachine } from '../../machines/nutrition/pipeline.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { defineSystemModule } from '../system-module.ts';
import { inspectedRunSource } from '../viz/inspected-run-source.ts';
import type { RunInspectors } from '../viz/run-sources.ts';
import { nutritionA2a } from './a2a-mapping.ts';
import { embeddedPipelineHost, type EmbeddedPipelineOptions } from './embedded-pipeline-host.ts';
import { clearanceRoutes, pipelineRoutes } from './pipeline-routes.ts';
import { PipelineRuns } from './pipeline-runs.ts';
import { PIPELINE_ROUTE_DOCS } from './pipeline-route-docs.ts';
import { restatePipelineHost } from './restate-pipeline-host.ts';
import { nutritionRestateServices } from './restate-run-spec.ts';

/** What tests and benchmarks may swap in the nutrition system, and what `npm run start:cluster` sets. */
interface NutritionOptions {
  brains?: EmbeddedPipelineOptions['brains'];
  agentTimeoutMs?: number;
  pipelineTimeoutMs?: number;
  admission?: EmbeddedPipelineOptions['admission'];
  /** The runs are `nutrition-host` objects at this Restate ingress (brains and timeouts are the service processes'). */
  restateIngressUrl?: string;
}

/**
 * The nutrition and training pipeline (spec 000): `/pipelines` and `/clearance`, its runs on the
 * run host (journal `DATA_DIR/journal/pipelines`; on `npm run start:cluster`, `nutrition-host`
 * objects on Restate), and the `pipeline` machine's live view.
 */
export default defineSystemModule<NutritionOptions>({
  name: 'nutrition',
  title: 'Nutrition and training pipeline',
  spec: '000_ad124f0dde0a840c.txt',
  configKeys: [
    {
      name: 'ANTHROPIC_API_KEY',
      meaning: 'NUTRITIONIST, DIETITIAN, CHEF, COACH and PHYSICIAN ask Claude (PRIMARY_MODEL)',
    },
  ],
  machines: MACHINES,
  routeDocs: PIPELINE_ROUTE_DOCS,
  restate: { services: nutritionRestateServices, options: (ingressUrl) => ({ restateIngressUrl: ingressUrl }) },
  async open(services, options = {}) {
    const inspectors: RunInspectors = new Set();
    const { store } = services;
    const admission = { ...services.config.admission, ...options.admission };
    const openHost = options.restateIngressUrl
      ? restatePipelineHost({ ingressUrl: options.restateIngressUrl, store, admission })
      : embeddedPipelineHost({
          store,
          journal: await services.journal<RoutedRecord>('pipelines'),
          brains: options.brains ?? nutritionBrainsFor(services.models),
          ...(services.clock ? { clock: services.clock } : {}),
          ...(options.agentTimeoutMs ? { agentTimeoutMs: options.agentTimeoutMs } : {}),
          ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}),
          admission,
          inspect: (runId: string, event: InspectionEvent) =>
            inspectors.forEach((inspector) => inspector(runId, event)),
        });
    const runs = await PipelineRuns.open(store, openHost);
    return {
      runs,
      routes: { '/pipelines': pipelineRoutes(runs), '/clearance': clearanceRoutes(runs) },
      runSources: [
        inspectedRunSource({
          machine: pipelineMachine,
          inspectors,
          owns: (userId, runId) => runs.owns(userId, runId),
          current: (runId) => runs.liveState(runId),
          stored: (runId) => runs.storedState(runId),
        }),
      ],
      a2a: nutritionA2a(runs),
      close: () => runs.close(),
    };
  },
});
