/**
 * The echo system's run actor: takes the user's text (`echo.start`), hands it to ECHO through the
 * supervisor, and ends `done` with ECHO's answer (or `failed`). `echo.resume` hands the text over
 * again after a restore (the journal already holds it, so it is delivered, not appended).
 */
import { assign, sendParent, setup } from 'xstate';
import type { AgentReport } from '../../../protocol/runtime/agent-report.ts';
import type { EchoEnvelope } from './echo-envelope.ts';

export type EchoRunEvent =
  | { type: 'echo.start'; envelope: EchoEnvelope }
  | { type: 'echo.resume' }
  | { type: 'supervisor.report'; report: AgentReport };

export interface EchoRunContext {
  request: EchoEnvelope | null;
  reply: EchoEnvelope | null;
}

export const echoRunMachine = setup({
  types: { context: {} as EchoRunContext, events: {} as EchoRunEvent, input: {} as { name: string } },
  actions: {
    recordRequest: assign({ request: ({ event }) => (event.type === 'echo.start' ? event.envelope : null) }),
    handOver: sendParent(({ context }) => ({ type: 'supervisor.send', envelope: context.request, redeliver: true })),
    recordReply: assign({
      reply: ({ event }) =>
        event.type === 'supervisor.report' && event.report.outcome.status === 'completed'
          ? (event.report.outcome.output as EchoEnvelope)
          : null,
    }),
  },
  guards: {
    answered: ({ event }) => event.type === 'supervisor.report' && event.report.outcome.status === 'completed',
  },
}).createMachine({
  id: 'echoRun',
  context: { request: null, reply: null },
  initial: 'idle',
  states: {
    idle: { on: { 'echo.start': { target: 'echoing', actions: ['recordRequest', 'handOver'] } } },
    echoing: {
      description: 'ECHO works on the text',
      on: {
        'supervisor.report': [{ guard: 'answered', target: 'done', actions: 'recordReply' }, { target: 'failed' }],
        'echo.resume': { actions: 'handOver' },
      },
    },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
});
