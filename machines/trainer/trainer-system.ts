import { TrainerEnvelopeSchema } from '../../protocol/trainer/trainer-envelope.ts';
import { TRAINER_ROUTES } from '../../protocol/trainer/trainer-routes.ts';
import { agentMachine, type AgentBrainLogic } from '../runtime/agent.ts';
import { DEFAULT_CONTEXT_TIMEOUT_MS, type AgentLoopInput } from './agent-loop-context.ts';
import { agentLoopMachine } from './agent-loop.ts';
import type { SystemDefinition } from '../runtime/supervisor-system.ts';
import { turnPartitionAt } from './turn-partition.ts';

/** The actor logic the agent loop invokes, from actors/trainer/loop-*.ts. */
type AgentLoopActors = Parameters<typeof agentLoopMachine.provide>[0]['actors'];

interface TrainerSystemOptions {
  /** recordTurn, callModel, runTool, recordToolTimeout, logError, finishTurn. */
  loopActors: AgentLoopActors;
  /** The INITIALIZER's brain: answers a `context_request` with `context_loaded` (spec 001 §5). */
  initializerBrain: AgentBrainLogic;
  /** Iteration limit and timeouts of the loop. */
  loop?: Omit<AgentLoopInput, 'name'>;
  /** Milliseconds now, for the journal partition of the hour (`turnPartitionAt`); `Date.now` by default. */
  now?: () => number;
}

/**
 * The personal-trainer system of spec 001 for one turn: the agent loop as TRAINER (it hears every
 * report, like an orchestrator) and the initializer as a worker that runs once, within the
 * loop's context timeout, with no retry (its failure must not delay the turn, §12.3). The user is
 * outside; every envelope is journaled in the partition of the hour, shared by all sessions
 * (see `turnPartitionAt`).
 */
export function trainerSystem(options: TrainerSystemOptions): SystemDefinition {
  const contextTimeoutMs = options.loop?.contextTimeoutMs ?? DEFAULT_CONTEXT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  return {
    name: 'trainer',
    envelope: TrainerEnvelopeSchema,
    routes: TRAINER_ROUTES,
    agents: {
      TRAINER: agentLoopMachine.provide({ actors: options.loopActors }),
      INITIALIZER: agentMachine.provide({ actors: { brain: options.initializerBrain } }),
    },
    agentInput: (name) =>
      name === 'TRAINER' ? { name, ...options.loop } : { name, timeoutMs: contextTimeoutMs, maxAttempts: 1 },
    externals: ['USER'],
    orchestrator: 'TRAINER',
    partitionOf: () => turnPartitionAt(now()),
  };
}
