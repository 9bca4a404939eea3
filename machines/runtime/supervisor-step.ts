/**
 * What the supervisor's pure steps work with (its context, its configuration compiled once per
 * machine, and XState's `enqueue`), and the two effects every step may have: refusing an
 * envelope to its sender, and delivering an admitted one to its targets.
 */
import type { AnyActorRef, EventObject } from 'xstate';
import type { Addressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { AckDelivery } from './ack-delivery.ts';
import type { DeliverySenders } from './delivery-senders.ts';
import type { DeliverBatchEvent } from './supervisor-deliverer.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import { ackItemOf, deliverTracked, rescheduleAckTimer, type AckStep } from './supervisor-acks.ts';
import { isRunningChild, type SupervisorEmitted, type SupervisorEvent } from './supervisor-events.ts';
import type { SupervisorLedger } from './supervisor-ledger.ts';
import type { SystemDefinition } from './supervisor-system.ts';

export interface SupervisorContext {
  ledger: SupervisorLedger<SupervisorEvent>;
  agentInputs: Readonly<Record<string, unknown>>;
  /** Acknowledged delivery, for a system with `acks`. */
  acks: AckDelivery | undefined;
  /** The senders of plain deliveries an agent holds, told if it reports `throttled`. */
  senders: DeliverySenders;
}

/** What one supervisor machine knows of its system, compiled once. */
export interface SupervisorConfig {
  system: SystemDefinition;
  addressing: Addressing;
  /** How an envelope asks for acks; `undefined` where the addressing declares none (no ack work at all). */
  ackPolicyOf: Addressing['ackPolicyOf'] | undefined;
  requestTimeoutMs: number;
  now: () => number;
}

/** What observers hear once an envelope is durable: delivered to agents, or bound for an external address. */
export type RoutedEvent = Extract<SupervisorEmitted, { type: 'supervisor.routed' | 'supervisor.outbound' }>;

export interface DeliverParams {
  target: string;
  pending: PendingDelivery;
}

/** The named actions of the hot path, as `enqueue` takes them (its typed overloads cannot name actions of the same `setup`). */
type HotAction =
  | { type: 'deliverRecord'; params: DeliverParams }
  | { type: 'deliverBatch'; params: DeliverBatchEvent }
  | { type: 'emitRouted'; params: RoutedEvent };

/** The part of XState's `enqueue` the steps use, with dynamic targets and the hot path's named actions. */
export interface SupervisorEnqueue {
  (action: HotAction): void;
  sendTo<E extends EventObject>(
    target: string | AnyActorRef | ((args: { self: AnyActorRef }) => AnyActorRef),
    event: E,
    options?: { delay?: number; id?: string },
  ): void;
  cancel(id: string): void;
  emit<E extends EventObject>(event: E): void;
  raise<E extends EventObject>(event: E): void;
}

/** One step of the supervisor: an action's `enqueue`, `self` and context, and the machine's configuration. */
export interface SupervisorStep {
  enqueue: SupervisorEnqueue;
  self: AnyActorRef;
  context: SupervisorContext;
  config: SupervisorConfig;
}

/** The step as the ack effects take it (`acks` present). */
export function ackStepOf(step: SupervisorStep, acks: AckDelivery): AckStep {
  const { enqueue, self, context, config } = step;
  return { enqueue, self, acks, ledger: context.ledger, system: config.system, now: config.now() };
}

/** Tells a refused envelope's sender (if it is a running agent) and observers. */
export function refuse(step: SupervisorStep, sender: string | undefined, rejected: SupervisorEmitted): void {
  if (isRunningChild(step.self, sender)) step.enqueue.sendTo(sender, rejected);
  step.enqueue.emit(rejected);
}

/** Delivers to its targets: asking for an ack when the envelope needs one, on the hot path otherwise. */
export function deliverPending(step: SupervisorStep, pending: PendingDelivery): void {
  const { acks } = step.context;
  // Stryker disable next-line OptionalChaining: `acks` exists only where `ackPolicyOf` does (createSupervisorMachine makes one from the other)
  const policy = acks && step.config.ackPolicyOf?.(pending.record.envelope);
  if (!policy) {
    for (const target of pending.targets) step.enqueue({ type: 'deliverRecord', params: { target, pending } });
    // A request's requester is known by the open request; any other sender is remembered here.
    if (pending.record.kind !== 'request')
      step.context.senders.delivered(pending.id, pending.sender, pending.targets.length);
    return;
  }
  const ackStep = ackStepOf(step, acks);
  const item = ackItemOf(pending);
  for (const target of pending.targets) deliverTracked(ackStep, item, target, policy);
  rescheduleAckTimer(ackStep);
}
