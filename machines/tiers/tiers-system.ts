import { agentMachine } from '../runtime/agent.ts';
import type { SystemDefinition } from '../runtime/supervisor-system.ts';
import {
  TIERS_ADDRESSING,
  TIERS_VERSION_RULE,
  TiersEnvelopeSchema,
  type TiersEnvelope,
} from '../../protocol/tiers/envelope.ts';
import { TIERS_ROUTES } from '../../protocol/tiers/routes.ts';
import { createFleetMachine, FLEET_DESK } from './fleet-machine.ts';
import { fleetDesk } from './fleet-desk.ts';
import type { TierBrains, TierHandler } from './task-context.ts';
import { architectTier } from './tier-architect.ts';
import { tierBrain, type TaskDirectory } from './tier-brain.ts';
import { dispatcherTier } from './tier-dispatcher.ts';
import { runSpecialist } from './tier-fleet.ts';
import { monitorTier } from './tier-monitor.ts';

/**
 * A tier worker's own timeout: a backstop only. Deadlines are the senders' watchdogs (the
 * delegation tree's), and retries are the protocol's, so a worker runs each request once.
 */
const WORKER_INPUT = { timeoutMs: 15 * 60_000, maxAttempts: 1 } as const;

/** Options of {@link tiersSystem}. */
export interface TiersSystemOptions {
  /** The specialists the fleet hosts (names only: their brains come through the directory's contexts). */
  specialists: TierBrains['specialists'];
  directory: TaskDirectory;
  /** The journal partition (the task) of an envelope. */
  partitionOf: (envelope: TiersEnvelope) => string;
}

const worker = (receiver: string, handler: TierHandler, directory: TaskDirectory) =>
  agentMachine.provide({ actors: { brain: tierBrain(receiver, handler, directory) } });

/**
 * Spec 002's four tiers as a supervised system: PROGRESS_MONITOR, ABSTRACT_ARCHITECT and
 * ROUTING_DISPATCHER are workers over their tier logic; SPECIALIZED_FLEET hosts one worker per
 * specialist, addressed by `specialist_hint`. Every message is the spec's envelope (its version
 * rule, addressing and routing table), journaled in its task's partition before delivery.
 *
 * @example
 * const system = tiersSystem({ specialists: OFFLINE_SPECIALISTS, directory, partitionOf: (e) => tasks.of(e) });
 */
export function tiersSystem(options: TiersSystemOptions): SystemDefinition {
  const { directory } = options;
  const specialists = Object.fromEntries(
    Object.keys(options.specialists).map((name) => [
      name,
      worker('SPECIALIZED_FLEET', (input, ctx) => runSpecialist(name, input, ctx), directory),
    ]),
  );
  const fleet = createFleetMachine(specialists, worker('SPECIALIZED_FLEET', fleetDesk, directory), (name) => ({
    name: name === FLEET_DESK ? FLEET_DESK : name,
    ...WORKER_INPUT,
  }));
  return {
    name: 'tiers',
    envelope: TiersEnvelopeSchema,
    addressing: TIERS_ADDRESSING,
    versionRule: TIERS_VERSION_RULE,
    routes: TIERS_ROUTES,
    agents: {
      PROGRESS_MONITOR: worker('PROGRESS_MONITOR', monitorTier, directory),
      ABSTRACT_ARCHITECT: worker('ABSTRACT_ARCHITECT', architectTier, directory),
      ROUTING_DISPATCHER: worker('ROUTING_DISPATCHER', dispatcherTier, directory),
      SPECIALIZED_FLEET: fleet,
    },
    agentInput: (name) => ({ name, ...WORKER_INPUT }),
    partitionOf: (envelope) => options.partitionOf(envelope as TiersEnvelope),
  };
}
