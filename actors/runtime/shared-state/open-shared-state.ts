import { realClock, type ServiceClock } from '../clock.ts';
import type { Journal } from '../journal.ts';
import { holdSlot, PartitionSlot, releaseSlot, type Watcher } from './partition-slot.ts';
import { SharedStateError } from './shared-state-error.ts';
import { defineSharedStateSchema, writersOf, type Namespace, type SharedStateSchema } from './shared-state-schema.ts';
import type { SharedState, StateWrite } from './shared-state.ts';
import { frozenJsonCopy } from './state-entry.ts';
import type { DecidedKey } from './state-partition.ts';
import type { StateRecord } from './state-record.ts';

/** Options of `openSharedState`. */
export interface SharedStateOptions {
  /**
   * Where the state is kept: one partition per scope instance (give shared state a journal of
   * its own). Any journal will do: every record is checked when read back.
   */
  journal: Journal<StateRecord> | Journal<unknown>;
  schema: SharedStateSchema;
  /** The instance of each scope this view works in, e.g. `{ task: 'task-42', user: 'ada' }`. */
  scopes: Record<string, string>;
  /** TTLs are measured on it (default: real time). */
  clock?: ServiceClock;
  /** Versions kept per key (default 16). */
  historyLimit?: number;
  /** Writes to a scope instance between snapshots (default 1000; never fewer than its keys). */
  compactAfter?: number;
  /** Told when a listener throws (default `console.warn`). */
  warn?: (message: string) => void;
}

/**
 * Opens a view of shared state for one set of scope instances. A key `<namespace>/<rest>` lives
 * in its namespace's scope instance (`task/current-objective` in `task/<scopes.task>`); a write
 * is checked against the namespace's permission table, and every key of one atomic write must
 * live in the same scope instance (`cross_scope_write` otherwise: write them in separate calls).
 * Views over the same journal share each scope instance's state, so concurrent writers from
 * different runs serialize on it. Options other than `schema` and `scopes` are taken from the
 * first view that touches a scope instance.
 *
 * @example
 * const state = openSharedState({ journal, schema: beadsSchema, scopes: { task: taskId, user: userId } });
 * await state.write('ARCHITECT', [{ key: 'task/current-objective', value: 'Parse the log', expectedVersion: 0 }]);
 * const objective = await state.get('task/current-objective');
 */
export function openSharedState(options: SharedStateOptions): SharedState {
  const schema = defineSharedStateSchema(options.schema);
  const { scopes } = options;
  const journal = options.journal as Journal<StateRecord>;
  const clock = options.clock ?? realClock;
  const partitionOptions = {
    journal,
    clock,
    historyLimit: positiveInteger(options.historyLimit ?? 16, 'historyLimit'),
    compactAfter: positiveInteger(options.compactAfter ?? 1000, 'compactAfter'),
  };
  const warn = options.warn ?? console.warn;
  const used = new Set(Object.values(schema.namespaces).map((namespace) => namespace.scope));
  for (const [scope, id] of Object.entries(scopes)) {
    if (!used.has(scope)) {
      throw new SharedStateError(
        'scope_not_open',
        `Scope "${scope}" is not used by any namespace of the schema (its scopes: ${[...used].join(', ')}): fix the name in scopes.`,
      );
    }
    if (typeof id !== 'string' || id.length === 0) {
      throw new SharedStateError('scope_not_open', `Scope "${scope}" needs a non-empty id in scopes.`);
    }
  }
  const held = new Map<string, PartitionSlot>();
  const watching = new Set<{ slot: PartitionSlot; watcher: Watcher }>();

  const slotOf = (scope: string): PartitionSlot => {
    let slot = held.get(scope);
    if (!slot) {
      const id = scopes[scope]!;
      slot = holdSlot(journal, scope, id, () => new PartitionSlot(scope, id, partitionOptions, warn));
      held.set(scope, slot);
    }
    return slot;
  };
  const namespaceOf = (name: string): Namespace => {
    const namespace = schema.namespaces[name];
    if (!namespace) {
      throw new SharedStateError(
        'unknown_namespace',
        `Namespace "${name}" is not in the shared-state schema (namespaces: ${Object.keys(schema.namespaces).join(', ')}): add it to the schema or fix the key.`,
      );
    }
    if (scopes[namespace.scope] === undefined) {
      throw new SharedStateError(
        'scope_not_open',
        `Namespace "${name}" lives in scope "${namespace.scope}", which this view was not opened with: pass scopes: { ${namespace.scope}: '<id>' }.`,
      );
    }
    return namespace;
  };
  const route = (key: unknown) => {
    const slash = typeof key === 'string' ? key.indexOf('/') : -1;
    if (typeof key !== 'string' || slash <= 0 || slash === key.length - 1) {
      throw new SharedStateError(
        'invalid_key',
        `Key ${JSON.stringify(key)} is not "<namespace>/<name>": start it with a namespace of the schema and a slash.`,
      );
    }
    const name = key.slice(0, slash);
    const namespace = namespaceOf(name);
    return { key, name, namespace, slot: slotOf(namespace.scope) };
  };
  const routeWrite = (role: string, key: unknown) => {
    const routed = route(key);
    const access = routed.namespace.access[role];
    if (access !== 'RW') {
      const writers = writersOf(routed.namespace);
      throw new SharedStateError(
        'write_forbidden',
        `Role "${role}" may not write in namespace "${routed.name}" (its access there is ${access ?? 'none'}); ${writers.length > 0 ? `only ${writers.join(', ')} may` : 'no role may'}: write through a role with RW there, or change the schema's permission table.`,
      );
    }
    return routed;
  };
  /** The slots holding keys under `prefix`: one namespace, or every namespace it begins (of the scopes open). */
  const slotsUnder = (prefix: string): PartitionSlot[] => {
    const slash = prefix.indexOf('/');
    if (slash >= 0) return [slotOf(namespaceOf(prefix.slice(0, slash)).scope)];
    const scopesUnder = Object.entries(schema.namespaces)
      .filter(([name, namespace]) => name.startsWith(prefix) && scopes[namespace.scope] !== undefined)
      .map(([, namespace]) => namespace.scope);
    return [...new Set(scopesUnder)].map(slotOf);
  };
  /** The partition once every write decided before this call is durable (or refused). */
  const durable = (slot: PartitionSlot) => slot.use((loaded) => loaded.settled().then(() => loaded));

  return {
    clock,
    async get(key) {
      const { slot } = route(key);
      return (await durable(slot)).get(key, clock.now());
    },
    async list(prefix) {
      const found = await Promise.all(
        slotsUnder(prefix).map(async (slot) => (await durable(slot)).list(prefix, clock.now())),
      );
      return found.flat().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async write(role, writes) {
      if (!Array.isArray(writes) || writes.length === 0) {
        throw new SharedStateError(
          'invalid_write',
          'A write needs at least one { key, value } or { key, delete: true }.',
        );
      }
      const routed = writes.map((write) => routeWrite(role, write?.key));
      const slot = routed[0]!.slot;
      const elsewhere = routed.find((r) => r.slot !== slot);
      if (elsewhere) {
        throw new SharedStateError(
          'cross_scope_write',
          `One atomic write cannot span scopes: "${routed[0]!.key}" is in scope "${routed[0]!.namespace.scope}" and "${elsewhere.key}" in "${elsewhere.namespace.scope}". Write them in separate calls, or give their namespaces one scope.`,
        );
      }
      const names = new Set<string>();
      const decided = writes.map((write) => {
        if (names.has(write.key)) {
          throw new SharedStateError('invalid_write', `The write names "${write.key}" twice: merge them into one.`);
        }
        names.add(write.key);
        return decide(write);
      });
      return slot.use((partition) => partition.write(role, decided, clock.now()));
    },
    async history(key) {
      const { slot } = route(key);
      return (await durable(slot)).history(key);
    },
    async rollback(role, key, toVersion) {
      const { slot } = routeWrite(role, key);
      return slot.use((partition) => partition.rollback(role, key, toVersion, clock.now()));
    },
    watch(prefix, listener) {
      const added = slotsUnder(prefix).map((slot) => {
        const item = { slot, watcher: { prefix, listener } };
        slot.watchers.add(item.watcher);
        watching.add(item);
        return item;
      });
      return () => {
        for (const item of added) {
          item.slot.watchers.delete(item.watcher);
          watching.delete(item);
        }
      };
    },
    async close() {
      for (const { slot, watcher } of watching) slot.watchers.delete(watcher);
      watching.clear();
      const releasing = [...held.keys()].map((scope) => releaseSlot(journal, scope, scopes[scope]!));
      held.clear();
      await Promise.all(releasing);
    },
  };
}

/** Checks one key of a write and copies its value (so later changes by the caller cannot reach it). */
function decide(write: StateWrite): DecidedKey {
  const { key } = write;
  const bad = (why: string) => new SharedStateError('invalid_write', `The write of "${key}" ${why}.`);
  if (write.delete !== undefined && write.delete !== true) throw bad('has delete set to something other than true');
  if (write.delete && 'value' in write) throw bad('has both a value and delete: keep one');
  if (!write.delete && !('value' in write)) throw bad('has no value: give one, or delete: true');
  if (write.expectedVersion !== undefined && !(Number.isInteger(write.expectedVersion) && write.expectedVersion >= 0)) {
    throw bad('has an expectedVersion that is not a whole number >= 0 (0 = the key must be absent)');
  }
  if (write.ttlMs !== undefined && !(Number.isFinite(write.ttlMs) && write.ttlMs > 0)) {
    throw bad('has a ttlMs that is not a positive number of milliseconds');
  }
  if (write.delete && write.ttlMs !== undefined) throw bad('deletes the key and gives it a ttlMs: drop the ttlMs');
  const decided: DecidedKey = { key };
  if (write.delete) decided.delete = true;
  else decided.value = frozenJsonCopy(key, write.value);
  if (write.expectedVersion !== undefined) decided.expectedVersion = write.expectedVersion;
  if (write.ttlMs !== undefined) decided.ttlMs = write.ttlMs;
  return decided;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a whole number >= 1, got ${value}.`);
  }
  return value;
}
