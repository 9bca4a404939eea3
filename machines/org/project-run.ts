/**
 * The run actor of one org project (the run host hosts it beside the eight agents): it hands the
 * supervisor what the user's routes send into the project (`project.send`: the PRD's first tasks,
 * an amendment, an external agent's message), hands journaled work over again after a restart
 * (`project.redeliver`: idempotent, never journaled twice) and counts the agents' reports. It
 * `rests` once the project's host saw it idle (`project.settled`: nothing routed, no ack pending,
 * no brain working), which lets the run host retire it; anything sent wakes it. The project's
 * state itself is its journal and workspace (see server/org/project-views.ts).
 */
import { assign, enqueueActions, setup } from 'xstate';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';

export type ProjectRunEvent =
  | { type: 'project.send'; envelopes: unknown[] }
  | { type: 'project.redeliver'; envelopes: unknown[] }
  | { type: 'project.settled' }
  | { type: 'project.resume' }
  | { type: 'supervisor.report'; report: AgentReport };

/** Whether a project run's state is `resting` (what the run host's `durable.resting` asks). */
export const projectRests = (snapshot: { value: unknown }) => snapshot.value === 'resting';

export const projectRunMachine = setup({
  types: {
    context: {} as { sent: number; reports: number; failures: number },
    events: {} as ProjectRunEvent,
    input: {} as { name: string },
  },
  actions: {
    handOver: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'project.send' && event.type !== 'project.redeliver') return;
      const redeliver = event.type === 'project.redeliver';
      for (const envelope of event.envelopes)
        enqueue.sendParent(
          redeliver ? { type: 'supervisor.send', envelope, redeliver } : { type: 'supervisor.send', envelope },
        );
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
  on: {
    'project.send': { target: '.open', actions: ['handOver', 'countSent'] },
    'project.redeliver': { target: '.open', actions: 'handOver' },
    'supervisor.report': { actions: 'countReport' },
  },
  states: {
    open: {
      description: 'Takes messages into the project for as long as it lives; a done project still takes them.',
      on: { 'project.settled': 'resting' },
    },
    resting: {
      description:
        'Nothing is routed, acked or worked on: the run host writes it down and lets it go; a message wakes it.',
      on: { 'project.resume': 'open' },
    },
  },
});
