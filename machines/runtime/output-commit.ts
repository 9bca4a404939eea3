/**
 * What an agent reported or sent while an envelope delivered to it was not durable yet
 * (pipelined delivery), in arrival order; `revoked` names such deliveries whose append failed.
 */
export interface HeldEvents<E = unknown> {
  agent: string;
  events: E[];
  revoked: string[];
}

/**
 * The output-commit rule of pipelined delivery, as bookkeeping: per agent, the tickets delivered
 * to it early whose append is not durable yet, and what it produced meanwhile, held in order
 * until every one of those appends is settled.
 */
export class OutputCommit<E = unknown> {
  /** Per agent: tickets delivered to it early whose append is not durable yet. */
  private readonly undurable = new Map<string, Set<number>>();
  /** Per agent: what waits for those appends. */
  private readonly held = new Map<string, HeldEvents<E>>();

  /** How many agents have events held. */
  get holding(): number {
    return this.held.size;
  }

  /** `ticket` was delivered to `targets` before its append was durable. */
  deliveredEarly(ticket: number, targets: readonly string[]): void {
    for (const target of targets) {
      let tickets = this.undurable.get(target);
      if (!tickets) this.undurable.set(target, (tickets = new Set()));
      tickets.add(ticket);
    }
  }

  /** Whether an event from `agent` must wait: a delivery to it is not durable, or earlier events of it wait already (they keep their order). */
  waits(agent: string | undefined): agent is string {
    return agent !== undefined && (this.undurable.has(agent) || this.held.has(agent));
  }

  hold(agent: string, event: E): void {
    let held = this.held.get(agent);
    if (!held) this.held.set(agent, (held = { agent, events: [], revoked: [] }));
    held.events.push(event);
  }

  /** The append of request `id`, delivered early to `targets`, failed: what they hold is refused. */
  revoke(id: string, targets: readonly string[]): void {
    for (const target of targets) this.held.get(target)?.revoked.push(id);
  }

  /** `ticket`'s append is settled: its targets no longer wait for it; those it freed are added to `agents`. */
  settled(ticket: number, targets: readonly string[], agents: Set<string>): void {
    for (const target of targets) {
      const tickets = this.undurable.get(target);
      if (!tickets?.delete(ticket)) continue;
      if (tickets.size === 0) this.undurable.delete(target);
      agents.add(target);
    }
  }

  /** The held events of those `agents` whose every early delivery is now settled, taken out. */
  release(agents: Iterable<string>): HeldEvents<E>[] {
    const released: HeldEvents<E>[] = [];
    for (const agent of agents) {
      const held = this.held.get(agent);
      if (!held || this.undurable.has(agent)) continue;
      this.held.delete(agent);
      released.push(held);
    }
    return released;
  }
}
