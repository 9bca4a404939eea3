/**
 * The events of a supervisor: what agents and hosts send it, what it sends agents and emits to
 * observers, and how it builds the ones it sends.
 */
import type { AnyActorRef } from 'xstate';
import type { JournalAckEvent } from '../../actors/runtime/journal-writer.ts';
import type { AgentAckEvent, AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { Addressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { DeliveredMessage, Delivery, RoutedRecord, RoutingError } from '../../protocol/runtime/routing.ts';

/** Sends an envelope to the agents (or external address) its receivers name (`to_agent` by default). */
export interface SupervisorSendEvent {
  type: 'supervisor.send';
  envelope: unknown;
  /** Delivered beside the envelope and journaled with it. */
  context?: unknown;
  /** Deliver even if this id was journaled already (idempotent hand-over after a restart). */
  redeliver?: boolean;
}
/** Sends an envelope to every subscriber of a topic but its sender. */
export interface SupervisorPublishEvent {
  type: 'supervisor.publish';
  topic: string;
  envelope: unknown;
  context?: unknown;
}
/** Sends an envelope that expects one response; the requester hears `request_timeout` otherwise. */
export interface SupervisorRequestEvent {
  type: 'supervisor.request';
  envelope: unknown;
  timeoutMs?: number;
  context?: unknown;
}
/** Answers an open request, named by its message id. */
export interface SupervisorRespondEvent {
  type: 'supervisor.respond';
  inReplyTo: string;
  envelope: unknown;
  context?: unknown;
}
/** Cancels an agent's current work (or one request of it). */
export interface SupervisorCancelEvent {
  type: 'supervisor.cancel';
  agent: string;
  requestId?: string;
}
/** The supervisor's own timer: a request got no response in time. */
export interface RequestExpiredEvent {
  type: 'supervisor.request.expired';
  correlationId: string;
}

/** The supervisor's own timer: the earliest ack deadline or redelivery backoff came due. */
export interface AckDueEvent {
  type: 'supervisor.ack.due';
}

/** What observers hear when a receiver never acked an envelope (after its last delivery). */
export interface UndeliverableEvent {
  type: 'supervisor.undeliverable';
  receiver: string;
  attempts: number;
  partition: string;
  envelope: unknown;
}

export type SupervisorEvent =
  | SupervisorSendEvent
  | SupervisorPublishEvent
  | SupervisorRequestEvent
  | SupervisorRespondEvent
  | SupervisorCancelEvent
  | RequestExpiredEvent
  | AckDueEvent
  | AgentAckEvent
  | AgentReport
  | JournalAckEvent;

/** What an agent receives for each envelope routed to it (the generic worker's `agent.request`). */
export interface AgentDeliveryEvent {
  type: 'agent.request';
  requestId: string;
  input: DeliveredMessage;
  /** The envelope needs an ack: the agent sends `agent.ack` when it starts on it. */
  ack?: true;
}

/**
 * What a refused envelope's sender receives (and what observers see emitted): the envelope itself
 * where the supervisor has it, or else the id of the request refused (its own field, in no
 * system's envelope shape).
 */
export interface SupervisorRejectedEvent {
  type: 'supervisor.rejected';
  error: RoutingError;
  envelope?: unknown;
  requestId?: string;
}

/** Events observers can subscribe to with `actor.on(...)`. */
export type SupervisorEmitted =
  /**
   * Envelopes delivered to agents, once durable: of one partition, in routing order, as many as
   * one batch of journal acks made due (one event per batch, not per envelope: the hot path).
   */
  | { type: 'supervisor.routed'; partition: string; records: readonly RoutedRecord[] }
  /** An envelope to an external address (USER), once durable: the host hands it on. */
  | { type: 'supervisor.outbound'; partition: string; record: RoutedRecord }
  | { type: 'supervisor.report'; report: AgentReport }
  /**
   * An envelope past its expiry: when it was admitted (journaled with `expired: true`, once
   * durable), or when its delivery, which waited for the journal, came due (journaled as routed).
   * Either way no agent got it.
   */
  | { type: 'supervisor.expired'; partition: string; record: RoutedRecord; at: 'admission' | 'delivery' }
  | UndeliverableEvent
  | SupervisorRejectedEvent;

/**
 * The records a routed or outbound event announces, in routing order.
 *
 * @example
 * const ids = emitted.flatMap(routedRecordsOf).map((record) => record.envelope.message_id);
 */
export function routedRecordsOf(event: SupervisorEmitted): readonly RoutedRecord[] {
  if (event.type === 'supervisor.routed') return event.records;
  return event.type === 'supervisor.outbound' ? [event.record] : [];
}

/** One shared, frozen delivery per kind for the common case (no topic, no correlation): the hot path allocates less. */
const PLAIN_DELIVERIES = {
  direct: Object.freeze({ kind: 'direct' }),
  broadcast: Object.freeze({ kind: 'broadcast' }),
  request: Object.freeze({ kind: 'request' }),
  response: Object.freeze({ kind: 'response' }),
} as const satisfies Record<Delivery['kind'], Delivery>;

/** What observers hear of an envelope past its expiry (see `supervisor.expired`): no agent got it, at admission or at a delivery. */
export function expiredEvent(
  partition: string,
  record: RoutedRecord,
  at: 'admission' | 'delivery',
): Extract<SupervisorEmitted, { type: 'supervisor.expired' }> {
  return { type: 'supervisor.expired', partition, record, at };
}

/** What a refused envelope's sender hears when the journal could not store it (or what it answers). */
export function journalRefusal(
  message: string,
  about: { envelope: unknown } | { requestId: string },
): SupervisorRejectedEvent {
  return { type: 'supervisor.rejected', error: { code: 'journal_unavailable', message }, ...about };
}

/** Whether `name` is a child of `self` still running (an orchestrator in its final state hears nothing more). */
export function isRunningChild(self: AnyActorRef, name: string | undefined): name is string {
  const child =
    name === undefined ? undefined : (self.getSnapshot().children as Record<string, AnyActorRef | undefined>)[name];
  return child?.getSnapshot().status === 'active';
}

/** The agent an event comes from: a report's agent, or the sender of the envelope it carries. */
export function senderOf(event: SupervisorEvent, addressing: Addressing): string | undefined {
  if (event.type === 'agent.report') return event.agent;
  return 'envelope' in event ? addressing.senderOf(event.envelope) : undefined;
}

/** What each target of a routed record receives; `id` is the envelope's, as its addressing reads it. */
export function deliveryOf(record: RoutedRecord, id: string): AgentDeliveryEvent {
  let delivery: Delivery = PLAIN_DELIVERIES[record.kind];
  if (record.topic !== undefined || record.correlation_id !== undefined) {
    delivery = { kind: record.kind };
    if (record.topic !== undefined) delivery.topic = record.topic;
    if (record.correlation_id !== undefined) delivery.correlationId = record.correlation_id;
  }
  const input: DeliveredMessage = { envelope: record.envelope, delivery };
  if (record.context !== undefined) input.context = record.context;
  return { type: 'agent.request', requestId: id, input };
}

/** Turns an agent's output into the envelopes it sends: an envelope (it has an id field) or an array of them. */
export function envelopesOf(output: unknown, addressing: Addressing): unknown[] {
  if (Array.isArray(output)) return output;
  return addressing.hasId(output) ? [output] : [];
}
