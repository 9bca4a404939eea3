/**
 * The supervisor's open requests, by correlation id: a request is open from its admission until
 * an answer to it is durable, it times out, its receiver turns it down or is given up on, it
 * expires waiting for the disk, or its own append fails. An answer admitted but not yet journaled
 * holds the request (a second answer is refused), without closing it: if the answer fails the
 * request is open again, so the responder may answer again and the requester still hears
 * `request_timeout`; a timeout, throttle or give-up that comes while the answer is in flight
 * waits for the answer's outcome. A timeout that comes while the request itself is being
 * journaled waits too: the requester hears one outcome, `journal_unavailable` if the append
 * fails, else `request_timeout` once the request is delivered.
 *
 * @example
 * const requests = new OpenRequests();
 * requests.open('q1', 'A', 'B');
 * requests.stored('q1'); // its own append is durable
 * requests.answering('q1', 'r1'); // B's answer r1 is being journaled
 * requests.answered('q1', 'r1'); // durable: q1 is closed
 */
export interface OpenRequest {
  requester: string;
  to: string;
  /** The id of the answer being journaled, if one is. */
  answer?: string | undefined;
  /** Its own append is not durable yet (its turn in routing order has not come). */
  storing: boolean;
  /**
   * Its timer fired while it, or an answer to it, was being journaled: it times out at that turn,
   * unless that turn is a durable answer's.
   */
  timedOut?: boolean;
}

export class OpenRequests {
  readonly #open = new Map<string, OpenRequest>();

  /** How many requests are open (answered or not). */
  get size(): number {
    return this.#open.size;
  }

  /** Opens request `id` from `requester` to `to` (admitted again after its append failed: a fresh start). */
  open(id: string, requester: string, to: string): void {
    this.#open.set(id, { requester, to, storing: true });
  }

  /**
   * Request `id`'s own append is durable, at its turn in routing order. If its timer fired while
   * it waited, it is closed and returned, for its requester to hear it timed out, unless an
   * answer to it is being journaled (that answer's outcome decides).
   */
  stored(id: string): OpenRequest | undefined {
    const open = this.#open.get(id);
    if (!open?.storing) return undefined;
    open.storing = false;
    if (!open.timedOut || open.answer !== undefined) return undefined;
    this.#open.delete(id);
    return open;
  }

  /**
   * Request `id` expired waiting for the disk, at its turn: nobody received it. Closes and returns
   * it, unless an answer to it is being journaled: then the answer's outcome decides, as after a
   * timeout.
   */
  undelivered(id: string): OpenRequest | undefined {
    const open = this.#open.get(id);
    if (open?.answer === undefined) return this.close(id);
    open.storing = false;
    open.timedOut = true;
    return undefined;
  }

  /** Request `id` if it is open, its timer has not fired, and no answer to it is being journaled. */
  answerable(id: string | undefined): OpenRequest | undefined {
    // Stryker disable next-line ConditionalExpression: Map.get(undefined) is undefined too; the check narrows the type
    const open = id === undefined ? undefined : this.#open.get(id);
    return open?.answer === undefined && !open?.timedOut ? open : undefined;
  }

  /** Answer `answer` to request `id` was admitted; it is being journaled. */
  answering(id: string, answer: string): void {
    const open = this.#open.get(id);
    if (open) open.answer = answer;
  }

  /** Answer `answer` is durable: request `id` is closed. Returns whether `answer` was the one it waited for. */
  answered(id: string, answer: string): boolean {
    if (this.#open.get(id)?.answer !== answer) return false;
    this.#open.delete(id);
    return true;
  }

  /**
   * Answer `answer` failed (its append, or its delivery past its expiry): request `id` is open
   * again, or, if its timer fired meanwhile, closed and returned, for its requester to hear it
   * timed out.
   */
  unanswered(id: string, answer: string): OpenRequest | undefined {
    const open = this.#open.get(id);
    if (open?.answer !== answer) return undefined;
    open.answer = undefined;
    if (!open.timedOut) return undefined;
    this.#open.delete(id);
    return open;
  }

  /**
   * Request `id`'s timer fired: closes and returns it, unless it or an answer to it is being
   * journaled (then it waits for that turn).
   */
  expire(id: string): OpenRequest | undefined {
    const open = this.#open.get(id);
    if (open && (open.storing || open.answer !== undefined)) {
      open.timedOut = true;
      return undefined;
    }
    this.#open.delete(id);
    return open;
  }

  /**
   * Its receiver turned request `id` down (`throttled`) or was given up on (`undeliverable`):
   * closes and returns it, unless an answer to it is being journaled (that answer's outcome
   * decides).
   */
  decline(id: string): OpenRequest | undefined {
    return this.#open.get(id)?.answer === undefined ? this.close(id) : undefined;
  }

  /** Closes request `id` whatever its state (its own append failed). */
  close(id: string): OpenRequest | undefined {
    const open = this.#open.get(id);
    this.#open.delete(id);
    return open;
  }
}
