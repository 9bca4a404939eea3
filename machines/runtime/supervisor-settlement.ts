/**
 * The supervisor's settlement step, on each batch of journal outcomes (`journal.acked`): what
 * became durable is delivered in routing order (or, delivered early, confirmed) and announced as
 * routed; an append that failed is refused to its sender and its early delivery revoked; an
 * envelope that expired is announced as such; what agents produced while their input was not
 * durable is handled now, in order, or refused if that input's append failed; and a give-up or
 * expiry of acknowledged delivery is announced once the record closing it is durable.
 */
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { JournalAckEvent } from '../../actors/runtime/journal-writer.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import { ackItemOf, applyAckEffects, rescheduleAckTimer } from './supervisor-acks.ts';
import { expiredEvent, journalRefusal } from './supervisor-events.ts';
import { ackStepOf, deliverPending, refuse, type SupervisorStep } from './supervisor-step.ts';

/** Settles a batch of journal outcomes. */
export function deliverJournaled(step: SupervisorStep, event: JournalAckEvent): void {
  const { ledger } = step.context;
  const { enqueue } = step;
  const { due, released } = ledger.settle(event.tickets, event.failed);
  const routed = new RoutedBatches(enqueue);
  for (const pending of due) {
    const { record, partition, settled } = pending;
    if (!settled?.ok) {
      routed.flush();
      revoke(step, pending, settled?.message);
      continue;
    }
    if (record.expired) {
      routed.flush();
      enqueue.emit(expiredEvent(partition, record, 'admission'));
      continue;
    }
    // Its delivery waited for the disk: past its expiry now, it is not delivered either.
    if (!pending.deliveredEarly && pending.expiresAt !== undefined && ledger.expiredNow(pending)) {
      routed.flush();
      if (!closeTrackedExpiry(step, pending)) enqueue.emit(expiredEvent(partition, record, 'delivery'));
      continue;
    }
    if (!pending.deliveredEarly) deliverPending(step, pending);
    if (pending.targets.length > 0) {
      routed.add(partition, record);
      continue;
    }
    routed.flush();
    enqueue({ type: 'emitRouted', params: { type: 'supervisor.outbound', partition, record } });
  }
  routed.flush();
  const { acks } = step.context;
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
 * The envelopes one batch of acks delivered, announced as `supervisor.routed` events of one
 * partition each: consecutive records of a partition share one event, a record of another
 * partition closes it, and whatever else is announced flushes it first, so that observers hear
 * every event in routing order.
 */
class RoutedBatches {
  #partition: string | undefined;
  #records: RoutedRecord[] = [];

  constructor(private readonly enqueue: SupervisorStep['enqueue']) {}

  add(partition: string, record: RoutedRecord): void {
    if (partition !== this.#partition) this.flush();
    this.#partition = partition;
    this.#records.push(record);
  }

  flush(): void {
    const partition = this.#partition;
    if (partition === undefined) return;
    const records = this.#records;
    this.#partition = undefined;
    this.#records = [];
    this.enqueue({ type: 'emitRouted', params: { type: 'supervisor.routed', partition, records } });
  }
}

/**
 * An envelope that needs an ack expired before its delivery: its receivers' `ack.armed` records
 * are closed (`ack.expired`), else a restarted run would re-arm and announce it again. Returns
 * whether it needed an ack (then its expiry is announced per receiver, once durable).
 */
function closeTrackedExpiry(step: SupervisorStep, pending: PendingDelivery): boolean {
  const { acks } = step.context;
  const policy = acks && step.config.ackPolicyOf?.(pending.record.envelope);
  if (!policy) return false;
  const ackStep = ackStepOf(step, acks);
  applyAckEffects(ackStep, acks.expiredBeforeDelivery(ackItemOf(pending), pending.targets, policy, ackStep.now));
  return true;
}

/** An append failed: its sender hears `journal_unavailable`, and agents that got it early stop working on it. */
function revoke(step: SupervisorStep, pending: PendingDelivery, message: string | undefined): void {
  const rejected = journalRefusal(`The journal could not store the envelope: ${message}. Send it again.`, {
    envelope: pending.record.envelope,
  });
  refuse(step, pending.sender, rejected);
  if (!pending.deliveredEarly) return;
  for (const target of pending.targets) step.enqueue.sendTo(target, { type: 'agent.cancel', requestId: pending.id });
  const { acks } = step.context;
  if (acks) {
    acks.revoked(pending.id);
    rescheduleAckTimer(ackStepOf(step, acks));
  }
}
