/**
 * The run actor of one org project (the run host hosts it beside the eight agents): it hands the
 * supervisor what the user's routes send into the project (`project.send`: the PRD's first tasks,
 * an amendment, an external agent's message) and counts the agents' reports. The project's state
 * itself is its journal and workspace (see server/org/project-views.ts).
 */
import { assign, enqueueActions, setup } from 'xstate';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';

export type ProjectRunEvent =
  { type: 'project.send'; envelopes: unknown[] } | { type: 'supervisor.report'; report: AgentReport };

export const projectRunMachine = setup({
  types: {
    context: {} as { sent: number; reports: number; failures: number },
    events: {} as ProjectRunEvent,
    input: {} as { name: string },
  },
  actions: {
    handOver: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'project.send') return;
      for (const envelope of event.envelopes) enqueue.sendParent({ type: 'supervisor.send', envelope });
    }),
    countSent: assign({
      sent: ({ context, event }) => context.sent + (event.type === 'project.send' ? event.envelopes.length : 0),
    }),
    countReport: assign({
      reports: ({ context }) => context.reports + 1,
      failures: ({ context, event }) =>
        context.failures + (event.type === 'supervisor.report' && event.report.outcome.status === 'failed' ? 1 : 0),
    }),
  },
}).createMachine({
  id: 'projectRun',
  context: { sent: 0, reports: 0, failures: 0 },
  initial: 'open',
  states: {
    open: {
      description: 'Takes messages into the project for as long as it lives; a done project still takes them.',
      on: {
        'project.send': { actions: ['handOver', 'countSent'] },
        'supervisor.report': { actions: 'countReport' },
      },
    },
  },
});
