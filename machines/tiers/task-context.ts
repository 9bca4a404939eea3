import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { SharedState } from '../../actors/runtime/shared-state/shared-state.ts';
import type { ArchitectBrain } from '../../actors/tiers/planning/plan.ts';
import type { DispatcherBrain } from '../../actors/tiers/planning/dispatcher.ts';
import type { Tier, TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { DelegationTree } from '../runtime/delegation-tree.ts';

/** A specialist of the fleet, by the fleet contract's shape (`actors/tiers/fleet/specialist-result.ts`). */
export interface FleetSpecialist {
  taskTypes: readonly string[];
  run: (request: SpecialistRequestShape) => Promise<SpecialistResultShape>;
}

/** The fleet contract's `SpecialistRequest`, structurally. */
export interface SpecialistRequestShape {
  problem: {
    problem_id?: string;
    statement: string;
    function_name: string;
    language: string;
    test_cases: { input: unknown[]; expected: unknown }[];
  };
  task_type: string;
  objective: string;
  constraints: string[];
  variant?: number;
  code?: string;
  claimed_complexity?: string;
  signal?: AbortSignal;
}

/** The fleet contract's `SpecialistResult`, structurally. */
export interface SpecialistResultShape {
  status: 'success' | 'partial' | 'failed' | 'needs_clarification';
  summary: string;
  confidence: number;
  artifacts: { artifact_type: string; content: string; metadata: Record<string, unknown> }[];
  log: string[];
  error_type?: string;
  error_detail?: string;
  recoverable?: boolean;
  tokens?: { input: number; output: number };
}

/** The brains of the tiers: the planning helper's Architect and Dispatcher, the fleet's specialists. */
export interface TierBrains {
  architect: ArchitectBrain;
  dispatcher: DispatcherBrain;
  specialists: Readonly<Record<string, FleetSpecialist>>;
}

/** What the Monitor keeps of a task it ended, waits on, or resumes. */
export interface TaskSettlement {
  status: OutcomePayload['status'];
  outcome: OutcomePayload | null;
  waiting_for_user: { question: string } | null;
}

/**
 * Everything a tier needs to work on one task: its delegation tree (journaled), its Beads view
 * (task and user scopes), the clock, the brains, and what leaves the tiers (the Monitor settling
 * the task). Tier logic reads and writes state only through it.
 */
export interface TaskContext {
  readonly taskId: string;
  readonly user: string;
  readonly tree: DelegationTree;
  readonly beads: SharedState;
  readonly clock: ServiceClock;
  readonly brains: TierBrains;
  /** A message id derived from the task and `parts`: the same work done again gets the same id. */
  newId(...parts: (string | number)[]): string;
  /**
   * Sends an envelope through the task's supervisor at `at` (ms since the clock's epoch: a retry
   * after its backoff), unless its delegation ended first. `at` must be journaled with the
   * delegation (`DelegationData.sendAt`), so a restart re-arms it.
   */
  sendAt(at: number, envelope: TiersEnvelope): void;
  /** The Monitor ends the task, or parks it waiting for its user. */
  settle(settlement: TaskSettlement): Promise<void>;
  /** The timeout of a delegation to `tier` when it names none (Fleet 30 s, Dispatcher 60 s, Architect 120 s). */
  defaultTimeoutMs(tier: Tier): number;
}

/** Spec 002's recommended timeouts, by the tier delegated to. */
export const DEFAULT_TIER_TIMEOUTS: Readonly<Record<Tier, number>> = {
  PROGRESS_MONITOR: 120_000,
  ABSTRACT_ARCHITECT: 120_000,
  ROUTING_DISPATCHER: 60_000,
  SPECIALIZED_FLEET: 30_000,
};

/** What a tier handles: one envelope delivered to it, with the watchdog flag of a synthetic timeout. */
export interface TierInput {
  envelope: TiersEnvelope;
  /** The sender's watchdog wrote this `timeout` outcome: the node already ended so. */
  watchdog: boolean;
  signal: AbortSignal;
}

/** One tier's logic: what it sends for what it received. */
export type TierHandler = (input: TierInput, ctx: TaskContext) => Promise<TiersEnvelope[]>;
