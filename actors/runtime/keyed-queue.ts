/**
 * Runs tasks one at a time per key, in the order they were queued, whatever the outcome of the
 * ones before. A key is forgotten once its queue is empty, so memory holds only the keys with
 * work under way, never every key ever used.
 *
 * @example
 * const queue = new KeyedQueue();
 * await queue.run(file, () => rewrite(file)); // never overlaps another task on `file`
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` after every task of `key` queued before it; resolves or rejects as it does. */
  run<R>(key: string, task: () => R | Promise<R>): Promise<R> {
    const result = (this.#tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task of `key` queued so far is done. */
  async idle(key: string): Promise<void> {
    await this.#tails.get(key);
  }

  /** Resolves once every task queued so far, and any queued meanwhile, is done. */
  async settled(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }

  /** How many keys have work under way. */
  get size(): number {
    return this.#tails.size;
  }
}
