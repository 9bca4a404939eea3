import type { EscalationRecord } from '../../../protocol/org/escalation-record.ts';
import type { OrgAgent, OrgEnvelope } from '../../../protocol/org/envelope.ts';
import type { KnowledgeDraft } from '../knowledge-graph.ts';
import type { OrgRole } from '../org-role.ts';
import type { Turn } from '../turn.ts';

type Escalation = Extract<OrgEnvelope, { message_type: 'escalation' }>;

/** Who resolves each conflict type: product decides feasibility and priority by the PRD; the user the rest. */
const RESOLVERS: Record<Escalation['payload']['conflict_type'], OrgAgent | 'user'> = {
  feasibility: 'product',
  priority: 'product',
  quality: 'user',
  timeline: 'user',
  resource: 'user',
};

async function routeEscalation(turn: Turn, escalation: Escalation, pending?: KnowledgeDraft): Promise<void> {
  const { ws } = turn;
  if (await ws.escalation(escalation.message_id)) return;
  const resolver = RESOLVERS[escalation.payload.conflict_type];
  const record: EscalationRecord = {
    escalation_id: escalation.message_id,
    project_id: ws.projectId,
    from: escalation.source_agent,
    payload: escalation.payload,
    status: resolver === 'user' ? 'awaiting_user' : 'routed',
    resolver,
    reason: `${escalation.payload.conflict_type} conflicts go to ${resolver}`,
    ...(pending ? { pending_decision: pending } : {}),
    created_at: new Date(turn.now).toISOString(),
  };
  await ws.putEscalation('chief-orchestration', record);
  if (resolver === 'user') return;
  turn.send({
    label: `route:${escalation.message_id}`,
    to: resolver,
    type: 'notification',
    priority: escalation.priority,
    payload: {
      task_id: escalation.message_id,
      content: { kind: 'escalation_routed', escalation_id: escalation.message_id, escalation: escalation.payload },
    },
    related: [escalation.message_id],
  });
}

/** Checks a proposed decision against active decisions sharing its tags: recorded, or a `quality` escalation. */
async function checkDecision(turn: Turn, node: KnowledgeDraft): Promise<void> {
  const { ws } = turn;
  const clashes = (await ws.knowledge.activeDecisionsTagged(node.tags)).filter(
    (active) =>
      active.node_id !== node.node_id &&
      active.claim !== undefined &&
      node.claim !== undefined &&
      active.claim.topic === node.claim.topic &&
      active.claim.value !== node.claim.value,
  );
  if (clashes.length === 0) {
    await ws.knowledge.record('chief-orchestration', node);
    return;
  }
  const [active] = clashes;
  const escalation = turn.escalate(`clash:${node.node_id}`, {
    conflict_type: 'quality',
    agents_involved: [...new Set<OrgAgent>([node.author_agent, active!.author_agent])],
    positions: {
      [node.author_agent]: `${node.title}: ${node.content}`,
      [`${active!.author_agent} (${active!.node_id})`]: `${active!.title}: ${active!.content}`,
    },
    impact_if_unresolved: `Work on ${node.claim!.topic} follows the active decision ${active!.node_id}, against the PRD.`,
    recommended_resolution: `Supersede ${active!.node_id} with ${node.node_id} (${node.claim!.value}), or drop the PRD's constraint.`,
  }) as Escalation;
  await routeEscalation(turn, escalation, node);
}

/**
 * `chief-orchestration`: routes every escalation to its resolver (an agent, or the user) and never
 * applies a recommendation by itself; checks each proposed decision against the active decisions
 * sharing its tags, recording it or escalating the clash as `quality`.
 */
export const chiefRole: OrgRole = {
  async onEscalation(turn) {
    await routeEscalation(turn, turn.message as Escalation);
  },
  async onNotification(turn, content) {
    if (content['kind'] === 'decision') await checkDecision(turn, content['node'] as KnowledgeDraft);
    if (content['kind'] === 'escalation_resolved') {
      const record = await turn.ws.escalation(String(content['escalation_id']));
      if (!record || record.status === 'resolved') return;
      await turn.ws.putEscalation('chief-orchestration', {
        ...record,
        status: 'resolved',
        resolution: {
          by: turn.message.source_agent,
          decision: String(content['decision']),
          applied_recommendation: false,
          at: new Date(turn.now).toISOString(),
        },
      });
    }
  },
};
