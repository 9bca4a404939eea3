/**
 * The trainer's agent loop for one turn (spec 001 §3.1) as a child of the trainer supervisor: it
 * accepts the user's `chat_request`, asks the INITIALIZER for context, then calls the model and
 * executes one tool per iteration until a §3.2 condition stops it, emitting the §8.3 stream
 * events (`agentLoop.event`) and sending the `turn_result` to the user.
 */
import type { FinishTurnInput } from '../../actors/trainer/loop/loop-finish-turn.ts';
import type { RecordTurnInput } from '../../actors/trainer/loop/loop-record-turn.ts';
import { loopOutputOf, initialLoopContext, statusOf, turnOf } from './agent-loop-context.ts';
import { agentLoopSetup } from './agent-loop-setup.ts';

export const agentLoopMachine = agentLoopSetup.createMachine({
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
