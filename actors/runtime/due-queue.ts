/** One heap slot; `seq` orders equal times (the earlier `set` first) and marks stale slots. */
interface Slot<K> {
  at: number;
  seq: number;
  key: K;
}

/**
 * Keys with a due time, earliest first, without scanning: a binary min-heap. `set` and `take`
 * cost O(log n), `nextAt` O(1) amortized; setting a key again or deleting it leaves its old slot
 * in the heap, skipped (and dropped) when it reaches the top. Pure: it reads no clock, callers
 * pass the times. For timers that fire on a clock, see `DeadlineTimers`.
 *
 * @example
 * const due = new DueQueue<string>();
 * due.set('a', 1_500); due.set('b', 900);
 * due.nextAt(); // 900
 * due.take(1_000); // ['b']
 */
export class DueQueue<K> {
  readonly #heap: Slot<K>[] = [];
  /** Each key's live slot: the one whose `seq` matches. */
  readonly #live = new Map<K, number>();
  #seq = 0;

  /** How many keys are due at some time. */
  get size(): number {
    return this.#live.size;
  }

  /** Sets (or moves) `key`'s due time. */
  set(key: K, at: number): void {
    const seq = ++this.#seq;
    this.#live.set(key, seq);
    this.#heap.push({ at, seq, key });
    this.#up(this.#heap.length - 1);
    // Stale slots could pile up under keys that move often: rebuild once they are most of the heap.
    if (this.#heap.length > 64 && this.#heap.length > 2 * this.#live.size) this.#rebuild();
  }

  /** Forgets `key`; false when it had no due time. */
  delete(key: K): boolean {
    return this.#live.delete(key);
  }

  /** The earliest due time; undefined when no key is due. */
  nextAt(): number | undefined {
    this.#dropStale();
    return this.#heap[0]?.at;
  }

  /** Removes and returns every key due by `now`, earliest first (equal times: the earlier `set` first). */
  take(now: number): K[] {
    const out: K[] = [];
    for (let top = this.#top(); top && top.at <= now; top = this.#top()) {
      this.#pop();
      this.#live.delete(top.key);
      out.push(top.key);
    }
    return out;
  }

  #top(): Slot<K> | undefined {
    this.#dropStale();
    return this.#heap[0];
  }

  #dropStale(): void {
    while (this.#heap.length > 0 && this.#live.get(this.#heap[0]!.key) !== this.#heap[0]!.seq) this.#pop();
  }

  #rebuild(): void {
    const live = this.#heap.filter((slot) => this.#live.get(slot.key) === slot.seq);
    this.#heap.length = 0;
    for (const slot of live) {
      this.#heap.push(slot);
      this.#up(this.#heap.length - 1);
    }
  }

  #pop(): void {
    const last = this.#heap.pop()!;
    if (this.#heap.length === 0) return;
    this.#heap[0] = last;
    this.#down(0);
  }

  #before(a: Slot<K>, b: Slot<K>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #up(index: number): void {
    const heap = this.#heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.#before(heap[index]!, heap[parent]!)) return;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  #down(index: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let least = index;
      if (left < heap.length && this.#before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && this.#before(heap[right]!, heap[least]!)) least = right;
      if (least === index) return;
      [heap[index], heap[least]] = [heap[least]!, heap[index]!];
      index = least;
    }
  }
}
