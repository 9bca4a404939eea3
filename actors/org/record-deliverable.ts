import type { KnowledgeNode } from '../../protocol/org/knowledge.ts';
import type { Turn } from './turn.ts';
import type { Deliverable } from './workspace.ts';

/** Records a published deliverable in the knowledge graph (spec 004: every significant deliverable), derived from its inputs. */
export function recordDeliverable(
  turn: Turn,
  deliverable: Deliverable,
  tags: string[],
  derivedFrom: string[] = [],
): Promise<KnowledgeNode> {
  const { ws, agent } = turn;
  return ws.knowledge.record(agent, {
    node_id: deliverableNodeId(ws.projectId, deliverable.type, deliverable.version),
    node_type: 'deliverable',
    title: `${deliverable.type} v${deliverable.version}`,
    content: `${agent} published ${deliverable.type} v${deliverable.version} (schema ${deliverable.schema_version}).`,
    author_agent: agent,
    sprint_id: ws.sprintId,
    tags,
    project_id: ws.projectId,
    relations: derivedFrom.map((to) => ({ type: 'derived_from' as const, to })),
  });
}

export const deliverableNodeId = (projectId: string, type: string, version: number) =>
  `${projectId}:${type}:v${version}`;
