import type { Address } from '../../protocol/runtime/envelope-addressing.ts';
import type { RoutingError } from '../../protocol/runtime/routing.ts';
import type { SystemDefinition } from './supervisor-system.ts';

/** Why an envelope may not go where it is addressed: a routing error that says how to fix it. */
export type RouteRefusal = Pick<RoutingError, 'code' | 'message'>;

const NO_TARGETS: readonly string[] = Object.freeze([]);

/**
 * A system's routing table and addresses, compiled once per supervisor: which edges
 * (`from -> to : kind`) exist, which address is an agent or an external one, and who a broadcast
 * reaches. Lookups build no key string and no list per envelope: targets are shared, frozen lists.
 */
export class RoutingTable {
  /** No child to deliver to: an external address, or an expired envelope. */
  static readonly NO_TARGETS = NO_TARGETS;
  /** from -> to -> data types. */
  private readonly edges = new Map<string, Map<string, Set<string>>>();
  /** Per address a direct send may go to: its agent alone, or none for an external one. */
  private readonly directTargets = new Map<string, readonly string[]>();
  /** Per sender: every agent but it (a broadcast's targets), built on first use. */
  private readonly everyoneBut = new Map<string, readonly string[]>();

  constructor(
    private readonly system: SystemDefinition,
    /** The receivers value that means every agent but the sender, if the addressing has one. */
    private readonly broadcast: string | undefined,
  ) {
    for (const { from, to, data_type } of system.routes) {
      let tos = this.edges.get(from);
      if (!tos) this.edges.set(from, (tos = new Map()));
      let types = tos.get(to);
      if (!types) tos.set(to, (types = new Set()));
      types.add(data_type);
    }
    for (const name of system.externals ?? []) this.directTargets.set(name, NO_TARGETS);
    for (const name of Object.keys(system.agents)) this.directTargets.set(name, Object.freeze([name]));
  }

  /**
   * The children an envelope goes to, published on `topic` or sent to its receivers, or why it
   * may not go: an unknown topic or agent, or an edge the table lacks. Several receivers are all
   * checked before any is delivered.
   */
  targetsOf(address: Address, topic: string | undefined, published: boolean): readonly string[] | RouteRefusal {
    const { sender, receivers, kind } = address;
    const { system } = this;
    if (published) {
      const subscribers = topic === undefined ? undefined : system.topics?.[topic];
      if (!subscribers) return { code: 'unknown_topic', message: `Topic "${topic}" does not exist in ${system.name}.` };
      return this.missingEdge(sender, `topic:${topic}`, kind) ?? subscribers.filter((name) => name !== sender);
    }
    if (typeof receivers === 'string') {
      const targets = receivers === this.broadcast ? this.broadcastTargets(sender) : this.directTargets.get(receivers);
      if (!targets) return unknownAgent(receivers, system.name);
      return this.missingEdge(sender, receivers, kind) ?? targets;
    }
    const all: string[] = [];
    for (const receiver of receivers) {
      const direct = this.directTargets.get(receiver);
      if (!direct) return unknownAgent(receiver, system.name);
      const missing = this.missingEdge(sender, receiver, kind);
      if (missing) return missing;
      for (const target of direct) if (!all.includes(target)) all.push(target);
    }
    return all;
  }

  /** Why `from -> to : kind` may not be sent, or `undefined` when the table has it. */
  private missingEdge(from: string, to: string, kind: string): RouteRefusal | undefined {
    if (this.edges.get(from)?.get(to)?.has(kind)) return undefined;
    return {
      code: 'unknown_edge',
      message: `${this.system.name} has no edge ${from} -> ${to} : ${kind}; add it to the routing table or send elsewhere.`,
    };
  }

  /** Every agent but `sender` (external addresses get none). */
  private broadcastTargets(sender: string): readonly string[] {
    let targets = this.everyoneBut.get(sender);
    if (!targets) {
      targets = Object.freeze(Object.keys(this.system.agents).filter((name) => name !== sender));
      this.everyoneBut.set(sender, targets);
    }
    return targets;
  }
}

const unknownAgent = (name: string, system: string): RouteRefusal => ({
  code: 'unknown_agent',
  message: `No agent "${name}" runs in ${system}.`,
});
