import { assign, sendParent, setup } from 'xstate';
import type { AgentCancelEvent } from '../../protocol/runtime/agent-report.ts';
import type {
  AgentDeliveryEvent,
  SupervisorEvent,
  SupervisorRejectedEvent,
} from '../../machines/runtime/supervisor.ts';

/** Tells a recorder agent to send an event to its supervisor, as an agent would. */
export interface RecorderSendEvent {
  type: 'recorder.send';
  event: SupervisorEvent;
}

/**
 * A test agent that records everything its supervisor delivers to it (envelopes, rejections and
 * cancellations) and forwards `recorder.send` events to its parent. It never stops work on a
 * cancel: it only notes it.
 */
export const recorderAgent = setup({
  types: {
    context: {} as {
      name: string;
      received: AgentDeliveryEvent[];
      rejected: SupervisorRejectedEvent[];
      cancelled: AgentCancelEvent[];
    },
    input: {} as { name: string },
    events: {} as AgentDeliveryEvent | SupervisorRejectedEvent | AgentCancelEvent | RecorderSendEvent,
  },
  actions: {
    recordDelivery: assign({
      received: ({ context, event }) =>
        event.type === 'agent.request' ? [...context.received, event] : context.received,
    }),
    recordRejection: assign({
      rejected: ({ context, event }) =>
        event.type === 'supervisor.rejected' ? [...context.rejected, event] : context.rejected,
    }),
    recordCancel: assign({
      cancelled: ({ context, event }) =>
        event.type === 'agent.cancel' ? [...context.cancelled, event] : context.cancelled,
    }),
    forwardToSupervisor: sendParent(({ event }) => (event as RecorderSendEvent).event),
  },
}).createMachine({
  id: 'recorder',
  context: ({ input }) => ({ name: input.name, received: [], rejected: [], cancelled: [] }),
  on: {
    'agent.request': { actions: 'recordDelivery' },
    'supervisor.rejected': { actions: 'recordRejection' },
    'agent.cancel': { actions: 'recordCancel' },
    'recorder.send': { actions: 'forwardToSupervisor' },
  },
});
