import type { Journal } from '../journal.ts';
import { loadStatePartition } from './load-state-partition.ts';
import type { StateEntry, StateListener } from './shared-state.ts';
import { StatePartition, type PartitionOptions } from './state-partition.ts';
import type { StateRecord } from './state-record.ts';

/** A listener and the prefix it watches. */
export interface Watcher {
  prefix: string;
  listener: StateListener;
}

interface Waiting {
  run(partition: StatePartition): void;
  fail(error: unknown): void;
}

/**
 * Where one scope instance lives in memory, shared by every view opened over the same journal
 * (so two tasks of one user compare-and-set against the same `user/<id>` state). The partition
 * is read on first use; calls made meanwhile run in the order they came once it is read, so
 * writes are decided in call order. Its watchers stay across a reload (after a journal failure).
 */
export class PartitionSlot {
  readonly watchers = new Set<Watcher>();
  /** Views holding this slot; at 0 (and with no watcher) it leaves memory once quiet. */
  holders = 0;
  readonly #scope: string;
  readonly #id: string;
  readonly #options: PartitionOptions;
  readonly #warn: (message: string) => void;
  #partition: StatePartition | undefined;
  #loading = false;
  #waiting: Waiting[] = [];
  /** What a reload waits for: the appends of a broken partition, so none lands after the read. */
  #after: Promise<void> = Promise.resolve();

  constructor(scope: string, id: string, options: PartitionOptions, warn: (message: string) => void) {
    this.#scope = scope;
    this.#id = id;
    this.#options = options;
    this.#warn = warn;
  }

  /** The loaded partition, if any (nothing waits for it). */
  get loaded(): StatePartition | undefined {
    return this.#partition;
  }

  /** Runs `fn` on the partition: now if it is read, else once it is, after the calls before. */
  use<R>(fn: (partition: StatePartition) => R | Promise<R>): Promise<R> {
    const partition = this.#partition;
    if (partition) {
      try {
        return Promise.resolve(fn(partition));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({
        run: (loaded) => {
          try {
            resolve(fn(loaded));
          } catch (error) {
            reject(error);
          }
        },
        fail: reject,
      });
      this.#load();
    });
  }

  #load(): void {
    if (this.#loading) return;
    this.#loading = true;
    const hooks = {
      changed: (entry: StateEntry) => this.#notify(entry),
      broken: () => {
        const broken = this.#partition;
        this.#partition = undefined;
        if (broken) this.#after = broken.quiet();
      },
    };
    this.#after
      .then(() => loadStatePartition(this.#options.journal, this.#scope, this.#id, this.#options.historyLimit))
      .then(
        (loaded) => {
          this.#partition = new StatePartition(loaded, this.#options, hooks);
          this.#settle((waiting) => waiting.run(this.#partition!));
        },
        (error: unknown) => this.#settle((waiting) => waiting.fail(error)),
      );
  }

  #settle(each: (waiting: Waiting) => void): void {
    this.#loading = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const item of waiting) each(item);
  }

  #notify(entry: StateEntry): void {
    for (const { prefix, listener } of this.watchers) {
      if (!entry.key.startsWith(prefix)) continue;
      try {
        listener(entry);
      } catch (error) {
        this.#warn(`A shared-state listener on "${prefix}" threw on ${entry.key} v${entry.version}: ${String(error)}`);
      }
    }
  }
}

const registries = new WeakMap<Journal<StateRecord>, Map<string, PartitionSlot>>();

/** Holds the slot of `<scope>/<id>` over `journal` for a view, made by `make` when none is in memory. */
export function holdSlot(
  journal: Journal<StateRecord>,
  scope: string,
  id: string,
  make: () => PartitionSlot,
): PartitionSlot {
  let slots = registries.get(journal);
  if (!slots) registries.set(journal, (slots = new Map()));
  const key = `${scope}/${id}`;
  let slot = slots.get(key);
  if (!slot) slots.set(key, (slot = make()));
  slot.holders += 1;
  return slot;
}

/** Lets go of a slot; the last holder's release drops it from memory once its writes settle. */
export async function releaseSlot(journal: Journal<StateRecord>, scope: string, id: string): Promise<void> {
  const key = `${scope}/${id}`;
  const slots = registries.get(journal);
  const slot = slots?.get(key);
  if (!slot) return;
  slot.holders -= 1;
  await slot.loaded?.settled();
  if (slot.holders === 0 && slot.watchers.size === 0 && slots?.get(key) === slot) slots.delete(key);
}
