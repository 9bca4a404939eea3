/**
 * Remembers message ids for at least one window (an hour for the supervisor) and at most two,
 * in O(1) per id: ids go into the current generation; `rotate()`, called once per window by a
 * timer on the actor system's clock, drops the older generation.
 */
export class DedupWindow {
  private current = new Set<string>();
  private previous = new Set<string>();

  has(id: string): boolean {
    return this.current.has(id) || (this.previous.size > 0 && this.previous.has(id));
  }

  /** Records an id; false when it was already there. */
  add(id: string): boolean {
    if (this.previous.size > 0 && this.previous.has(id)) return false;
    // One lookup, not two: the current generation grew only if the id was new.
    const size = this.current.size;
    return this.current.add(id).size > size;
  }

  forget(id: string): void {
    this.current.delete(id);
    this.previous.delete(id);
  }

  rotate(): void {
    this.previous = this.current;
    this.current = new Set();
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
