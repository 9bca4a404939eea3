import { fromPromise } from 'xstate';
import type { LoopToolCall } from '../../actors/trainer/loop/loop-deps.ts';
import type { LoggedError } from '../../actors/trainer/loop/loop-log-error.ts';
import type { ToolOutcome } from '../../actors/trainer/loop/loop-run-tool.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { AgentSession } from '../../protocol/trainer/session.ts';
import type {
  ChatRequest,
  LoopAction,
  StopReason,
  TrainerEnvelopeOf,
  TurnResult,
} from '../../protocol/trainer/trainer-envelope.ts';
import type { AgentDeliveryEvent, SupervisorRejectedEvent } from '../runtime/supervisor.ts';

/** The safety limit of spec 001 §3.2. */
const MAX_ITERATIONS = 10;
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** How long the loop waits for the initializer before going on with the context it has (§12.3). */
export const DEFAULT_CONTEXT_TIMEOUT_MS = 15_000;

/** How the supervisor configures the loop (its `agentInput`). */
export interface AgentLoopInput {
  name: string;
  maxIterations?: number;
  modelTimeoutMs?: number;
  toolTimeoutMs?: number;
  contextTimeoutMs?: number;
}

/** The turn being run: the chat request, its envelope id and session. */
export interface LoopTurn extends ChatRequest {
  requestId: string;
  sessionId: string;
}

export interface AgentLoopContext {
  name: string;
  maxIterations: number;
  modelTimeoutMs: number;
  toolTimeoutMs: number;
  contextTimeoutMs: number;
  /** Set by the chat request; null while waiting for it. */
  turn: LoopTurn | null;
  /** Model calls started so far (spec 001 §3.1 `iteration`). */
  iteration: number;
  actions: LoopAction[];
  /** The tool call of the current iteration. */
  call: LoopToolCall | null;
  /** The outcome of the last tool call. */
  lastTool: ToolOutcome | null;
  stopReason: StopReason | null;
  /** The error that ended the turn, or that the turn logs on its way out (§3.2). */
  error: LoggedError | null;
  /** Why the initializer gave no context (logged, then the loop goes on, §12.3). */
  contextError: string | null;
  /** The session as the turn left it. */
  session: AgentSession | null;
}

/** What the loop's actor outputs when it is done. */
export interface AgentLoopOutput extends TurnResult {
  sessionId: string;
  session: AgentSession | null;
}

export function initialLoopContext(input: AgentLoopInput): AgentLoopContext {
  return {
    name: input.name,
    maxIterations: input.maxIterations ?? MAX_ITERATIONS,
    modelTimeoutMs: input.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    toolTimeoutMs: input.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    contextTimeoutMs: input.contextTimeoutMs ?? DEFAULT_CONTEXT_TIMEOUT_MS,
    turn: null,
    iteration: 0,
    actions: [],
    call: null,
    lastTool: null,
    stopReason: null,
    error: null,
    contextError: null,
    session: null,
  };
}

/** The turn; only read in states after the chat request was accepted. */
export function turnOf(context: AgentLoopContext): LoopTurn {
  if (context.turn === null)
    throw new Error(`Agent loop ${context.name} has no turn yet (a bug: read before the chat request).`);
  return context.turn;
}

/** The status a stop reason ends the session with: only a failed model call (or a broken store) is fatal. */
export function statusOf(reason: StopReason | null): 'completed' | 'error' {
  return reason === 'model_error' || reason === 'internal_error' ? 'error' : 'completed';
}

/** The message id of the turn's request to the initializer. */
export const contextRequestIdOf = (turn: LoopTurn) => `${turn.requestId}:context`;

/** TRAINER -> INITIALIZER: choose and load the data this message needs. */
export function contextRequestEnvelope(context: AgentLoopContext): TrainerEnvelopeOf<'context_request'> {
  const turn = turnOf(context);
  return {
    message_id: contextRequestIdOf(turn),
    from_agent: 'TRAINER',
    to_agent: 'INITIALIZER',
    data_type: 'context_request',
    session_id: turn.sessionId,
    payload: { user_id: turn.user_id, message: turn.message },
  };
}

/** The turn's result as the loop's output. */
export function loopOutputOf(context: AgentLoopContext): AgentLoopOutput {
  const result: AgentLoopOutput = {
    sessionId: context.turn?.sessionId ?? '',
    status: statusOf(context.stopReason),
    stop_reason: context.stopReason ?? 'internal_error',
    iterations: context.iteration,
    actions: context.actions,
    session: context.session,
  };
  if (context.error) result.error = context.error.message;
  if (context.error?.code) result.error_code = context.error.code;
  return result;
}

/** TRAINER -> USER: how the turn ended. */
export function turnResultEnvelope(context: AgentLoopContext): TrainerEnvelopeOf<'turn_result'> {
  const turn = turnOf(context);
  const { sessionId: _sessionId, session: _session, ...payload } = loopOutputOf(context);
  return {
    message_id: `${turn.requestId}:result`,
    from_agent: 'TRAINER',
    to_agent: 'USER',
    data_type: 'turn_result',
    session_id: turn.sessionId,
    payload,
  };
}

/** An error's message, whatever was thrown. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error as the loop logs it. */
export function loggedErrorOf(error: unknown, where: string): LoggedError {
  const logged: LoggedError = {
    message: messageOf(error),
    context: where,
    stack: error instanceof Error ? (error.stack ?? null) : null,
  };
  if (error instanceof RuntimeError) logged.code = error.code;
  return logged;
}

/** What the loop hears: deliveries from the supervisor, the INITIALIZER's reports, refusals. */
export type AgentLoopEvent =
  AgentDeliveryEvent | { type: 'supervisor.report'; report: AgentReport } | SupervisorRejectedEvent;

/** Why the initializer gave no context, read from the event that says so (or the timeout). */
export function contextErrorOf(context: AgentLoopContext, event: AgentLoopEvent | { type: string }): string {
  if (event.type === 'supervisor.rejected') return (event as SupervisorRejectedEvent).error.message;
  if (event.type === 'supervisor.report') {
    const { outcome } = (event as { report: AgentReport }).report;
    const failure = outcome.status === 'failed' ? outcome.failure : undefined;
    return failure?.kind === 'error'
      ? failure.message
      : `The initializer ended with ${failure?.kind ?? outcome.status}.`;
  }
  return `The initializer did not answer within ${context.contextTimeoutMs} ms.`;
}

/** The actors run in production come from actors/trainer/loop-*.ts; say so when one is missing. */
export function missingActor<Output, Input>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(
      `agentLoopMachine has no "${name}" actor: provide the actors/trainer/loop-* logic with agentLoopMachine.provide({ actors }).`,
    );
  });
}

/** Whether the event delivers an envelope of this data type. */
export const deliveredAs = (event: AgentLoopEvent, dataType: string) =>
  event.type === 'agent.request' && event.input.envelope.data_type === dataType;
