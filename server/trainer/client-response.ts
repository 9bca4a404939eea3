import type { LoopAction } from '../../protocol/trainer/trainer-envelope.ts';

/** A question the agent asked and waits on (spec 001 §10.2 `Question`). */
export interface ClientQuestion {
  question: string;
  options: string[];
}

/** What the app shows after a turn (spec 001 §10.2 `ClientResponse`). */
export interface ClientResponse {
  /** The agent's messages, in order (`message_notify_user`). */
  messages: string[];
  /** The exercises of the last workout delivered this turn, if any. */
  exercises: Record<string, unknown>[] | null;
  /** The question the turn ended on (`message_ask_user`), if any. */
  question: ClientQuestion | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the client response from a turn's actions: only successful calls count, since a failed
 * one never reached the user.
 */
export function clientResponseOf(actions: readonly LoopAction[]): ClientResponse {
  const response: ClientResponse = { messages: [], exercises: null, question: null };
  for (const { tool, result } of actions) {
    if (!result.success) continue;
    if (tool === 'message_notify_user') {
      if (typeof result['message'] === 'string') response.messages.push(result['message']);
      const artifact = result['artifact'];
      const exercises =
        isRecord(artifact) && isRecord(artifact['payload']) ? artifact['payload']['exercises'] : undefined;
      if (Array.isArray(exercises)) response.exercises = exercises.filter(isRecord);
    } else if (tool === 'message_ask_user' && typeof result['question'] === 'string') {
      const options = Array.isArray(result['options'])
        ? result['options'].filter((o): o is string => typeof o === 'string')
        : [];
      response.question = { question: result['question'], options };
    }
  }
  return response;
}
