/**
 * A co-scientist agent's mailbox in the supervisor: it takes each envelope routed to its agent
 * (a task assignment, a broadcast) and counts it. The work itself runs on the task queue's
 * workers, which instantiate the agent per task; this actor is the address the SUPERVISOR's
 * messages reach, so the runtime supervisor validates, routes and journals every one of them.
 */
import { assign, setup } from 'xstate';
import type { AgentDeliveryEvent } from '../runtime/supervisor.ts';

export const agentMailbox = setup({
  types: {
    context: {} as { name: string; delivered: number },
    input: {} as { name: string },
    events: {} as AgentDeliveryEvent | { type: string },
  },
  actions: { countDelivery: assign({ delivered: ({ context }) => context.delivered + 1 }) },
}).createMachine({
  id: 'agentMailbox',
  context: ({ input }) => ({ name: input.name, delivered: 0 }),
  on: { 'agent.request': { actions: 'countDelivery' } },
});
