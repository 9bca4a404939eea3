import { isLive, makeEntry } from '../runtime/shared-state/state-entry.ts';
import type { SharedState, StateEntry, StateWrite, WriteResult } from '../runtime/shared-state/shared-state.ts';

const PROJECT = 'project/';

/**
 * One agent's turn over shared state: its writes to the project's workspace (`project/...`) are
 * held and read back by the turn itself, then written with the turn's record in one atomic write
 * ({@link commit}), so a turn cut off by a crash left nothing behind and is done again whole
 * (handled once). Other keys (the owner's knowledge graph, whose nodes are written once by id)
 * are written through at once.
 *
 * @example
 * const view = new TurnState(ws.state);
 * await handle(role, new Turn(agent, message, ws.withState(view)));
 * await view.commit(agent, [{ key: `project/turns/${agent}/${id}`, value: out }]);
 */
export class TurnState implements SharedState {
  readonly #held = new Map<string, StateEntry>();
  readonly #order: StateWrite[] = [];

  constructor(private readonly base: SharedState) {}

  get clock() {
    return this.base.clock;
  }

  private now(): number {
    return this.base.clock.now();
  }

  async get(key: string): Promise<StateEntry | undefined> {
    const held = this.#held.get(key);
    if (held) return isLive(held, this.now()) ? held : undefined;
    return this.base.get(key);
  }

  async list(prefix: string): Promise<StateEntry[]> {
    const entries = new Map((await this.base.list(prefix)).map((entry) => [entry.key, entry]));
    for (const [key, entry] of this.#held) {
      if (!key.startsWith(prefix)) continue;
      if (entry.deleted) entries.delete(key);
      else entries.set(key, entry);
    }
    return [...entries.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  async write(role: string, writes: StateWrite[]): Promise<WriteResult> {
    if (!writes.every((w) => w.key.startsWith(PROJECT))) return this.base.write(role, writes);
    const entries: StateEntry[] = [];
    for (const { key, value, delete: deleted } of writes) {
      const version = ((await this.get(key))?.version ?? 0) + 1;
      const entry = makeEntry({
        key,
        value,
        version,
        writtenBy: role,
        writtenAt: this.now(),
        ...(deleted ? { deleted } : {}),
      });
      this.#held.set(key, entry);
      this.#order.push(deleted ? { key, delete: true } : { key, value });
      entries.push(entry);
    }
    return { ok: true, entries };
  }

  /** Writes what the turn held, and `last` (its record), in one atomic write. */
  async commit(role: string, last: StateWrite[]): Promise<void> {
    const result = await this.base.write(role, [...this.#order, ...last]);
    if (!result.ok)
      throw new Error(`The turn's writes conflicted on ${result.conflict.key}; handle the message again.`);
  }

  history(key: string): Promise<StateEntry[]> {
    return this.base.history(key);
  }

  rollback(role: string, key: string, toVersion: number): Promise<WriteResult> {
    return this.base.rollback(role, key, toVersion);
  }

  watch(prefix: string, listener: (change: StateEntry) => void): () => void {
    return this.base.watch(prefix, listener);
  }

  /** The base state is the workspace's: the turn does not close it. */
  async close(): Promise<void> {}
}
