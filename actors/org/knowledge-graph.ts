import type { KnowledgeNode, KnowledgeQuery, KnowledgeRelation } from '../../protocol/org/knowledge.ts';
import type { SharedState } from '../runtime/shared-state/shared-state.ts';

const PREFIX = 'knowledge/';

/** A node to record: the spec's fields (status is `active`) and typed relations. */
export type KnowledgeDraft = Omit<KnowledgeNode, 'status' | 'recorded_at' | 'relations' | 'related_nodes'> & {
  relations?: KnowledgeRelation[];
};

/**
 * The knowledge graph of one user, on shared state (`knowledge/<node_id>`). A node is recorded
 * `active`; it supersedes another only through an explicit `supersedes` relation, written in the
 * same atomic write that marks the other `superseded` (never a silent overwrite: a node id is
 * written once).
 *
 * @example
 * const graph = new KnowledgeGraph(state, () => clock.now());
 * await graph.record('database', { node_id, node_type: 'decision', title: 'Server-only database', ... });
 */
export class KnowledgeGraph {
  constructor(
    private readonly state: SharedState,
    private readonly now: () => number,
  ) {}

  async get(nodeId: string): Promise<KnowledgeNode | undefined> {
    return (await this.state.get(PREFIX + nodeId))?.value as KnowledgeNode | undefined;
  }

  /** Nodes matching every filter given, by id. */
  async query(filter: KnowledgeQuery = {}): Promise<KnowledgeNode[]> {
    const nodes = (await this.state.list(PREFIX)).map((entry) => entry.value as KnowledgeNode);
    const q = filter.q?.toLowerCase();
    return nodes.filter(
      (node) =>
        (!filter.type || node.node_type === filter.type) &&
        (!filter.status || node.status === filter.status) &&
        (!filter.tag || node.tags.includes(filter.tag)) &&
        (!q || `${node.title}\n${node.content}`.toLowerCase().includes(q)),
    );
  }

  /** Active decisions sharing at least one tag with `tags` (what a new decision is checked against). */
  async activeDecisionsTagged(tags: readonly string[]): Promise<KnowledgeNode[]> {
    const nodes = await this.query({ type: 'decision', status: 'active' });
    return nodes.filter((node) => node.tags.some((tag) => tags.includes(tag)));
  }

  /**
   * Records a node (once: an id already there is left as it is and returned). Nodes it names with
   * `supersedes` become `superseded` in the same write; they must exist and be active.
   */
  async record(role: string, draft: KnowledgeDraft): Promise<KnowledgeNode> {
    const existing = await this.get(draft.node_id);
    if (existing) return existing;
    const relations = draft.relations ?? [];
    const node: KnowledgeNode = {
      ...draft,
      relations,
      related_nodes: [...new Set(relations.map((relation) => relation.to))],
      status: 'active',
      recorded_at: new Date(this.now()).toISOString(),
    };
    const superseded = await Promise.all(
      relations.filter((r) => r.type === 'supersedes').map(async (r) => this.state.get(PREFIX + r.to)),
    );
    const writes = [{ key: PREFIX + node.node_id, value: node, expectedVersion: 0 }];
    for (const entry of superseded) {
      if (!entry) throw new Error(`${node.node_id} supersedes a node that does not exist; name an existing node.`);
      writes.push({
        key: entry.key,
        value: { ...(entry.value as KnowledgeNode), status: 'superseded' },
        expectedVersion: entry.version,
      });
    }
    const result = await this.state.write(role, writes);
    if (!result.ok) return this.record(role, draft);
    return node;
  }
}
