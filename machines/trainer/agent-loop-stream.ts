import type { ToolOutcome } from '../../actors/trainer/loop/loop-run-tool.ts';
import type { LoopToolCall } from '../../actors/trainer/loop/loop-deps.ts';
import type { StatusMessage } from '../../actors/trainer/tools/tool-result.ts';
import { RESERVED_SSE_TYPES, type SseEvent } from '../../protocol/trainer/sse-event.ts';
import type { ContextLoaded } from '../../protocol/trainer/trainer-envelope.ts';

/** What the agent loop emits for each stream event, in the order the client must see them. */
export interface AgentLoopStreamEvent {
  type: 'agentLoop.event';
  event: SseEvent;
}

/**
 * The `type` of a tool's stream events: its name (§8.3), except that a name the model made up
 * which collides with `status`, `knowledge`, `done` or `error` is prefixed, so a client never
 * takes a tool event for one of those.
 */
function sseTypeOf(tool: string): string {
  return (RESERVED_SSE_TYPES as readonly string[]).includes(tool) ? `tool:${tool}` : tool;
}

/** `knowledge` events for the sources the initializer loaded (§8.3). */
export function knowledgeEvents(loaded: ContextLoaded): SseEvent[] {
  return loaded.sources.map(({ source, displayName }) => ({
    type: 'knowledge',
    data: { source, displayName, status: 'done' },
  }));
}

/** A tool starts: its `status` start phase (when it has status messages, §6.7), then `tool_start`. */
export function toolStartEvents(call: LoopToolCall, statusMessage: StatusMessage | undefined): SseEvent[] {
  const events: SseEvent[] = [];
  if (statusMessage)
    events.push({ type: 'status', data: { message: statusMessage.start, tool: call.name, phase: 'start' } });
  events.push({ type: sseTypeOf(call.name), data: { status: 'running', args: call.arguments } });
  return events;
}

/**
 * A tool finished: `tool_result` (with the delivered artifact, §8.3), then its `status` done
 * phase, or the error phase with the failure when it failed.
 */
export function toolResultEvents(outcome: ToolOutcome): SseEvent[] {
  const events: SseEvent[] = [
    {
      type: sseTypeOf(outcome.tool),
      data: outcome.result,
      formatted: outcome.formatted,
      status: outcome.status,
      ...(outcome.deliveredArtifact
        ? { artifact: outcome.deliveredArtifact, artifact_id: outcome.deliveredArtifact.artifact_id }
        : {}),
    },
  ];
  const { statusMessage } = outcome;
  if (!statusMessage) return events;
  if (outcome.status === 'done') {
    events.push({ type: 'status', data: { message: statusMessage.done, tool: outcome.tool, phase: 'done' } });
  } else {
    const error = typeof outcome.result['error'] === 'string' ? outcome.result['error'] : `${outcome.tool} failed`;
    events.push({ type: 'status', data: { message: error, tool: outcome.tool, phase: 'error' } });
  }
  return events;
}
