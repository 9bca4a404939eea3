/**
 * One handoff of spec 004 (one deliverable from one sender to one receiver): it accepts the
 * events read off the project's journal (`handoff.notify` for each handoff_notification,
 * `handoff.acked` for the runtime's ack, `handoff.accepted`/`handoff.rejected` for the receiver's
 * response, `handoff.undeliverable` when no ack ever came) and ends `accepted`, `escalated` at its
 * second rejection, or `undeliverable`. Its table is `protocol/org/handoff-transitions.ts`.
 */
import { assign, setup } from 'xstate';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import type { HandoffState } from '../../protocol/org/handoff-transitions.ts';

export interface HandoffInput {
  handoff_id: string;
  from: string;
  to: string;
  deliverable_type: string;
}

/** One step of a handoff's history: the state it entered, when, by which message, with what issues. */
export interface HandoffStep {
  state: HandoffState;
  at: string;
  message_id: string;
  issues?: ErrorIssue[];
}

export interface HandoffContext extends HandoffInput {
  rejections: number;
  history: HandoffStep[];
}

interface Stamp {
  at: string;
  message_id: string;
}

export type HandoffEvent =
  | ({ type: 'handoff.notify' } & Stamp)
  | ({ type: 'handoff.acked' } & Stamp)
  | ({ type: 'handoff.accepted' } & Stamp)
  | ({ type: 'handoff.rejected'; issues: ErrorIssue[] } & Stamp)
  | ({ type: 'handoff.undeliverable' } & Stamp);

export const handoffMachine = setup({
  types: {
    input: {} as HandoffInput,
    context: {} as HandoffContext,
    events: {} as HandoffEvent,
  },
  actions: {
    recordStep: assign({
      history: ({ context, event }, params: { state: HandoffState }) => [
        ...context.history,
        {
          state: params.state,
          at: event.at,
          message_id: event.message_id,
          ...(event.type === 'handoff.rejected' ? { issues: event.issues } : {}),
        },
      ],
    }),
    countRejection: assign({ rejections: ({ context }) => context.rejections + 1 }),
  },
  guards: {
    isFirstRejection: ({ context }) => context.rejections === 0,
    isSecondRejection: ({ context }) => context.rejections >= 1,
  },
}).createMachine({
  id: 'handoff',
  context: ({ input }) => ({ ...input, rejections: 0, history: [] }),
  initial: 'complete',
  states: {
    complete: {
      description: 'The sender marked the deliverable complete with its quality self-assessment.',
      on: {
        'handoff.notify': { target: 'notified', actions: { type: 'recordStep', params: { state: 'notified' } } },
      },
    },
    notified: {
      description:
        'handoff_notification sent (a request): the runtime redelivers it until the receiver acks; ' +
        'no ack after every retry is not a rejection.',
      on: {
        'handoff.acked': { target: 'validating', actions: { type: 'recordStep', params: { state: 'validating' } } },
        'handoff.undeliverable': {
          target: 'undeliverable',
          actions: { type: 'recordStep', params: { state: 'undeliverable' } },
        },
      },
    },
    validating: {
      description: 'The receiver took it from its mailbox and validates it against the registered schema.',
      on: {
        'handoff.accepted': { target: 'accepted', actions: { type: 'recordStep', params: { state: 'accepted' } } },
        'handoff.rejected': [
          {
            guard: 'isFirstRejection',
            target: 'rejected',
            actions: ['countRejection', { type: 'recordStep', params: { state: 'rejected' } }],
          },
          {
            guard: 'isSecondRejection',
            target: 'escalated',
            actions: ['countRejection', { type: 'recordStep', params: { state: 'escalated' } }],
          },
        ],
      },
    },
    rejected: {
      description: 'Rejected once with specific issues: the sender fixes them and re-initiates.',
      on: {
        'handoff.notify': { target: 'notified', actions: { type: 'recordStep', params: { state: 'notified' } } },
      },
    },
    accepted: { type: 'final', description: 'Valid: the receiver begins work.' },
    escalated: { type: 'final', description: 'Rejected twice: escalated to chief-orchestration, no third try.' },
    undeliverable: { type: 'final', description: 'Never acked: the runtime escalated it to chief-orchestration.' },
  },
});
