/**
 * What the trainer's agent loop (agent-loop.ts) is built from: its types, the actors it invokes
 * (provided from actors/trainer/loop/*), its delays, guards and actions. The statechart itself is
 * in agent-loop.ts.
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
  loggedErrorOf,
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

export const agentLoopSetup = setup({
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
});
