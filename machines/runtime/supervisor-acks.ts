/**
 * How the supervisor carries out acknowledged delivery (`ack-delivery.ts`): deliveries that ask
 * for an ack, the effects of acks, throttles and timeouts (journal, redeliver, report), and its
 * one ack timer, a delayed event on the actor system's clock at the ledger's earliest deadline.
 */
import type { AnyActorRef } from 'xstate';
import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { Addressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { AckPolicy } from './ack-ledger.ts';
import type { AckDelivery, AckEffect, AckItem } from './ack-delivery.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import {
  deliveryOf,
  expiredEvent,
  isRunningChild,
  type AckDueEvent,
  type SupervisorRejectedEvent,
  type UndeliverableEvent,
} from './supervisor-events.ts';
import type { SupervisorLedger } from './supervisor-ledger.ts';
import { declineRequest } from './supervisor-requests.ts';
import type { SupervisorEnqueue } from './supervisor-step.ts';
import type { SystemDefinition } from './supervisor-system.ts';

/** The part of the supervisor's `enqueue` the ack effects use. */
type AckEnqueue = Pick<SupervisorEnqueue, 'sendTo' | 'cancel' | 'emit' | 'raise'>;

/** What the ack actions of one supervisor step work with. */
export interface AckStep {
  enqueue: unknown;
  self: AnyActorRef;
  acks: AckDelivery;
  ledger: SupervisorLedger<unknown>;
  system: SystemDefinition;
  now: number;
}

const TIMER_ID = 'supervisor.ack.timer';

/** What the ack ledger keeps of a delivery (or of a journaled envelope, at a restart). */
export function ackItemOf(
  pending: Pick<PendingDelivery, 'id' | 'partition' | 'record' | 'sender' | 'expiresAt'>,
): AckItem {
  const { id, partition, record, sender, expiresAt } = pending;
  return { id, partition, record, sender, expiresAt };
}

/**
 * Re-arms a restored run's pending acks from its journal records, reading envelopes through the
 * addressing. A give-up journaled without its dead letter (the process died between the two
 * appends) has its dead letter sent now; its event and sender notice are not made again (they
 * may have gone out), so a give-up is announced at most once and dead-lettered exactly once.
 */
export function restoreAcks(
  acks: AckDelivery,
  records: readonly JournalRecord[],
  system: SystemDefinition,
  addressing: Addressing,
): void {
  const read = (record: RoutedRecord) => {
    const id = addressing.idOf(record.envelope);
    const sender = addressing.senderOf(record.envelope);
    if (id === undefined || sender === undefined) return undefined;
    const partition = system.partitionOf(record.envelope);
    const expiresAt = addressing.expiresAtOf(record.envelope);
    return {
      item: ackItemOf({ id, sender, partition, record, expiresAt }),
      policy: addressing.ackPolicyOf(record.envelope),
    };
  };
  if (!system.acks?.deadLetter) {
    acks.restore(records, read);
    return;
  }
  const journaled = new Set(records.flatMap((r) => (isRoutedRecord(r) ? [addressing.idOf(r.envelope)] : [])));
  acks.restore(records, read, (id, receiver) => !journaled.has(deadLetterId(id, receiver)));
}

/**
 * A receiver too busy to take an envelope (`throttled`): the ack ledger retries a tracked one
 * after `retryAfterMs`; otherwise its sender hears `supervisor.rejected` with code `throttled`,
 * `retryAfterMs` and `requestId` (the requester of an open request, or `sender`, who sent a plain
 * envelope: see `DeliverySenders`), and backs off (`retryDelayAfterRefusal`, `sender-retry.ts`).
 * Returns whether the ack ledger took the envelope over: then the throttle is not a report (the
 * envelope has one, later).
 */
export function handleThrottle(
  step: Omit<AckStep, 'acks'> & { acks: AckDelivery | undefined },
  report: AgentReport,
  retryAfterMs: number,
  sender?: string,
): boolean {
  const { acks, self } = step;
  const enqueue = step.enqueue as AckEnqueue;
  const { requestId, agent } = report;
  if (acks?.tracks(requestId, agent)) {
    applyAckEffects({ ...step, acks }, acks.throttled(requestId, agent, step.now, retryAfterMs));
    return true;
  }
  // An untracked request is over for its requester: closed now, it hears no `request_timeout` later.
  const open = declineRequest(step.ledger.requests, enqueue, requestId);
  const to = open ? open.requester : sender;
  if (!isRunningChild(self, to)) return false;
  const what = open ? 'request' : 'message';
  enqueue.sendTo(to, {
    type: 'supervisor.rejected',
    error: {
      code: 'throttled',
      message: `${agent} is too busy to take ${what} ${requestId}; send it again in ${retryAfterMs} ms at the earliest (a new message id).`,
      retryAfterMs,
    },
    requestId,
  } satisfies SupervisorRejectedEvent);
  return false;
}

/** Hands an envelope that needs an ack to `target`, asking it to ack, and starts its ack timer. */
export function deliverTracked(step: AckStep, item: AckItem, target: string, policy: AckPolicy): void {
  // A stopped agent gets nothing, and so never acks (as for a redelivery).
  if (isRunningChild(step.self, target))
    (step.enqueue as AckEnqueue).sendTo(target, { ...deliveryOf(item.record, item.id), ack: true });
  step.acks.delivered(item, target, policy, step.now);
}

/** Carries out ack effects in order, then moves the ack timer to the ledger's next deadline. */
export function applyAckEffects(step: AckStep, effects: readonly AckEffect[]): void {
  const enqueue = step.enqueue as AckEnqueue;
  for (const effect of effects) {
    switch (effect.type) {
      case 'journal': {
        // A closing record has a ticket: its announcement waits for this append (`AckDelivery.settled`).
        step.ledger.note(effect.partition, effect.record, effect.ticket);
        const outbox = step.ledger.takeOpened();
        if (outbox) enqueue.sendTo('journal', { type: 'journal.append', outbox });
        break;
      }
      case 'redeliver':
        // A stopped agent gets nothing, and so never acks: its redeliveries run out.
        if (isRunningChild(step.self, effect.receiver))
          enqueue.sendTo(effect.receiver, { ...deliveryOf(effect.item.record, effect.item.id), ack: true });
        break;
      case 'expired':
        // As settlement announces a delivery that came due past its expiry.
        enqueue.emit(expiredEvent(effect.item.partition, effect.item.record, 'delivery'));
        break;
      case 'undeliverable': {
        const { item, receiver, attempts } = effect;
        const envelope = item.record.envelope;
        enqueue.emit({
          type: 'supervisor.undeliverable',
          receiver,
          attempts,
          partition: item.partition,
          envelope,
        } satisfies UndeliverableEvent);
        if (isRunningChild(step.self, item.sender)) {
          enqueue.sendTo(item.sender, {
            type: 'supervisor.rejected',
            error: {
              code: 'undeliverable',
              message: `${receiver} did not acknowledge message ${item.id} after ${attempts} deliveries.`,
            },
            envelope,
          } satisfies SupervisorRejectedEvent);
        }
        // A request given up on (only a request is open under its own id) is over for its
        // requester, as a throttled one: no `request_timeout` follows.
        declineRequest(step.ledger.requests, enqueue, item.id);
        sendDeadLetter(step, effect);
        break;
      }
      case 'deadLetter':
        sendDeadLetter(step, effect);
        break;
    }
  }
  rescheduleAckTimer(step);
}

/** Sends the system's dead letter for a give-up, if it declares one: routed like any envelope (validated, checked, journaled). */
function sendDeadLetter(step: AckStep, giveUp: { item: AckItem; receiver: string; attempts: number }): void {
  const { item, receiver, attempts } = giveUp;
  const id = deadLetterId(item.id, receiver);
  const deadLetter = step.system.acks?.deadLetter?.(item.record.envelope, receiver, attempts, id);
  if (deadLetter !== undefined) (step.enqueue as AckEnqueue).raise({ type: 'supervisor.send', envelope: deadLetter });
}

/** The dead letter's message id for `(id, receiver)`: the same on every run, so a replayed give-up is a duplicate. */
export function deadLetterId(id: string, receiver: string): string {
  return derivedUuid('dead-letter', id, receiver);
}

/** Sets the one ack timer to the ledger's earliest deadline, if that moved. */
export function rescheduleAckTimer(step: AckStep): void {
  const { acks, now } = step;
  const enqueue = step.enqueue as AckEnqueue;
  const next = acks.nextDueAt();
  if (next === acks.timerAt) return;
  if (acks.timerAt !== undefined) enqueue.cancel(TIMER_ID);
  acks.timerAt = next;
  if (next !== undefined)
    enqueue.sendTo(step.self, { type: 'supervisor.ack.due' } satisfies AckDueEvent, {
      delay: Math.max(0, next - now),
      id: TIMER_ID,
    });
}
