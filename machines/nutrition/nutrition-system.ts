import type { AgentBrainLogic } from '../runtime/agent.ts';
import { agentMachine } from '../runtime/agent.ts';
import type { PipelineInput } from './pipeline-context.ts';
import { pipelineMachine } from './pipeline.ts';
import type { SupervisorInput } from '../runtime/supervisor.ts';
import type { SystemDefinition } from '../runtime/supervisor-system.ts';
import { baseRunId } from '../../actors/nutrition/envelope-factory.ts';
import { NutritionWorkerSchema, type NutritionWorker } from '../../protocol/nutrition/agents.ts';
import { NutritionEnvelopeSchema } from '../../protocol/nutrition/envelope.ts';
import { NUTRITION_ROUTES } from '../../protocol/nutrition/routing-table.ts';

export type { NutritionWorker } from '../../protocol/nutrition/agents.ts';

interface NutritionSystemOptions {
  brains: Readonly<Record<NutritionWorker, AgentBrainLogic>>;
  /** Per-agent timeout (§9: 30 s). */
  agentTimeoutMs?: number;
}

/**
 * The nutrition pipeline as a supervised system: the seven workers plus the pipeline machine as
 * ORCHESTRATOR, which reviews every report and releases outputs itself (so the supervisor does
 * not route them on its own). Every run shares it (and its supervisor machine); what is one
 * run's comes in the supervisor's input, `nutritionRunInput`.
 */
export function nutritionSystem(options: NutritionSystemOptions): SystemDefinition {
  const agents = Object.fromEntries(
    NutritionWorkerSchema.options.map((name) => [
      name,
      agentMachine.provide({ actors: { brain: options.brains[name] } }),
    ]),
  );
  return {
    name: 'nutrition',
    envelope: NutritionEnvelopeSchema,
    routes: NUTRITION_ROUTES,
    agents: { ...agents, ORCHESTRATOR: pipelineMachine },
    agentInput: (name) => ({ name, ...(options.agentTimeoutMs ? { timeoutMs: options.agentTimeoutMs } : {}) }),
    externals: ['USER'],
    orchestrator: 'ORCHESTRATOR',
    routeAgentOutputs: false,
    // The workers only compute (offline rules or a model call): the journal write overlaps their work.
    delivery: 'pipelined',
    partitionOf: (envelope) => baseRunId(String(envelope.pipeline_run_id)),
  };
}

/** The supervisor input of one run: the run its orchestrator works for, and what its journal already holds. */
export function nutritionRunInput(
  runId: string,
  options: { pipelineTimeoutMs?: number; journaledIds?: Iterable<string> } = {},
): SupervisorInput {
  const orchestrator: PipelineInput & { name: string } = { name: 'ORCHESTRATOR', runId };
  if (options.pipelineTimeoutMs) orchestrator.pipelineTimeoutMs = options.pipelineTimeoutMs;
  return { agentInputs: { ORCHESTRATOR: orchestrator }, journaledIds: options.journaledIds ?? [] };
}
