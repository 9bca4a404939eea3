import { mkdir } from 'node:fs/promises';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { checkDataDir } from './check-data-dir.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { LowdbCollection } from './lowdb-collection.ts';
import type { Collection, Store } from './store.ts';
import { migrateLegacyCollection } from './store-migration.ts';
import { collectionDir, legacyCollectionFile } from './store-layout.ts';

/** Options of `openLowdbStore`. */
interface LowdbStoreOptions {
  /**
   * Read and check every file first (false): see `checkDataDir`. A server does not: its start-up
   * would grow with history; a damaged file is reported when it is read.
   */
  check?: boolean;
}

/** Collections remembered as already in the current layout; beyond, one more `open` each. */
const KNOWN_CURRENT = 1_024;

/**
 * Opens the lowdb store in `dir`, reading nothing: one folder per collection and one JSON file
 * per document (`pipelines/ada` holds run `r1` in `pipelines/ada.docs/r1.json`, see
 * `collectionDir`), so a write rewrites one document and costs the same in a collection of ten
 * or ten thousand. A collection still kept in one file (`pipelines/ada.json`, the layout before)
 * is moved to its folder on its first use, safely under kill -9 (`migrateLegacyCollection`).
 *
 * @example
 * const store = await openLowdbStore(join(DATA_DIR, 'store'));
 * await store.collection<Session>(`sessions/${userId}`).put(session.id, session);
 */
export async function openLowdbStore(dir: string, options: LowdbStoreOptions = {}): Promise<Store> {
  await mkdir(dir, { recursive: true });
  if (options.check) await checkDataDir(dir);
  return new LowdbStore(dir);
}

/** The store: what its collections share, and nothing that grows with what it holds. */
class LowdbStore implements Store {
  readonly #writes = new KeyedQueue();
  /** Moves from the old layout under way, by collection name. */
  readonly #moves = new Map<string, Promise<void>>();
  /** Names known to be in the current layout, oldest first (bounded: `KNOWN_CURRENT`). */
  readonly #current = new Set<string>();
  #closed = false;

  constructor(private readonly dir: string) {}

  collection<T>(name: string): Collection<T> {
    return new LowdbCollection<T>(collectionDir(this.dir, name), {
      writes: this.#writes,
      ready: () => this.#ready(name),
      assertOpen: () => {
        if (this.#closed) throw new RuntimeError('store_closed', 'The store is closed.', 503);
      },
    });
  }

  /** Waits for the writes queued so far (and moves under way), then refuses new writes. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#moves.values()]);
    await this.#writes.settled();
  }

  /** Resolves once collection `name` is in the current layout; a failed move is tried again next time. */
  #ready(name: string): Promise<void> {
    if (this.#current.has(name)) return Promise.resolve();
    let move = this.#moves.get(name);
    if (!move) {
      move = migrateLegacyCollection(legacyCollectionFile(this.dir, name), collectionDir(this.dir, name))
        .then(() => this.#remember(name))
        .finally(() => this.#moves.delete(name));
      this.#moves.set(name, move);
    }
    return move;
  }

  #remember(name: string): void {
    this.#current.add(name);
    if (this.#current.size > KNOWN_CURRENT) this.#current.delete(this.#current.values().next().value as string);
  }
}
