import type { KnowledgeDraft } from './knowledge-graph.ts';
import type { Turn } from './turn.ts';

/**
 * An agent's decision on `topic` (spec 004: query the knowledge graph before deciding). An active
 * decision on the topic is followed unless the PRD demands otherwise; then, or when there is none,
 * the decision goes to the chief, who records it or escalates a clash (never overwrites). Returns
 * the value the agent works with now: the active one while a clash is open.
 */
export async function decide(
  turn: Turn,
  claim: { topic: string; value: string },
  about: { title: string; content: string; tags: string[] },
): Promise<string> {
  const { ws, agent } = turn;
  const active = (await ws.knowledge.activeDecisionsTagged([claim.topic])).find((n) => n.claim?.topic === claim.topic);
  if (active?.claim?.value === claim.value) return claim.value;
  const node: KnowledgeDraft = {
    node_id: `${ws.projectId}:decision:${claim.topic}`,
    node_type: 'decision',
    title: about.title,
    content: about.content,
    author_agent: agent,
    sprint_id: ws.sprintId,
    tags: [...new Set([claim.topic, ...about.tags])],
    project_id: ws.projectId,
    claim,
  };
  turn.send({
    label: `decision:${claim.topic}`,
    to: 'chief-orchestration',
    type: 'notification',
    priority: 'high',
    payload: { task_id: `decision-${claim.topic}`, content: { kind: 'decision', node } },
    ...(active ? { knowledgeRefs: [active.node_id] } : {}),
  });
  return active?.claim?.value ?? claim.value;
}
