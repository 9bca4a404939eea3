/**
 * Who sent each envelope an agent holds without an ack or a request behind it (a plain send, a
 * broadcast, a response), by message id, from its delivery until its receivers report on it: a
 * receiver that reports `throttled` took nothing, so the supervisor tells that sender, who may
 * send it again (see `sender-retry.ts`). Bounded: past `limit` ids (receivers that never report,
 * such as a statechart orchestrator) the oldest is forgotten, and its sender is told nothing.
 *
 * @example
 * const senders = new DeliverySenders();
 * senders.delivered('m1', 'A', 2); // to two receivers
 * senders.reported('m1'); // 'A'; once both reported, 'm1' is forgotten
 */
export class DeliverySenders {
  /** Per message id: its sender, and how many of its receivers have not reported yet. */
  readonly #open = new Map<string, OpenDelivery>();
  /**
   * The entries in first-delivery order from `#head` (those before it were passed over), with
   * forgotten ones left in place (skipped when reached) until the order is compacted: finding the oldest this way costs O(1) amortized, where a map iterator would
   * walk past every entry the map deleted since it last compacted, once per delivery at the limit.
   */
  // Stryker disable next-line ArrayDeclaration: an element that is no entry is skipped and compacted away like a forgotten one
  #order: OpenDelivery[] = [];
  #head = 0;

  constructor(readonly limit = 4_096) {}

  /** How many message ids are remembered. */
  get size(): number {
    return this.#open.size;
  }

  /** `id`, sent by `sender`, was handed to `receivers` agents. */
  delivered(id: string, sender: string, receivers: number): void {
    if (receivers <= 0) return;
    const known = this.#open.get(id);
    if (known) {
      // Handed over again (a redelivery of the same id): each copy may report.
      known.receivers += receivers;
      return;
    }
    if (this.#open.size >= this.limit) this.#forgetOldest();
    const entry: OpenDelivery = { id, sender, receivers };
    this.#open.set(id, entry);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: when it compacts changes no answer, only memory (never compacting lets the order grow without bound, which no answer shows)
    if (this.#order.length >= 2 * this.limit) this.#compact();
    this.#order.push(entry);
  }

  /** A receiver reported on `id`: its sender, if remembered; forgotten once every receiver reported. */
  reported(id: string): string | undefined {
    const open = this.#open.get(id);
    if (!open) return undefined;
    if (--open.receivers === 0) this.#open.delete(id);
    return open.sender;
  }

  #forgetOldest(): void {
    while (this.#head < this.#order.length) {
      const entry = this.#order[this.#head++]!;
      if (isOpen(entry)) {
        this.#open.delete(entry.id);
        entry.receivers = 0;
        return;
      }
    }
  }

  /** Drops forgotten entries from the order (at most `limit` remain), so it stays under twice the limit. */
  // Stryker disable BlockStatement,MethodExpression: compacting (or how) changes no answer, only memory: what it drops, `isOpen` skips
  #compact(): void {
    this.#order = this.#order.slice(this.#head).filter(isOpen);
    this.#head = 0;
  }
  // Stryker restore BlockStatement,MethodExpression
}

/** Whether an entry of the order is remembered still: a forgotten or fully reported one stays in place until compacted. */
const isOpen = (entry: OpenDelivery) => entry.receivers > 0;

/** One remembered delivery; it is in the map exactly while receivers are left (a forgotten one is set to 0). */
interface OpenDelivery {
  id: string;
  sender: string;
  receivers: number;
}
