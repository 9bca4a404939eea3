import { assign, sendParent, setup } from 'xstate';
import type { AgentDeliveryEvent, SupervisorEvent, SupervisorRejectedEvent } from '../../machines/supervisor.ts';

/** Tells a recorder agent to send an event to its supervisor, as an agent would. */
export interface RecorderSendEvent {
  type: 'recorder.send';
  event: SupervisorEvent;
}

/**
 * A test agent that records everything its supervisor delivers to it (envelopes and rejections)
 * and forwards `recorder.send` events to its parent.
 */
export const recorderAgent = setup({
  types: {
    context: {} as { name: string; received: AgentDeliveryEvent[]; rejected: SupervisorRejectedEvent[] },
    input: {} as { name: string },
    events: {} as AgentDeliveryEvent | SupervisorRejectedEvent | RecorderSendEvent,
  },
  actions: {
    recordDelivery: assign({
      received: ({ context, event }) => (event.type === 'agent.request' ? [...context.received, event] : context.received),
    }),
    recordRejection: assign({
      rejected: ({ context, event }) => (event.type === 'supervisor.rejected' ? [...context.rejected, event] : context.rejected),
    }),
    forwardToSupervisor: sendParent(({ event }) => (event as RecorderSendEvent).event),
  },
}).createMachine({
  id: 'recorder',
  context: ({ input }) => ({ name: input.name, received: [], rejected: [] }),
  on: {
    'agent.request': { actions: 'recordDelivery' },
    'supervisor.rejected': { actions: 'recordRejection' },
    'recorder.send': { actions: 'forwardToSupervisor' },
  },
});
