import { assertEvent, assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate';
import type { AgentBrainInput, AgentCancelEvent, AgentRequestEvent } from '../../protocol/runtime/agent-report.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { agentContext, type AgentContext, type AgentInput, type PendingRequest } from './agent-context.ts';
import { mailboxVerdict, rememberDone } from './agent-mailbox.ts';
import { ackOf, errorFailure, reportOf, timeoutFailure, unstartedReport, validationFailure } from './agent-reports.ts';
import { insertByPriority } from './mailbox-priority.ts';
export type { AgentInput } from './agent-context.ts';

/**
 * A long-lived worker for any agent or tier: it accepts `agent.request`/`agent.cancel`, runs its
 * `brain` on one request at a time (FIFO) with a timeout and one retry (§6.1, §9), and sends its
 * parent exactly one `agent.report` per request. Its mailbox is bounded (`maxQueued`): beyond it a
 * request is answered at once with a `throttled` report. A request asking for an ack is acked
 * (`agent.ack`) when it starts, never before; each request id runs once (see `agent-mailbox.ts`).
 */

/** What an agent accepts: a request to run, or a cancel of one (of all without an id). */
export type AgentEvent = AgentRequestEvent | AgentCancelEvent;

/**
 * The default brain: systems must provide their own, so say how. Its output is `any` only so that
 * `provide` accepts brains with a typed output (actor logic types are invariant); reports carry it
 * as `unknown`.
 */
const missingBrain = fromPromise<any, AgentBrainInput>(async ({ input }) => {
  throw new Error(
    `No brain provided for agent ${input.agent}: ` + 'supply one with agentMachine.provide({ actors: { brain } }).',
  );
});

/** What a system provides as `brain`: promise logic over {@link AgentBrainInput}, any output. */
export type AgentBrainLogic = typeof missingBrain;

/**
 * The generic worker; give it a brain and spawn it by name.
 *
 * @example
 * const brain = fromPromise(async ({ input }: { input: AgentBrainInput }) => run(input));
 * const scientist = agentMachine.provide({ actors: { brain } });
 */
export const agentMachine = setup({
  types: {
    input: {} as AgentInput,
    context: {} as AgentContext,
    events: {} as AgentEvent,
    children: {} as { brain: 'brain' },
  },
  actors: {
    brain: missingBrain,
  },
  actions: {
    receiveRequest: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'agent.request');
      const { requestId } = event;
      switch (mailboxVerdict(context, event)) {
        case 'enqueue': {
          const request: PendingRequest = { requestId, input: event.input };
          if (event.ack) request.ack = true;
          enqueue.assign({ queue: insertByPriority(context.queue, request, context.priority) });
          return;
        }
        case 'throttle':
          enqueue.sendParent(
            unstartedReport(context.name, requestId, { status: 'throttled', retryAfterMs: context.retryAfterMs }),
          );
          return;
        case 'ackAgain':
          enqueue.sendParent(ackOf(context.name, requestId));
          return;
        case 'drop':
          return;
      }
    }),
    startNextRequest: assign(({ context }) => ({
      current: context.queue[0] ?? null,
      queue: context.queue.slice(1),
      attempts: 0,
    })),
    /** Taken from the mailbox and started: the moment acknowledged delivery acks. */
    ackIfAsked: enqueueActions(({ context, enqueue }) => {
      if (!context.current?.ack) return;
      enqueue.sendParent(ackOf(context.name, context.current.requestId));
    }),
    /** The current request reported completed or failed: a redelivery of it is not run again. */
    rememberCurrent: assign({
      done: ({ context }) =>
        context.current ? rememberDone(context.done, context.current.requestId, context.doneMemory) : context.done,
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    clearCurrentRequest: assign({ current: null, attempts: 0 }),
    reportCompleted: sendParent(({ context }, params: { output: unknown }) =>
      reportOf(context, { status: 'completed', output: params.output }),
    ),
    reportValidationFailure: sendParent(({ context }, params: { error: unknown }) =>
      reportOf(context, validationFailure(params.error)),
    ),
    reportError: sendParent(({ context }, params: { error: unknown }) => reportOf(context, errorFailure(params.error))),
    reportTimeout: sendParent(({ context }) => reportOf(context, timeoutFailure(context))),
    reportCurrentCancelled: sendParent(({ context }) => reportOf(context, { status: 'cancelled' })),
    /** Drops the queued requests the cancel names (all of them without an id), reporting each. */
    cancelQueued: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'agent.cancel');
      const named = (request: PendingRequest) => event.requestId === undefined || request.requestId === event.requestId;
      for (const request of context.queue.filter(named)) {
        enqueue.sendParent(unstartedReport(context.name, request.requestId, { status: 'cancelled' }));
      }
      enqueue.assign({ queue: context.queue.filter((request) => !named(request)) });
    }),
  },
  guards: {
    hasQueuedRequest: ({ context }) => context.queue.length > 0,
    hasAttemptsLeft: ({ context }) => context.attempts < context.maxAttempts,
    isValidationFailure: (_, params: { error: unknown }) => params.error instanceof ValidationError,
    isCancelForCurrent: ({ context, event }) => {
      assertEvent(event, 'agent.cancel');
      return event.requestId === undefined || event.requestId === context.current?.requestId;
    },
    isCancelForQueued: ({ context, event }) => {
      assertEvent(event, 'agent.cancel');
      return context.queue.some((request) => request.requestId === event.requestId);
    },
  },
  delays: {
    agentTimeout: ({ context }) => context.timeoutMs,
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => agentContext(input),
  initial: 'idle',
  on: {
    'agent.request': { actions: 'receiveRequest' },
  },
  states: {
    idle: {
      description: 'No request in hand; takes the oldest queued one as soon as there is one.',
      entry: 'clearCurrentRequest',
      always: { guard: 'hasQueuedRequest', target: 'working', actions: ['startNextRequest', 'ackIfAsked'] },
    },
    working: {
      description: 'One request in hand; newer requests queue behind it.',
      initial: 'running',
      on: {
        'agent.cancel': [
          {
            guard: 'isCancelForCurrent',
            target: 'idle',
            actions: ['reportCurrentCancelled', 'cancelQueued'],
          },
          { guard: 'isCancelForQueued', actions: 'cancelQueued' },
        ],
      },
      states: {
        running: {
          description:
            'One brain attempt under the agent timeout. Re-entering it for a retry stops ' +
            '(aborts) the old attempt and restarts the timer with identical input.',
          entry: 'countAttempt',
          invoke: {
            id: 'brain',
            src: 'brain',
            input: ({ context }) => ({
              agent: context.name,
              requestId: context.current?.requestId ?? '',
              input: context.current?.input,
              attempt: context.attempts,
            }),
            onDone: {
              target: '#agent.idle',
              actions: [
                { type: 'reportCompleted', params: ({ event }) => ({ output: event.output }) },
                'rememberCurrent',
              ],
            },
            onError: [
              {
                guard: {
                  type: 'isValidationFailure',
                  params: ({ event }) => ({ error: event.error }),
                },
                target: '#agent.idle',
                actions: [
                  { type: 'reportValidationFailure', params: ({ event }) => ({ error: event.error }) },
                  'rememberCurrent',
                ],
              },
              { guard: 'hasAttemptsLeft', target: 'running', reenter: true },
              {
                target: '#agent.idle',
                actions: [{ type: 'reportError', params: ({ event }) => ({ error: event.error }) }, 'rememberCurrent'],
              },
            ],
          },
          after: {
            agentTimeout: [
              { guard: 'hasAttemptsLeft', target: 'running', reenter: true },
              { target: '#agent.idle', actions: ['reportTimeout', 'rememberCurrent'] },
            ],
          },
        },
      },
    },
  },
});
