/**
 * Who holds each run live, counted per partition: a caller that pinned it (about to send to it,
 * or watching it), a run between `start` and `commit`, a rebuild replaying. A held run is not
 * released as resting; when the last hold goes, the host looks again whether it rests.
 *
 * @example
 * holds.hold(partition);
 * if (holds.unhold(partition)) maybeRetire(partition); // nobody holds it now
 */
export class RunHolds {
  /** Per held run, its count; a new object once the run was forgotten, so older pins are known stale. */
  private readonly counts = new Map<string, { count: number }>();

  hold(partition: string): void {
    const held = this.counts.get(partition);
    if (held) held.count += 1;
    else this.counts.set(partition, { count: 1 });
  }

  /**
   * Holds the run for a caller (`pin`): the function answered lets go of this hold through
   * `letGo` (the host's own unhold), once, however often the caller calls it, and not at all
   * once the run was forgotten (its holds went with it; a later hold of the same partition is
   * someone else's).
   */
  holdOnce(partition: string, letGo: (partition: string) => void): () => void {
    this.hold(partition);
    const holds = this.counts.get(partition);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (this.counts.get(partition) === holds) letGo(partition);
    };
  }

  /** Lets go once; true when nobody holds the run any more. */
  unhold(partition: string): boolean {
    const held = this.counts.get(partition);
    if (held && held.count > 1) {
      held.count -= 1;
      return false;
    }
    this.counts.delete(partition);
    return true;
  }

  /** Runs held now. */
  get size(): number {
    return this.counts.size;
  }

  has(partition: string): boolean {
    return this.counts.has(partition);
  }

  /** Drops every hold of a run (an ephemeral host's run is held from `start` to a `commit` that never comes). */
  forget(partition: string): void {
    this.counts.delete(partition);
  }
}
