import { fromPromise } from 'xstate';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import type { PendingEvent } from '../events/event-store.ts';
import { elapsedMs, type LoopDeps, type LoopToolCall } from './loop-deps.ts';
import { executeTool } from '../tools/execute-tool.ts';
import { toolFailure, type StatusMessage, type ToolFailure } from '../tools/tool-result.ts';
import { getTool, isToolName } from '../tools/tool-registry.ts';

/** One tool call of the loop. */
export interface RunToolInput {
  sessionId: string;
  userId: string;
  call: LoopToolCall;
}

/** What the loop keeps of a tool call: the action (§3.1) and what the stream shows (§8.3). */
export interface ToolOutcome {
  tool: string;
  args: Record<string, unknown>;
  result: { success: boolean } & Record<string, unknown>;
  formatted: string;
  status: 'done' | 'failed';
  /** A successful `idle` or `message_ask_user`: the loop stops (§3.2). */
  terminal: boolean;
  statusMessage?: StatusMessage;
  /** The artifact a `message_notify_user` delivered (§8.3 `tool_result.artifact`). */
  deliveredArtifact?: Artifact;
}

/** The §6.7 status messages of a tool; none for unknown tools and the two message tools. */
export function statusMessageOf(tool: string): StatusMessage | undefined {
  return isToolName(tool) ? getTool(tool).statusMessage : undefined;
}

/**
 * Executes one tool call (spec 001 §3.1, §6.2): records the `tool_call` (on disk first when the
 * tool writes the user's data), runs the tool (which never throws: an unknown tool or invalid
 * arguments become a failed result), records the `tool_result`, the `artifact` a workout created,
 * and an `error` event when the call failed (§12.1: logged, the loop goes on). Recorded events
 * go out with the session's next write; the turn's answer waits for them (finishTurn).
 */
export function createRunToolLogic(
  deps: Pick<LoopDeps, 'events' | 'workouts' | 'dataSources' | 'userData' | 'now' | 'log'>,
) {
  return fromPromise<ToolOutcome, RunToolInput>(async ({ input }) => {
    const { sessionId, userId, call } = input;
    await deps.events.recordEvents(sessionId, [
      { type: 'tool_call', data: { tool_name: call.name, arguments: call.arguments, call_id: call.id } },
    ]);
    deps.log?.(sessionId, { kind: 'tool_call', tool: call.name, args: call.arguments });
    // A tool that writes the user's data runs once its call is on disk: no effect without its cause.
    if (isToolName(call.name) && getTool(call.name).writesUserData) await deps.events.durable(sessionId);
    const started = performance.now();
    const output = await executeTool(call.name, call.arguments, {
      userId,
      sessionId,
      workouts: deps.workouts,
      artifacts: deps.events,
      dataSources: deps.dataSources,
      userData: deps.userData,
      ...(deps.now ? { now: deps.now } : {}),
    });
    const durationMs = elapsedMs(started);
    const result = output.result as ToolOutcome['result'];
    const pending: PendingEvent[] = [
      {
        type: 'tool_result',
        data: { tool_name: call.name, result, success: output.status === 'done', call_id: call.id },
        durationMs,
      },
    ];
    if (output.createdArtifact) pending.push({ type: 'artifact', data: output.createdArtifact });
    if (output.status === 'failed')
      pending.push({
        type: 'error',
        data: { message: (output.result as ToolFailure).error, context: `tool:${call.name}` },
      });
    await deps.events.recordEvents(sessionId, pending);
    deps.log?.(sessionId, { kind: 'tool_result', tool: call.name, success: output.status === 'done', durationMs });
    if (output.createdArtifact)
      deps.log?.(sessionId, {
        kind: 'artifact',
        type: output.createdArtifact.type,
        title: output.createdArtifact.title,
      });
    return {
      tool: call.name,
      args: call.arguments,
      result,
      formatted: output.formatted,
      status: output.status,
      terminal: output.terminal,
      ...(output.statusMessage ? { statusMessage: output.statusMessage } : {}),
      ...(output.deliveredArtifact ? { deliveredArtifact: output.deliveredArtifact } : {}),
    };
  });
}

/** A tool call the loop gave up waiting for. */
export interface ToolTimeoutInput {
  sessionId: string;
  call: LoopToolCall;
  timeoutMs: number;
}

/**
 * Records a tool call that did not finish within the tool timeout as a failed result, so the
 * call still has its `tool_result` (§4.3) and the model can try something else.
 */
export function createRecordToolTimeoutLogic(deps: Pick<LoopDeps, 'events'>) {
  return fromPromise<ToolOutcome, ToolTimeoutInput>(async ({ input }) => {
    const { sessionId, call, timeoutMs } = input;
    const failure = toolFailure(
      'execution_failed',
      `${call.name} did not finish within ${timeoutMs} ms; it was abandoned.`,
    );
    await deps.events.recordEvents(sessionId, [
      {
        type: 'tool_result',
        data: { tool_name: call.name, result: failure, success: false, call_id: call.id },
        durationMs: timeoutMs,
      },
      { type: 'error', data: { message: failure.error, context: `tool:${call.name}` } },
    ]);
    const statusMessage = statusMessageOf(call.name);
    return {
      tool: call.name,
      args: call.arguments,
      result: { ...failure },
      formatted: failure.error,
      status: 'failed',
      terminal: false,
      ...(statusMessage ? { statusMessage } : {}),
    };
  });
}
