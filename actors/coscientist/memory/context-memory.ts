import type { CoscientistAgent } from '../../../protocol/coscientist/envelope.ts';
import {
  isConsumable,
  StoredEntrySchema,
  type ContextEntry,
  type EntryType,
  type StoredEntry,
} from '../../../protocol/coscientist/context-entry.ts';
import type { SharedState, StateEntry } from '../../runtime/shared-state/shared-state.ts';
import { updateWithRetry } from '../../runtime/shared-state/update-with-retry.ts';

/** What a new entry needs beyond its content. */
export interface NewEntry {
  /** Derived from the task that writes it, so a task run again after a crash finds its own entries. */
  entryId: string;
  dependencies?: string[];
  partial?: boolean;
}

const toEntry = (state: StateEntry): ContextEntry => ({
  ...StoredEntrySchema.parse(state.value),
  version: state.version,
});

/**
 * One goal's context memory (spec 003's Context Entry Structure) over shared state: entries
 * are keyed `<entry_type>/<entry_id>`, written once (compare-and-set on absence) and changed only
 * by read-before-write with retry on a version conflict. Every read goes to the durable state.
 *
 * @example
 * const memory = new ContextMemory(state, () => new Date().toISOString());
 * await memory.create('GENERATION', 'hypothesis', content, { entryId: 'i1-gen:h1' });
 */
export class ContextMemory {
  constructor(
    readonly state: SharedState,
    /** The clock's time as ISO 8601 text. */
    readonly now: () => string,
  ) {}

  /**
   * Writes a new entry atomically. An entry of that id already there (the same task run again
   * after a crash) is returned as it is: entries are never edited by their writers.
   */
  async create(agent: CoscientistAgent, type: EntryType, content: object, entry: NewEntry): Promise<ContextEntry> {
    const at = this.now();
    const stored: StoredEntry = {
      entry_id: entry.entryId,
      agent_id: agent,
      entry_type: type,
      content: content as Record<string, unknown>,
      created_at: at,
      updated_at: at,
      dependencies: entry.dependencies ?? [],
      ...(entry.partial ? { partial: true } : {}),
    };
    const key = `${type}/${entry.entryId}`;
    const result = await this.state.write(agent, [{ key, value: stored, expectedVersion: 0 }]);
    if (result.ok) return toEntry(result.entries[0]!);
    const existing = await this.state.get(key);
    if (!existing) throw new Error(`Entry ${key} conflicted but is absent: a bug in shared state.`);
    return toEntry(existing);
  }

  /** Read-before-write with retry: `change` maps the current entry's content to the next. */
  async update(
    agent: CoscientistAgent,
    type: EntryType,
    entryId: string,
    change: (current: StoredEntry | undefined) => StoredEntry,
  ): Promise<ContextEntry> {
    const written = await updateWithRetry<StoredEntry>(this.state, agent, `${type}/${entryId}`, (current) =>
      change(current ? StoredEntrySchema.parse(current.value) : undefined),
    );
    return toEntry(written);
  }

  async get(type: EntryType, entryId: string): Promise<ContextEntry | undefined> {
    const found = await this.state.get(`${type}/${entryId}`);
    return found ? toEntry(found) : undefined;
  }

  /** Every entry of a type, partial ones included (for views and the SUPERVISOR). */
  async list(type: EntryType): Promise<ContextEntry[]> {
    return (await this.state.list(`${type}/`)).map(toEntry);
  }

  /** The entries of a type a dependent may consume: final, or partial and promoted. */
  async consumable(type: EntryType): Promise<ContextEntry[]> {
    return (await this.list(type)).filter(isConsumable);
  }

  /** The SUPERVISOR promotes a partial entry so that dependents may consume it. */
  promote(entry: ContextEntry): Promise<ContextEntry> {
    return this.update('SUPERVISOR', entry.entry_type, entry.entry_id, (current) => ({
      ...(current ?? entry),
      promoted: true,
      updated_at: this.now(),
    }));
  }
}
