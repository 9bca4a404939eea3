import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import type { CoscientistAgent } from '../../protocol/coscientist/envelope.ts';
import type { CoscientistMessage, PayloadOf } from '../../protocol/coscientist/message.ts';
import type { CoscientistMessageType } from '../../protocol/coscientist/payloads.ts';

/** What a message says beyond its type and data. */
export interface MessageParts<T extends CoscientistMessageType> {
  researchId: string;
  type: T;
  from: CoscientistAgent;
  to: CoscientistAgent | 'broadcast';
  data: PayloadOf<T>;
  /** The task it is about (a reply names its request here). */
  taskId?: string;
  /** 1 (most urgent) .. 10. */
  priority: number;
  at: number;
  expiresAt?: number;
  /** What makes its id unique within the goal (the same parts after a restart give the same id). */
  key: string;
}

/**
 * Builds a spec 003 Message with an id derived from its goal, type and key, so that a message
 * sent again after a restart is recognized by the supervisor as the one it journaled.
 *
 * @example
 * researchMessage({ researchId, type: 'task_assignment', from: 'SUPERVISOR', to: 'GENERATION', data, taskId, priority: 3, at: now, key: taskId });
 */
export function researchMessage<T extends CoscientistMessageType>(parts: MessageParts<T>): CoscientistMessage {
  return {
    header: {
      message_id: derivedUuid('coscientist', parts.researchId, parts.type, parts.key),
      source_agent: parts.from,
      target_agent: parts.to,
      timestamp: new Date(parts.at).toISOString(),
      message_type: parts.type,
    },
    payload: {
      data: parts.data,
      metadata: { research_id: parts.researchId, ...(parts.taskId ? { task_id: parts.taskId } : {}) },
    },
    routing: {
      priority: parts.priority,
      ...(parts.expiresAt !== undefined ? { expires_at: new Date(parts.expiresAt).toISOString() } : {}),
    },
  };
}
