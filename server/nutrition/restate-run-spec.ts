import { nutritionRunInput, nutritionSystem, type NutritionWorker } from '../../machines/nutrition/nutrition-system.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { NutritionWorkerSchema } from '../../protocol/nutrition/agents.ts';
import { nutritionBrainsFor } from '../../actors/nutrition/nutrition-brains-for.ts';
import type { ModelBackends } from '../../actors/models/model-backends.ts';
import type { RestateRunSpec } from '../restate/restored-run.ts';
import { runHostServices } from '../restate/run-host-object.ts';
import { servedBrains } from '../restate/served-brains.ts';
import type { RestateServices } from '../restate/service-endpoint.ts';

/**
 * The nutrition pipeline as the Restate run host serves it: `nutrition-host` objects keyed by
 * `pipeline_run_id`, whose run actor is the ORCHESTRATOR, told `pipeline.resume` when restored
 * (it sends its work in flight again, under the same ids, and arms its timeout again: the host
 * keeps the first deadline).
 *
 * @example
 * serveRestateEndpoint(runHostServices(nutritionRunSpec(), servedBrains(offlineNutritionBrains())), 9080);
 */
export function nutritionRunSpec(
  options: { agentTimeoutMs?: number; pipelineTimeoutMs?: number } = {},
): RestateRunSpec {
  return {
    name: 'nutrition',
    definition: (brains) =>
      nutritionSystem({
        brains: brains as Record<NutritionWorker, AgentBrainLogic>,
        ...(options.agentTimeoutMs ? { agentTimeoutMs: options.agentTimeoutMs } : {}),
      }),
    agents: NutritionWorkerSchema.options,
    runActor: 'ORCHESTRATOR',
    runInput: (runId, journaledIds) =>
      nutritionRunInput(runId, {
        journaledIds,
        ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}),
      }),
    resume: { type: 'pipeline.resume' } satisfies PipelineEvent,
  };
}

/**
 * What a service process of `npm run start:cluster` serves for the pipeline: the `nutrition-host`
 * objects (the runs) and the `nutrition-brains` service (each brain call one `ctx.run`), with the
 * brains the model layer chooses.
 *
 * @example
 * serveRestateEndpoint(nutritionRestateServices(openModelBackends(config)), 9080);
 */
export function nutritionRestateServices(models: ModelBackends): RestateServices {
  return runHostServices(nutritionRunSpec(), servedBrains(nutritionBrainsFor(models)));
}
