import type { InspectionEvent } from 'xstate';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { TierBrains } from '../../machines/tiers/task-context.ts';
import type { DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { Tier } from '../../protocol/tiers/envelope.ts';
import type { RunHostOptions } from '../run-host/run-host.ts';

/** Options of `TiersServiceImpl.open`. */
export interface TiersServiceOptions {
  store: Store;
  /** Every task's envelopes, one partition per task (the supervisor's journal). */
  journal: Journal<RoutedRecord>;
  /** Every task's delegation tree, one partition per task. */
  trees: Journal<DelegationRecord>;
  /** Beads (task and user scopes) and the dedup service's seen messages. */
  beads: Journal<unknown>;
  brains: TierBrains;
  clock?: ServiceClock;
  /** The statecharts' clock, when not `clock` (a task rebuilt in a Restate handler keeps their timers apart). */
  runClock?: ServiceClock;
  admission?: RunHostOptions['admission'];
  /** How long the dedup service keeps an answer (an hour; a task on Restate keeps its own for its life). */
  seenForMs?: number;
  timeouts?: Partial<Record<Tier, number>>;
  inspect?: (partition: string, event: InspectionEvent) => void;
}
