import { nutritionBrainsFor } from '../../actors/nutrition/nutrition-brains-for.ts';
import type { ModelBackends } from '../../actors/models/model-backends.ts';
import { NutritionWorkerSchema, type NutritionWorker } from '../../protocol/nutrition/agents.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import type { DeliveredMessage } from '../../protocol/runtime/routing.ts';
import { remoteBrains } from '../restate/remote-brains.ts';
import { runObject } from '../restate/run-object.ts';
import { servedBrains } from '../restate/served-brains.ts';

/**
 * The nutrition pipeline on Restate: its service processes serve the `nutrition-run` object
 * (one per pipeline run, keyed by `pipeline_run_id`) whose `call` runs the brains the model
 * layer chooses, each call one `ctx.run`; the API process's agents call them through the ingress.
 *
 * @example
 * serveRestateEndpoint([nutritionRunObject(openModelBackends(config))], 9080); // a service process
 * openRuntime(config, { systems: { nutrition: { brains: nutritionRemoteBrains(ingressUrl) } } }); // the API
 */
export function nutritionRunObject(models: ModelBackends) {
  return runObject('nutrition', servedBrains(nutritionBrainsFor(models)));
}

export function nutritionRemoteBrains(ingressUrl: string): Record<NutritionWorker, AgentBrainLogic> {
  return remoteBrains({
    ingressUrl,
    system: 'nutrition',
    agents: NutritionWorkerSchema.options,
    keyOf: (input) => ((input.input as DeliveredMessage).envelope as { pipeline_run_id: string }).pipeline_run_id,
  }) as Record<NutritionWorker, AgentBrainLogic>;
}
