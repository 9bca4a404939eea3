/** The levels of the runtime's priority scale, 0 (critical) to 4 (backlog). */
const LEVELS = 5;

/** One FIFO line; `head` moves instead of `shift()`, and the array is cut once half of it is spent. */
interface Line {
  entries: { id: string; token: number }[];
  head: number;
}

/**
 * The ready tasks of one agent type: the most urgent priority first (0 before 4), first in first
 * out within a priority. `push`, `shift` and `delete` cost O(1) amortized: a deleted id stays in
 * its line and is skipped when it reaches the head, and once deleted entries outnumber live ones
 * (and pass 32) the lines are rebuilt without them, so memory follows the ready tasks, not the
 * tasks cancelled, failed or reassigned while they waited.
 *
 * @example
 * const line = new ReadyQueue();
 * line.push('t1', 2); line.push('t2', 0);
 * line.shift(); // 't2'
 */
export class ReadyQueue {
  readonly #lines: Line[] = Array.from({ length: LEVELS }, () => ({ entries: [], head: 0 }));
  /**
   * Ids in the queue, each with the token of its live entry: a deleted id leaves a stale entry in
   * its line, which is skipped even if the id was pushed again since.
   */
  readonly #members = new Map<string, number>();
  #tokens = 0;
  /** Entries left behind by `delete`, not yet skipped by `shift`. */
  #stale = 0;

  /** Appends `id` at the back of its priority's line; an id already queued is refused. */
  push(id: string, priority: number): void {
    if (this.#members.has(id)) throw new Error(`Task ${id} is already ready (a bug: it was queued twice).`);
    const line = this.#lines[priority];
    if (!line) throw new RangeError(`priority must be an integer from 0 to ${LEVELS - 1}, got ${priority}`);
    const token = ++this.#tokens;
    this.#members.set(id, token);
    line.entries.push({ id, token });
  }

  /** Takes the most urgent, oldest id out; undefined when empty. */
  shift(): string | undefined {
    if (this.#members.size === 0) return undefined;
    for (const line of this.#lines) {
      while (line.head < line.entries.length) {
        const { id, token } = line.entries[line.head++]!;
        if (line.head * 2 > line.entries.length && line.head > 32) {
          line.entries = line.entries.slice(line.head);
          line.head = 0;
        }
        if (this.#members.get(id) === token) {
          this.#members.delete(id);
          return id;
        }
        this.#stale--;
      }
    }
    return undefined;
  }

  /** Removes `id` wherever it is; false when it was not queued. */
  delete(id: string): boolean {
    if (!this.#members.delete(id)) return false;
    if (++this.#stale > 32 && this.#stale > this.#members.size) this.#dropStale();
    return true;
  }

  /** Entries held in the lines, live and deleted (for tests of the bound). */
  get held(): number {
    return this.#lines.reduce((sum, line) => sum + line.entries.length - line.head, 0);
  }

  #dropStale(): void {
    for (const line of this.#lines) {
      line.entries = line.entries.slice(line.head).filter(({ id, token }) => this.#members.get(id) === token);
      line.head = 0;
    }
    this.#stale = 0;
  }

  has(id: string): boolean {
    return this.#members.has(id);
  }

  get size(): number {
    return this.#members.size;
  }
}
