import { isoAfter, orgEscalation } from '../../actors/org/org-envelope.ts';
import { OrgAgentSchema, type OrgEnvelope } from '../../protocol/org/envelope.ts';

/**
 * The org system's dead letter (spec 004): when `receiver` never acked `original` after every
 * delivery, the runtime sends chief-orchestration a `resource` escalation on the original
 * sender's behalf, in the spec's Conflict Escalation Format, under the id the runtime derived.
 */
export function orgDeadLetter(original: unknown, receiver: string, attempts: number, id: string): OrgEnvelope {
  const message = original as OrgEnvelope;
  const at = Date.parse(message.timestamp);
  const silent = OrgAgentSchema.parse(receiver);
  const escalation = orgEscalation({
    from: message.source_agent,
    priority: 'critical',
    payload: {
      conflict_type: 'resource',
      agents_involved: [...new Set([message.source_agent, silent])],
      positions: {
        [message.source_agent]: `sent ${message.message_type} ${message.message_id} and needs it handled`,
        [silent]: `never acknowledged it after ${attempts} deliveries`,
      },
      impact_if_unresolved: `${silent} does not do the work ${message.message_id} asks for; what depends on it waits.`,
      recommended_resolution: `Restart or replace ${silent}, then send ${message.message_id} again.`,
      deadline_for_resolution: isoAfter(at, 24 * 3_600_000),
    },
    prdId: message.context?.prd_id ?? '',
    sprintId: message.context?.sprint_id ?? '',
    related: [message.message_id],
    seed: [],
    at,
  });
  return { ...escalation, message_id: id };
}
