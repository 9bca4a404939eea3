import { randomUUID } from 'node:crypto';
import { enqueueActions, setup } from 'xstate';
import type { BackoffPolicy } from '../../actors/runtime/backoff.ts';
import { retryDelayAfterRefusal } from '../../actors/runtime/sender-retry.ts';
import type { SupervisorRejectedEvent } from '../../machines/runtime/supervisor.ts';
import type { TestEnvelope } from './test-system.ts';

/** Asks the sender to send an envelope, retried until `deadline` (the clock's ms). */
export interface SenderSendEvent {
  type: 'sender.send';
  envelope: TestEnvelope;
  deadline: number;
}

/** The sender's own timer: send `id` again, as a new message id. */
interface SenderResendEvent {
  type: 'sender.resend';
  id: string;
}

interface Outgoing {
  envelope: TestEnvelope;
  deadline: number;
  /** Retries so far. */
  retries: number;
}

/**
 * A sending agent as a system would write one: it sends envelopes through its supervisor and,
 * told one was refused for a transient reason (`throttled`), waits what `retryDelayAfterRefusal`
 * says on the actor system's clock, then sends it again as a new message id; no retry left
 * before the deadline, it gives up. `now` reads the same clock.
 */
export const retryingSender = setup({
  types: {
    context: {} as {
      now: () => number;
      policy: BackoffPolicy;
      maxRetries: number;
      outgoing: Record<string, Outgoing>;
      sent: TestEnvelope[];
      gaveUp: string[];
    },
    input: {} as { now: () => number; policy: BackoffPolicy; maxRetries: number },
    events: {} as SenderSendEvent | SenderResendEvent | SupervisorRejectedEvent | { type: 'agent.request' },
  },
  actions: {
    send: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sender.send') return;
      const { envelope, deadline } = event;
      enqueue.assign({
        outgoing: { ...context.outgoing, [envelope.message_id]: { envelope, deadline, retries: 0 } },
        sent: [...context.sent, envelope],
      });
      enqueue.sendParent({ type: 'supervisor.send', envelope });
    }),
    backOff: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'supervisor.rejected' || event.requestId === undefined) return;
      const outgoing = context.outgoing[event.requestId];
      if (!outgoing) return;
      const delay = retryDelayAfterRefusal(event.error, {
        policy: context.policy,
        attempt: outgoing.retries + 1,
        maxRetries: context.maxRetries,
        now: context.now(),
        deadline: outgoing.deadline,
        random: () => 0,
      });
      if (delay === undefined) enqueue.assign({ gaveUp: [...context.gaveUp, event.requestId] });
      else enqueue.raise({ type: 'sender.resend', id: event.requestId }, { delay });
    }),
    resend: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'sender.resend') return;
      const { [event.id]: outgoing, ...rest } = context.outgoing;
      if (!outgoing) return;
      const envelope = { ...outgoing.envelope, message_id: randomUUID() };
      enqueue.assign({
        outgoing: { ...rest, [envelope.message_id]: { ...outgoing, envelope, retries: outgoing.retries + 1 } },
        sent: [...context.sent, envelope],
      });
      enqueue.sendParent({ type: 'supervisor.send', envelope });
    }),
  },
}).createMachine({
  id: 'retryingSender',
  context: ({ input }) => ({ ...input, outgoing: {}, sent: [], gaveUp: [] }),
  on: {
    'sender.send': { actions: 'send' },
    'supervisor.rejected': { actions: 'backOff' },
    'sender.resend': { actions: 'resend' },
  },
});
