import { assign, sendParent, setup } from 'xstate';
import type { AgentCancelEvent, AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { SupervisorEvent, SupervisorRejectedEvent } from '../../machines/runtime/supervisor.ts';
import type { RecorderSendEvent } from './recorder-agent.ts';

/** What the supervisor tells an orchestrator of another agent's report. */
export interface SupervisorReportEvent {
  type: 'supervisor.report';
  report: AgentReport;
}

/**
 * A test orchestrator: it records every event its supervisor sends it (reports, refusals,
 * cancellations, anything else) in arrival order, and forwards `recorder.send` events to its
 * supervisor, as an agent would send them.
 */
export const reportRecorder = setup({
  types: {
    context: {} as { name: string; heard: { type: string }[] },
    input: {} as { name: string },
    events: {} as SupervisorReportEvent | SupervisorRejectedEvent | AgentCancelEvent | RecorderSendEvent,
  },
  actions: {
    record: assign({ heard: ({ context, event }) => [...context.heard, event] }),
    forwardToSupervisor: sendParent(({ event }) => (event as RecorderSendEvent).event as SupervisorEvent),
  },
}).createMachine({
  id: 'report-recorder',
  context: ({ input }) => ({ name: input.name, heard: [] }),
  on: {
    'recorder.send': { actions: 'forwardToSupervisor' },
    '*': { actions: 'record' },
  },
});
