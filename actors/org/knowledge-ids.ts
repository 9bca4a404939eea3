import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { RoutingError } from '../../protocol/runtime/routing.ts';
import type { SharedState } from '../runtime/shared-state/shared-state.ts';

type Refusal = Pick<RoutingError, 'code' | 'message' | 'issues'>;

const PREFIX = 'knowledge/';

interface OwnerIds {
  ids: Set<string>;
  /** The owner's projects that are checked (awake); the ids are dropped when none is. */
  projects: Set<string>;
  close: () => Promise<void>;
}

/**
 * The node ids of each owner's knowledge graph, in memory, so that the org's admission rule
 * (synchronous) can refuse a message whose `context.knowledge_graph_refs` name a node that does
 * not exist (`unknown_reference`), before it is routed. An owner's ids are read when one of their
 * projects wakes ({@link load}) and kept in step with every durable write to their graph (a watch
 * on shared state, whoever writes: an agent, the user resolving an escalation). A project not
 * loaded is not checked.
 *
 * @example
 * const ids = new KnowledgeIds((owner) => openSharedState({ journal, schema, scopes: { owner } }));
 * await ids.load(projectId, owner);
 * ids.check(envelope); // undefined, or the refusal naming context.knowledge_graph_refs
 */
export class KnowledgeIds {
  readonly #owners = new Map<string, Promise<OwnerIds>>();
  readonly #ownerOf = new Map<string, OwnerIds>();

  constructor(private readonly stateOf: (owner: string) => SharedState) {}

  /** Checks the project's messages from now on, against its owner's graph (read once, then followed). */
  async load(projectId: string, owner: string): Promise<void> {
    let loading = this.#owners.get(owner);
    if (!loading) {
      loading = this.#read(owner);
      this.#owners.set(owner, loading);
      loading.catch(() => this.#owners.delete(owner));
    }
    const known = await loading;
    // Its last project was forgotten while this one waited: the ids were dropped; read them again.
    if (this.#owners.get(owner) !== loading) return this.load(projectId, owner);
    known.projects.add(projectId);
    this.#ownerOf.set(projectId, known);
  }

  /** Whether the project's messages are checked. */
  has(projectId: string): boolean {
    return this.#ownerOf.has(projectId);
  }

  /** Stops checking the project (it rests); its owner's ids go once none of their projects is loaded. */
  forget(projectId: string, owner: string): void {
    const known = this.#ownerOf.get(projectId);
    this.#ownerOf.delete(projectId);
    if (!known) return;
    known.projects.delete(projectId);
    if (known.projects.size > 0) return;
    this.#owners.delete(owner);
    void known.close();
  }

  /** The refusal of a message naming a node its project's owner does not have, or undefined. */
  check(envelope: OrgEnvelope): Refusal | undefined {
    const refs = envelope.context?.knowledge_graph_refs;
    if (!refs || refs.length === 0) return undefined;
    const known = this.#ownerOf.get(envelope.context?.prd_id ?? '');
    if (!known) return undefined;
    const missing = refs.filter((id) => !known.ids.has(id));
    if (missing.length === 0) return undefined;
    const message =
      `context.knowledge_graph_refs names ${missing.map((id) => `"${id}"`).join(', ')}, which the knowledge graph ` +
      'does not hold; record the node first, or name only existing nodes (GET /org/knowledge lists them).';
    return { code: 'unknown_reference', message, issues: [{ path: 'context.knowledge_graph_refs', message }] };
  }

  /** Watches first, then lists: no write falls between the two. */
  async #read(owner: string): Promise<OwnerIds> {
    const state = this.stateOf(owner);
    const ids = new Set<string>();
    const stop = state.watch(PREFIX, (change) => {
      const id = change.key.slice(PREFIX.length);
      if (change.deleted) ids.delete(id);
      else ids.add(id);
    });
    for (const entry of await state.list(PREFIX)) ids.add(entry.key.slice(PREFIX.length));
    return {
      ids,
      projects: new Set(),
      close: async () => {
        stop();
        await state.close();
      },
    };
  }
}
