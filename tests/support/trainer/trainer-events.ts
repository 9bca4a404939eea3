import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import type { LlmResponseData } from '../../../protocol/trainer/event-data.ts';
import type { ContextEvent, SessionEvent } from '../../../protocol/trainer/session-event.ts';

/** Event data and rows for trainer tests. */
export function llmResponseData(
  prompt: number,
  completion: number,
  cached: number,
  costCents: number,
): LlmResponseData {
  return {
    raw_response: { id: 'msg_test' },
    tokens: { prompt, completion, cached, cache_write: 0, total: prompt + completion + cached },
    cost_cents: costCents,
  };
}

export function artifactData(artifactId: string, title = 'Chest Day'): Artifact {
  return {
    artifact_id: artifactId,
    type: 'exercise_list',
    schema_version: '1.0',
    title,
    summary: { exercise_count: 1 },
    auto_start: false,
    payload: { exercises: [{ exercise_name: 'Push-up' }] },
  };
}

type Row = Pick<SessionEvent, 'event_type' | 'data'>;

/** Numbers rows into events of one session, as the store would return them. */
export function asEvents<E extends Row>(rows: readonly E[], sessionId = 'session-1'): (E & SessionEvent)[] {
  return rows.map(
    (row, index) =>
      ({
        ...row,
        id: `event-${index + 1}`,
        session_id: sessionId,
        sequence_number: index + 1,
        timestamp: new Date(Date.UTC(2025, 2, 1, 10, 0, index)).toISOString(),
        duration_ms: null,
      }) as E & SessionEvent,
  );
}

export const userMessage = (message: string) => ({ event_type: 'user_message', data: { message } }) as const;
export const toolCall = (callId: string, toolName = 'generate_workout', args: Record<string, unknown> = {}) =>
  ({ event_type: 'tool_call', data: { tool_name: toolName, arguments: args, call_id: callId } }) as const;
export const toolResult = (callId: string, result: unknown = { success: true }, toolName = 'generate_workout') =>
  ({ event_type: 'tool_result', data: { tool_name: toolName, result, success: true, call_id: callId } }) as const;
export const knowledge = (source: string, data: string) =>
  ({ event_type: 'knowledge', data: { source, data } }) as const;
export const artifact = (artifactId: string) => ({ event_type: 'artifact', data: artifactData(artifactId) }) as const;

/** Context events from rows, numbered. */
export function contextEvents(...rows: Row[]): ContextEvent[] {
  return asEvents(rows) as ContextEvent[];
}
