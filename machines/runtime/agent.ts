import { assertEvent, assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate';
import { inputHash } from '../../actors/runtime/input-hash.ts';
import type {
  AgentAckEvent,
  AgentBrainInput,
  AgentCancelEvent,
  AgentOutcome,
  AgentReport,
  AgentRequestEvent,
} from '../../protocol/runtime/agent-report.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { mailboxVerdict, rememberDone, type MailboxRequest } from './agent-mailbox.ts';
import { insertByPriority, type MailboxPriority } from './mailbox-priority.ts';

/**
 * A long-lived worker for any agent or tier: it accepts `agent.request`/`agent.cancel`, runs its
 * `brain` on one request at a time (FIFO) with a timeout and one retry (§6.1, §9), and sends its
 * parent exactly one `agent.report` per request. Its mailbox is bounded (`maxQueued`): beyond it a
 * request is answered at once with a `throttled` report. A request asking for an ack is acked
 * (`agent.ack`) when it starts, never before; each request id runs once (see `agent-mailbox.ts`).
 */

/** How a parent configures an agent; the defaults follow §9 (30 s) and §6.1 (one retry). */
export interface AgentInput {
  name: string;
  timeoutMs?: number;
  maxAttempts?: number;
  /** Requests that may wait behind the current one; default 64. Beyond, `throttled`. */
  maxQueued?: number;
  /** The `retryAfterMs` of a `throttled` report; default 1 s. */
  retryAfterMs?: number;
  /** How many ids of requests that ran are remembered, so a redelivery is not run again; default 256. */
  doneMemory?: number;
  /**
   * Where a request's input keeps its priority (`envelope.priority`) and its scale: queued
   * requests are taken most urgent first, in arrival order within one priority (spec 004).
   * Without it the mailbox is FIFO.
   */
  priority?: MailboxPriority;
}

type PendingRequest = MailboxRequest & { priority?: number };

interface AgentContext {
  name: string;
  timeoutMs: number;
  maxAttempts: number;
  maxQueued: number;
  retryAfterMs: number;
  doneMemory: number;
  priority: MailboxPriority | undefined;
  /** Requests not started yet, most urgent then oldest first; never more than `maxQueued`. */
  queue: PendingRequest[];
  /** The request the brain works on; set exactly while in `working`. */
  current: PendingRequest | null;
  /** Brain runs started for `current`. */
  attempts: number;
  /** Ids of requests that ran to a report, newest last, at most `doneMemory`. */
  done: string[];
}

export type AgentEvent = AgentRequestEvent | AgentCancelEvent;

const DEFAULT_AGENT_TIMEOUT_MS = 30_000;
const DEFAULT_AGENT_MAX_ATTEMPTS = 2;
const DEFAULT_MAX_QUEUED = 64;
const DEFAULT_RETRY_AFTER_MS = 1_000;
const DEFAULT_DONE_MEMORY = 256;

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

function reportOf(context: AgentContext, outcome: AgentOutcome): AgentReport {
  // Report actions only run inside `working`, where `current` is always set.
  if (context.current === null) {
    throw new Error(`Agent ${context.name} tried to report with no current request (a bug).`);
  }
  return {
    type: 'agent.report',
    agent: context.name,
    requestId: context.current.requestId,
    attempts: context.attempts,
    outcome,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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
          enqueue.sendParent({
            type: 'agent.report',
            agent: context.name,
            requestId,
            attempts: 0,
            outcome: { status: 'throttled', retryAfterMs: context.retryAfterMs },
          } satisfies AgentReport);
          return;
        case 'ackAgain':
          enqueue.sendParent({ type: 'agent.ack', agent: context.name, requestId } satisfies AgentAckEvent);
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
      enqueue.sendParent({
        type: 'agent.ack',
        agent: context.name,
        requestId: context.current.requestId,
      } satisfies AgentAckEvent);
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
      reportOf(context, {
        status: 'failed',
        failure: {
          kind: 'validation',
          issues: params.error instanceof ValidationError ? (params.error.issues ?? []) : [],
        },
      }),
    ),
    reportError: sendParent(({ context }, params: { error: unknown }) =>
      reportOf(context, {
        status: 'failed',
        failure: { kind: 'error', message: errorMessage(params.error) },
      }),
    ),
    reportTimeout: sendParent(({ context }) =>
      reportOf(context, {
        status: 'failed',
        failure: {
          kind: 'timeout',
          timeout_duration_ms: context.timeoutMs,
          input_hash: inputHash(context.current?.input),
        },
      }),
    ),
    reportCurrentCancelled: sendParent(({ context }) => reportOf(context, { status: 'cancelled' })),
    /** Drops the queued requests the cancel names (all of them without an id), reporting each. */
    cancelQueued: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'agent.cancel');
      const named = (request: PendingRequest) => event.requestId === undefined || request.requestId === event.requestId;
      for (const request of context.queue.filter(named)) {
        enqueue.sendParent({
          type: 'agent.report',
          agent: context.name,
          requestId: request.requestId,
          attempts: 0,
          outcome: { status: 'cancelled' },
        } satisfies AgentReport);
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
  context: ({ input }) => ({
    name: input.name,
    timeoutMs: input.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    maxAttempts: input.maxAttempts ?? DEFAULT_AGENT_MAX_ATTEMPTS,
    maxQueued: Math.max(0, input.maxQueued ?? DEFAULT_MAX_QUEUED),
    retryAfterMs: input.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS,
    doneMemory: Math.max(1, input.doneMemory ?? DEFAULT_DONE_MEMORY),
    priority: input.priority,
    queue: [],
    current: null,
    attempts: 0,
    done: [],
  }),
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
