/**
 * The supervisor's deliverer: a callback actor that hands a batch of deliveries to their agents,
 * in order. A settlement that delivers a burst of journaled envelopes sends it one event, so the
 * burst costs one XState `sendTo` instead of one per envelope and target; the deliverer runs when
 * that send runs (after the supervisor's step), as each of those sends would have.
 */
import { fromCallback, type AnyActorRef } from 'xstate';
import type { AgentDeliveryEvent } from './supervisor-events.ts';

/** Deliveries in routing order: `events[i]` goes to `targets[i]`. */
export interface DeliverBatchEvent {
  type: 'supervisor.deliver';
  targets: AnyActorRef[];
  events: AgentDeliveryEvent[];
}

/** The deliverer's logic, invoked by every supervisor as its `deliverer` child. */
export const supervisorDeliverer = fromCallback<DeliverBatchEvent>(function supervisorDeliverer({ receive }) {
  receive(({ targets, events }) => {
    for (let i = 0; i < targets.length; i++) targets[i]!.send(events[i]!);
  });
});
