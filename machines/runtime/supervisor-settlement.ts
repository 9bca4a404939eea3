/**
 * The supervisor's settlement step, on each batch of journal outcomes (`journal.acked`): as a
 * failure comes back, a failed request's timer goes and acknowledged delivery lets go of a failed
 * early delivery; then, in routing order, what became durable is delivered (or, delivered early,
 * confirmed) and announced as routed; an append that failed is refused to its sender and its early
 * delivery revoked; an envelope that expired is announced as such; an answer closes or reopens its
 * request, and a request is stored or, expired, closed (`supervisor-requests.ts`); what agents
 * produced while their input was not durable is handled now, in order, or refused if that input's
 * append failed; and a give-up or expiry of acknowledged delivery is announced once the record
 * closing it is durable.
 */
import type { AnyActorRef } from 'xstate';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { JournalAckEvent } from '../../actors/runtime/journal-writer.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import { ackItemOf, applyAckEffects, rescheduleAckTimer } from './supervisor-acks.ts';
import { deliveryOf, expiredEvent, journalRefusal, type AgentDeliveryEvent } from './supervisor-events.ts';
import { cancelRequestTimers, settleAnswer, settleTurn } from './supervisor-requests.ts';
import { ackStepOf, deliverPending, refuse, type RoutedEvent, type SupervisorStep } from './supervisor-step.ts';

/** Settles a batch of journal outcomes. */
export function deliverJournaled(step: SupervisorStep, event: JournalAckEvent): void {
  const { ledger } = step.context;
  const { enqueue } = step;
  const { due, released, closedRequests, revokedEarly } = ledger.settle(event.tickets, event.failed);
  cancelRequestTimers(step, closedRequests);
  const { acks } = step.context;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a fast path; with nothing revoked the timer's due time is unchanged and rescheduling leaves it as it is
  if (acks && revokedEarly.length > 0) {
    for (const id of revokedEarly) acks.revoked(id);
    rescheduleAckTimer(ackStepOf(step, acks));
  }
  const settled = new SettledBatch(step);
  for (const pending of due) {
    const { record, partition } = pending;
    // Stryker disable next-line OptionalChaining: `ledger.settle` makes due only deliveries whose `settled` is set
    if (!pending.settled?.ok) {
      settled.flush();
      // Stryker disable next-line OptionalChaining: as above, `settled` is set on every due delivery
      revoke(step, pending, pending.settled?.message);
      settleAnswer(step, pending, false);
      continue;
    }
    if (record.expired) {
      settled.flush();
      enqueue.emit(expiredEvent(partition, record, 'admission'));
      continue;
    }
    // Its delivery waited for the disk: past its expiry now, it is not delivered either.
    if (!pending.deliveredEarly && pending.expiresAt !== undefined && ledger.expiredNow(pending)) {
      settled.flush();
      if (!closeTrackedExpiry(step, pending)) enqueue.emit(expiredEvent(partition, record, 'delivery'));
      settleTurn(step, pending, false, settled);
      continue;
    }
    if (!pending.deliveredEarly) settled.deliver(pending);
    if (pending.targets.length > 0) settled.routed(partition, record);
    else {
      settled.flush();
      enqueue({ type: 'emitRouted', params: { type: 'supervisor.outbound', partition, record } });
    }
    settleTurn(step, pending, true, settled);
  }
  settled.flush();
  if (acks?.closing) {
    const ackStep = ackStepOf(step, acks);
    applyAckEffects(ackStep, acks.settled(event.tickets, event.failed, ackStep.now));
  }
  for (const { agent, events, revoked } of released) {
    if (revoked.length === 0) {
      // Their inputs are durable now: handle them as if they had just arrived, in order.
      for (const held of events) enqueue.raise(held);
      continue;
    }
    for (const held of events) {
      const rejected = journalRefusal(
        `Not routed: ${agent} produced it while working on ${revoked.join(', ')}, which the journal could not store.`,
        'envelope' in held ? { envelope: held.envelope } : { requestId: (held as AgentReport).requestId },
      );
      refuse(step, agent, rejected);
    }
  }
}

/**
 * What one batch of acks delivers and announces, held until something else must be said: the
 * deliveries go to the `deliverer` as one event (in routing order), then the envelopes are
 * announced as `supervisor.routed` events of one partition each (consecutive records of a
 * partition share one event, a record of another partition closes it). Anything else the
 * settlement says flushes both first, so that agents get their deliveries, and observers hear
 * every event, in routing order, and each envelope is announced after it was delivered.
 */
class SettledBatch {
  #targets: AnyActorRef[] = [];
  #events: AgentDeliveryEvent[] = [];
  /** Closed routed events, not enqueued yet: they follow the deliveries. */
  #closed: RoutedEvent[] = [];
  #partition: string | undefined;
  #records: RoutedRecord[] = [];
  readonly #children: Record<string, AnyActorRef | undefined>;

  constructor(private readonly step: SupervisorStep) {
    this.#children = step.self.getSnapshot().children as Record<string, AnyActorRef | undefined>;
  }

  /** Delivers a durable envelope to its targets: in the batch, or in its turn where it needs an ack. */
  deliver(pending: PendingDelivery): void {
    const { step } = this;
    const { targets } = pending;
    // Stryker disable next-line OptionalChaining: `acks` exists exactly when `ackPolicyOf` does (both from `addressing.ack`)
    const tracked = step.context.acks !== undefined && step.config.ackPolicyOf?.(pending.record.envelope);
    if (tracked || !this.#allChildren(targets)) {
      this.flush();
      deliverPending(step, pending);
      return;
    }
    for (const target of targets) {
      this.#targets.push(this.#children[target]!);
      this.#events.push(deliveryOf(pending.record, pending.id));
    }
    // A request's requester is known by the open request; any other sender is remembered here.
    if (pending.record.kind !== 'request') step.context.senders.delivered(pending.id, pending.sender, targets.length);
  }

  /** Whether every target is a child (if not, the per-target path delivers it, and fails as it always did). */
  #allChildren(targets: readonly string[]): boolean {
    // Stryker disable next-line BooleanLiteral: unreachable, every target is an agent spawned at entry and XState never drops a child the supervisor does not stop
    for (const target of targets) if (this.#children[target] === undefined) return false;
    return true;
  }

  routed(partition: string, record: RoutedRecord): void {
    if (partition !== this.#partition) this.#close();
    this.#partition = partition;
    this.#records.push(record);
  }

  flush(): void {
    const { enqueue } = this.step;
    if (this.#targets.length > 0) {
      enqueue({
        type: 'deliverBatch',
        params: { type: 'supervisor.deliver', targets: this.#targets, events: this.#events },
      });
      this.#targets = [];
      this.#events = [];
    }
    this.#close();
    if (this.#closed.length === 0) return;
    for (const routed of this.#closed) enqueue({ type: 'emitRouted', params: routed });
    this.#closed = [];
  }

  #close(): void {
    const partition = this.#partition;
    if (partition === undefined) return;
    this.#closed.push({ type: 'supervisor.routed', partition, records: this.#records });
    this.#partition = undefined;
    this.#records = [];
  }
}

/**
 * An envelope that needs an ack expired before its delivery: its receivers' `ack.armed` records
 * are closed (`ack.expired`), else a restarted run would re-arm and announce it again. Returns
 * whether it needed an ack (then its expiry is announced per receiver, once durable).
 */
function closeTrackedExpiry(step: SupervisorStep, pending: PendingDelivery): boolean {
  const { acks } = step.context;
  // Stryker disable next-line OptionalChaining: `acks` exists exactly when `ackPolicyOf` does (both from `addressing.ack`)
  const policy = acks && step.config.ackPolicyOf?.(pending.record.envelope);
  if (!policy) return false;
  const ackStep = ackStepOf(step, acks);
  applyAckEffects(ackStep, acks.expiredBeforeDelivery(ackItemOf(pending), pending.targets, policy, ackStep.now));
  return true;
}

/** An append failed, at its turn: its sender hears `journal_unavailable`, and agents that got it early stop working on it. */
function revoke(step: SupervisorStep, pending: PendingDelivery, message: string | undefined): void {
  const rejected = journalRefusal(`The journal could not store the envelope: ${message}. Send it again.`, {
    envelope: pending.record.envelope,
  });
  refuse(step, pending.sender, rejected);
  if (!pending.deliveredEarly) return;
  // Acknowledged delivery let go of it as the failure came back (`revokedEarly`).
  for (const target of pending.targets) step.enqueue.sendTo(target, { type: 'agent.cancel', requestId: pending.id });
}
