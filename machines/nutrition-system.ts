import type { AnyActorLogic } from 'xstate';
import type { AgentBrainLogic } from './agent.ts';
import { agentMachine } from './agent.ts';
import { pipelineMachine } from './pipeline.ts';
import type { SystemDefinition } from './supervisor-system.ts';
import { baseRunId } from '../actors/nutrition/envelope-factory.ts';
import { NutritionWorkerSchema, type NutritionWorker } from '../protocol/nutrition/agents.ts';
import { NutritionEnvelopeSchema } from '../protocol/nutrition/envelope.ts';
import { NUTRITION_ROUTES } from '../protocol/nutrition/routing-table.ts';

export type { NutritionWorker } from '../protocol/nutrition/agents.ts';

export interface NutritionSystemOptions {
  runId: string;
  brains: Readonly<Record<NutritionWorker, AgentBrainLogic>>;
  /** Per-agent timeout (§9: 30 s). */
  agentTimeoutMs?: number;
  /** Total pipeline timeout (§9: 180 s). */
  pipelineTimeoutMs?: number;
}

/**
 * The worker machines of a set of brains, built once: every run of a server shares its brains,
 * and building (and first transitioning) a machine costs more than spawning it.
 */
const workersByBrains = new WeakMap<NutritionSystemOptions['brains'], Record<string, AnyActorLogic>>();

function workers(brains: NutritionSystemOptions['brains']): Record<string, AnyActorLogic> {
  let agents = workersByBrains.get(brains);
  if (!agents) {
    agents = Object.fromEntries(NutritionWorkerSchema.options.map((name) => [name, agentMachine.provide({ actors: { brain: brains[name] } })]));
    workersByBrains.set(brains, agents);
  }
  return agents;
}

/**
 * The nutrition pipeline as a supervised system: the seven workers plus the pipeline machine as
 * ORCHESTRATOR, which reviews every report and releases outputs itself (so the supervisor does
 * not route them on its own).
 */
export function nutritionSystem(options: NutritionSystemOptions): SystemDefinition {
  const agents = workers(options.brains);
  return {
    name: 'nutrition',
    envelope: NutritionEnvelopeSchema,
    routes: NUTRITION_ROUTES,
    agents: { ...agents, ORCHESTRATOR: pipelineMachine },
    agentInput: (name) =>
      name === 'ORCHESTRATOR'
        ? { name, runId: options.runId, ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}) }
        : { name, ...(options.agentTimeoutMs ? { timeoutMs: options.agentTimeoutMs } : {}) },
    externals: ['USER'],
    orchestrator: 'ORCHESTRATOR',
    routeAgentOutputs: false,
    // The workers only compute (offline rules or a model call): the journal write overlaps their work.
    delivery: 'pipelined',
    partitionOf: (envelope) => baseRunId(String(envelope.pipeline_run_id)),
  };
}
