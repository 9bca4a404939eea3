import { derivedUuid } from '../runtime/derived-id.ts';
import type { OrgAgent, OrgEnvelope } from '../../protocol/org/envelope.ts';

type Priority = OrgEnvelope['priority'];
type TaskPayload = Extract<OrgEnvelope, { message_type: 'request' }>['payload'];
type EscalationPayload = Extract<OrgEnvelope, { message_type: 'escalation' }>['payload'];

/** Where a message belongs: its project (`prd_id`), sprint, what it follows and the nodes it cites. */
export interface OrgContextSpec {
  prdId: string;
  sprintId: string;
  related?: readonly string[];
  knowledgeRefs?: readonly string[];
}

/** What makes one v2.0 work message; `seed` derives its id, so work redone gives the same id. */
export interface OrgMessageSpec extends OrgContextSpec {
  from: OrgAgent;
  to: OrgAgent | OrgAgent[];
  type: 'request' | 'response' | 'notification';
  priority: Priority;
  payload: TaskPayload;
  seed: readonly (string | number)[];
  at: number;
  /** A notification that must be acked (requests always are). */
  ack?: { timeout_ms: number; retry_count: number };
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function contextOf(spec: OrgContextSpec): NonNullable<OrgEnvelope['context']> {
  return {
    sprint_id: spec.sprintId,
    prd_id: spec.prdId,
    related_messages: [...(spec.related ?? [])],
    knowledge_graph_refs: [...(spec.knowledgeRefs ?? [])],
  };
}

/**
 * Builds a spec 004 v2.0 message (request, response or notification), verbatim as the spec
 * writes it; a request carries the spec's default acknowledgment (30 s, 3 retries).
 *
 * @example
 * orgMessage({ from: 'backend', to: 'frontend', type: 'request', priority: 'high', payload: { task_id, content },
 *   prdId, sprintId, seed: [requestId, 'contract'], at: clock.now() });
 */
export function orgMessage(spec: OrgMessageSpec): OrgEnvelope {
  const acknowledgment =
    spec.type === 'request'
      ? { required: true, timeout_ms: spec.ack?.timeout_ms ?? 30_000, retry_count: spec.ack?.retry_count ?? 3 }
      : spec.ack
        ? { required: true, ...spec.ack }
        : undefined;
  return {
    message_id: derivedUuid(spec.prdId, ...spec.seed),
    timestamp: isoSeconds(spec.at),
    source_agent: spec.from,
    destination_agent: spec.to,
    message_type: spec.type,
    priority: spec.priority,
    payload: spec.payload,
    context: contextOf(spec),
    ...(acknowledgment ? { acknowledgment } : {}),
  } as OrgEnvelope;
}

/** Builds an `escalation` to chief-orchestration in the spec's Conflict Escalation Format. */
export function orgEscalation(
  spec: OrgContextSpec & {
    from: OrgAgent;
    priority?: Priority;
    payload: EscalationPayload;
    seed: readonly (string | number)[];
    at: number;
  },
): OrgEnvelope {
  return {
    message_id: derivedUuid(spec.prdId, ...spec.seed),
    timestamp: isoSeconds(spec.at),
    source_agent: spec.from,
    destination_agent: 'chief-orchestration',
    message_type: 'escalation',
    priority: spec.priority ?? 'high',
    payload: spec.payload,
    context: contextOf(spec),
  };
}

/** An ISO-8601 time `ms` after `at`. */
export const isoAfter = (at: number, ms: number) => isoSeconds(at + ms);
