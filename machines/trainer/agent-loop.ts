/**
 * The trainer's agent loop for one turn (spec 001 §3.1) as a child of the trainer supervisor: it
 * accepts the user's `chat_request`, asks the INITIALIZER for context, then calls the model and
 * executes one tool per iteration until a §3.2 condition stops it, emitting the §8.3 stream
 * events (`agentLoop.event`) and sending the `turn_result` to the user.
 */
import { assign, enqueueActions, sendParent, setup } from 'xstate';
import type { CallModelInput, CallModelOutput } from '../../actors/trainer/loop/loop-call-model.ts';
import type { FinishTurnInput } from '../../actors/trainer/loop/loop-finish-turn.ts';
import type { LogErrorInput, LoggedError } from '../../actors/trainer/loop/loop-log-error.ts';
import type { RecordTurnInput } from '../../actors/trainer/loop/loop-record-turn.ts';
import {
  statusMessageOf,
  type RunToolInput,
  type ToolOutcome,
  type ToolTimeoutInput,
} from '../../actors/trainer/loop/loop-run-tool.ts';
import type { AgentSession } from '../../protocol/trainer/session.ts';
import { ChatRequestSchema, ContextLoadedSchema, type StopReason } from '../../protocol/trainer/trainer-envelope.ts';
import {
  contextErrorOf,
  contextRequestEnvelope,
  contextRequestIdOf,
  deliveredAs,
  initialLoopContext,
  loggedErrorOf,
  loopOutputOf,
  missingActor,
  statusOf,
  turnOf,
  turnResultEnvelope,
  type AgentLoopContext,
  type AgentLoopEvent,
  type AgentLoopInput,
  type AgentLoopOutput,
} from './agent-loop-context.ts';
import { knowledgeEvents, toolResultEvents, toolStartEvents, type AgentLoopStreamEvent } from './agent-loop-stream.ts';
import type { AgentDeliveryEvent } from '../runtime/supervisor.ts';

export const agentLoopMachine = setup({
  types: {
    input: {} as AgentLoopInput,
    context: {} as AgentLoopContext,
    events: {} as AgentLoopEvent,
    emitted: {} as AgentLoopStreamEvent,
    output: {} as AgentLoopOutput,
  },
  actors: {
    recordTurn: missingActor<void, RecordTurnInput>('recordTurn'),
    callModel: missingActor<CallModelOutput, CallModelInput>('callModel'),
    runTool: missingActor<ToolOutcome, RunToolInput>('runTool'),
    recordToolTimeout: missingActor<ToolOutcome, ToolTimeoutInput>('recordToolTimeout'),
    logError: missingActor<void, LogErrorInput>('logError'),
    finishTurn: missingActor<AgentSession, FinishTurnInput>('finishTurn'),
  },
  delays: {
    contextTimeout: ({ context }) => context.contextTimeoutMs,
    modelTimeout: ({ context }) => context.modelTimeoutMs,
    toolTimeout: ({ context }) => context.toolTimeoutMs,
  },
  guards: {
    isChatRequest: ({ event }) =>
      deliveredAs(event, 'chat_request') &&
      ChatRequestSchema.safeParse((event as AgentDeliveryEvent).input.envelope.payload).success,
    isContextLoaded: ({ context, event }) =>
      deliveredAs(event, 'context_loaded') &&
      (event as AgentDeliveryEvent).input.delivery.correlationId === contextRequestIdOf(turnOf(context)),
    isInitializerFailure: ({ event }) =>
      event.type === 'supervisor.report' &&
      event.report.agent === 'INITIALIZER' &&
      event.report.outcome.status !== 'completed',
    isContextRequestRefusal: ({ context, event }) =>
      event.type === 'supervisor.rejected' &&
      (event.requestId ?? (event.envelope as { message_id?: unknown } | null)?.message_id) ===
        contextRequestIdOf(turnOf(context)),
    hasToolCall: (_, params: { output: CallModelOutput }) => params.output.toolCall !== undefined,
    stoppedByTool: ({ context }) => context.lastTool?.terminal === true,
    reachedIterationLimit: ({ context }) => context.iteration >= context.maxIterations,
    endsInError: ({ context }) => statusOf(context.stopReason) === 'error',
  },
  actions: {
    acceptTurn: assign({
      turn: ({ event }) => {
        const { requestId, input } = event as AgentDeliveryEvent;
        const payload = ChatRequestSchema.parse(input.envelope['payload']);
        return { ...payload, requestId, sessionId: String(input.envelope['session_id']) };
      },
    }),
    requestContext: sendParent(({ context }) => ({
      type: 'supervisor.request',
      envelope: contextRequestEnvelope(context),
      timeoutMs: context.contextTimeoutMs,
    })),
    cancelContextRequest: sendParent({ type: 'supervisor.cancel', agent: 'INITIALIZER' }),
    /** Why no context came: the initializer's failure, the supervisor's refusal, or the timeout. */
    noteContextError: assign({ contextError: ({ context, event }) => contextErrorOf(context, event) }),
    emitKnowledge: enqueueActions(({ event, enqueue }) => {
      const loaded = ContextLoadedSchema.safeParse((event as AgentDeliveryEvent).input.envelope.payload);
      if (!loaded.success) return;
      for (const sse of knowledgeEvents(loaded.data)) enqueue.emit({ type: 'agentLoop.event', event: sse });
    }),
    countIteration: assign({ iteration: ({ context }) => context.iteration + 1 }),
    recordCall: assign((_, params: { output: CallModelOutput }) => ({ call: params.output.toolCall ?? null })),
    emitToolStart: enqueueActions(({ context, enqueue }) => {
      if (!context.call) return;
      for (const sse of toolStartEvents(context.call, statusMessageOf(context.call.name))) {
        enqueue.emit({ type: 'agentLoop.event', event: sse });
      }
    }),
    recordOutcome: enqueueActions(({ context, enqueue }, params: { outcome: ToolOutcome }) => {
      const { outcome } = params;
      enqueue.assign({
        lastTool: outcome,
        call: null,
        actions: [...context.actions, { tool: outcome.tool, args: outcome.args, result: outcome.result }],
      });
      for (const sse of toolResultEvents(outcome)) enqueue.emit({ type: 'agentLoop.event', event: sse });
    }),
    stopWith: assign((_, params: { reason: StopReason; error?: LoggedError }) => ({
      stopReason: params.reason,
      error: params.error ?? null,
    })),
    /** Ends the turn on the error an invoked actor failed with. */
    stopOnError: assign(({ event }, params: { reason: StopReason; where: string }) => ({
      stopReason: params.reason,
      error: loggedErrorOf((event as unknown as { error: unknown }).error, params.where),
    })),
    stopForTool: assign({
      stopReason: ({ context }): StopReason =>
        context.lastTool?.tool === 'message_ask_user' ? 'awaiting_user' : 'idle',
      error: null,
    }),
    assignSession: assign({ session: (_, params: { session: AgentSession }) => params.session }),
    emitDone: enqueueActions(({ context, enqueue }) => {
      enqueue.emit({ type: 'agentLoop.event', event: { type: 'done', sessionId: turnOf(context).sessionId } });
    }),
    emitFailure: enqueueActions(({ context, enqueue }) => {
      const message = context.error?.message ?? 'The agent loop failed.';
      enqueue.emit({ type: 'agentLoop.event', event: { type: 'error', message } });
    }),
    reportResult: sendParent(({ context }) => ({ type: 'supervisor.send', envelope: turnResultEnvelope(context) })),
  },
}).createMachine({
  id: 'agentLoop',
  context: ({ input }) => initialLoopContext(input),
  initial: 'awaitingMessage',
  output: ({ context }) => loopOutputOf(context),
  states: {
    awaitingMessage: {
      description: 'Waits for the chat request the supervisor delivers from the user.',
      on: { 'agent.request': { guard: 'isChatRequest', target: 'recording', actions: 'acceptTurn' } },
    },
    recording: {
      description: "Logs the user's message and the client's current workout; an ended session becomes active again.",
      invoke: {
        id: 'recordTurn',
        src: 'recordTurn',
        input: ({ context }) => {
          const turn = turnOf(context);
          const input: RecordTurnInput = { sessionId: turn.sessionId, userId: turn.user_id, message: turn.message };
          if (turn.current_workout !== undefined) input.currentWorkout = turn.current_workout;
          return input;
        },
        onDone: { target: 'initializing' },
        onError: {
          target: 'finishing',
          actions: { type: 'stopOnError', params: { reason: 'internal_error', where: 'record_turn' } },
        },
      },
    },
    initializing: {
      description:
        'The INITIALIZER chooses and loads data sources (§5); its failure or silence never stops the turn (§12.3).',
      entry: 'requestContext',
      after: {
        contextTimeout: { target: 'contextUnavailable', actions: ['noteContextError', 'cancelContextRequest'] },
      },
      on: {
        'agent.request': { guard: 'isContextLoaded', target: 'calling', actions: 'emitKnowledge' },
        'supervisor.report': {
          guard: 'isInitializerFailure',
          target: 'contextUnavailable',
          actions: 'noteContextError',
        },
        'supervisor.rejected': {
          guard: 'isContextRequestRefusal',
          target: 'contextUnavailable',
          actions: 'noteContextError',
        },
      },
    },
    contextUnavailable: {
      description: 'Logs why no new context came (context_init), then goes on with what the session has.',
      invoke: {
        id: 'logError',
        src: 'logError',
        input: ({ context }) => ({
          sessionId: turnOf(context).sessionId,
          message: context.contextError ?? 'No context.',
          context: 'context_init',
        }),
        onDone: { target: 'calling' },
        onError: { target: 'calling' },
      },
    },
    calling: {
      description: 'One model call per iteration, on the context built afresh from the event stream.',
      entry: 'countIteration',
      invoke: {
        id: 'callModel',
        src: 'callModel',
        input: ({ context }) => ({
          sessionId: turnOf(context).sessionId,
          userId: turnOf(context).user_id,
          model: turnOf(context).model,
          iteration: context.iteration,
        }),
        onDone: [
          {
            guard: { type: 'hasToolCall', params: ({ event }) => ({ output: event.output }) },
            target: 'executing',
            actions: { type: 'recordCall', params: ({ event }) => ({ output: event.output }) },
          },
          {
            target: 'finishing',
            actions: {
              type: 'stopWith',
              params: {
                reason: 'no_tool_call',
                error: { message: 'No tool call in response', context: 'llm_response' },
              },
            },
          },
        ],
        onError: {
          target: 'finishing',
          actions: { type: 'stopOnError', params: { reason: 'model_error', where: 'llm_call' } },
        },
      },
      after: {
        modelTimeout: {
          target: 'finishing',
          actions: {
            type: 'stopWith',
            params: ({ context }) => ({
              reason: 'model_error' as const,
              error: {
                message: `The model did not answer within ${context.modelTimeoutMs} ms.`,
                context: 'llm_call',
                code: 'model_timeout',
              },
            }),
          },
        },
      },
    },
    executing: {
      description:
        "Executes the iteration's one tool; a failed tool is a result the model sees, never the end of the turn.",
      entry: 'emitToolStart',
      invoke: {
        id: 'runTool',
        src: 'runTool',
        input: ({ context }) => ({
          sessionId: turnOf(context).sessionId,
          userId: turnOf(context).user_id,
          call: context.call!,
        }),
        onDone: {
          target: 'deciding',
          actions: { type: 'recordOutcome', params: ({ event }) => ({ outcome: event.output }) },
        },
        onError: {
          target: 'finishing',
          actions: {
            type: 'stopOnError',
            params: ({ context }) => ({ reason: 'internal_error' as const, where: `tool:${context.call?.name}` }),
          },
        },
      },
      after: { toolTimeout: { target: 'abandoningTool' } },
    },
    abandoningTool: {
      description: 'The tool outlived the tool timeout: its call gets a failed result and the loop goes on.',
      invoke: {
        id: 'recordToolTimeout',
        src: 'recordToolTimeout',
        input: ({ context }) => ({
          sessionId: turnOf(context).sessionId,
          call: context.call!,
          timeoutMs: context.toolTimeoutMs,
        }),
        onDone: {
          target: 'deciding',
          actions: { type: 'recordOutcome', params: ({ event }) => ({ outcome: event.output }) },
        },
        onError: {
          target: 'finishing',
          actions: { type: 'stopOnError', params: { reason: 'internal_error', where: 'tool_timeout' } },
        },
      },
    },
    deciding: {
      description: 'Stops after idle or message_ask_user, or at the iteration limit; otherwise calls the model again.',
      always: [
        { guard: 'stoppedByTool', target: 'finishing', actions: 'stopForTool' },
        {
          guard: 'reachedIterationLimit',
          target: 'finishing',
          actions: {
            type: 'stopWith',
            params: ({ context }) => ({
              reason: 'max_iterations' as const,
              error: { message: `Reached the limit of ${context.maxIterations} iterations`, context: 'max_iterations' },
            }),
          },
        },
        { target: 'calling' },
      ],
    },
    finishing: {
      description: 'Logs the error that ended the turn, if any, and ends the session with its totals.',
      invoke: {
        id: 'finishTurn',
        src: 'finishTurn',
        input: ({ context }) => {
          const turn = turnOf(context);
          const input: FinishTurnInput = {
            sessionId: turn.sessionId,
            userId: turn.user_id,
            status: statusOf(context.stopReason),
          };
          if (context.error) input.error = context.error;
          return input;
        },
        onDone: [
          {
            guard: 'endsInError',
            target: 'failed',
            actions: { type: 'assignSession', params: ({ event }) => ({ session: event.output }) },
          },
          {
            target: 'completed',
            actions: { type: 'assignSession', params: ({ event }) => ({ session: event.output }) },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'stopOnError', params: { reason: 'internal_error', where: 'end_session' } },
        },
      },
    },
    completed: {
      description: 'The turn ended normally; the session is completed.',
      type: 'final',
      entry: ['emitDone', 'reportResult'],
    },
    failed: {
      description: 'The turn ended on a fatal error; the session is in error.',
      type: 'final',
      entry: ['emitFailure', 'reportResult'],
    },
  },
});
