import type { Tier } from './envelope.ts';

/** Spec 002's tiers as the Beads permission table names them (its columns). */
export const BEADS_ROLES = ['MONITOR', 'ARCHITECT', 'DISPATCHER', 'FLEET'] as const;
export type BeadsRole = (typeof BEADS_ROLES)[number];

/** The Beads role (table column) of each tier. */
export const BEADS_ROLE_OF: Readonly<Record<Tier, BeadsRole>> = {
  PROGRESS_MONITOR: 'MONITOR',
  ABSTRACT_ARCHITECT: 'ARCHITECT',
  ROUTING_DISPATCHER: 'DISPATCHER',
  SPECIALIZED_FLEET: 'FLEET',
};

/**
 * Spec 002's "Write Permissions" table, cell by cell (rows: namespaces, columns: `BEADS_ROLES`).
 * Every tier reads every namespace; only `RW` writes.
 */
export const BEADS_TABLE = {
  task: ['R', 'RW', 'R', 'R'],
  routing: ['R', 'R', 'RW', 'R'],
  execution: ['R', 'R', 'R', 'RW'],
  system: ['RW', 'R', 'R', 'R'],
  history: ['RW', 'R', 'R', 'R'],
} as const;
export type BeadsNamespace = keyof typeof BEADS_TABLE;

/**
 * Where each namespace lives (issue 12): `task/`, `routing/` and `execution/` per task; `system/`
 * and `history/` per user, so routing accuracy, bounds and cached routines carry across a user's tasks.
 */
export const BEADS_SCOPES: Readonly<Record<BeadsNamespace, 'task' | 'user'>> = {
  task: 'task',
  routing: 'task',
  execution: 'task',
  system: 'user',
  history: 'user',
};

/** A shared-state schema, structurally (`actors/runtime/shared-state/shared-state-schema.ts`). */
interface NamespacesSchema {
  namespaces: Record<string, { scope: string; access: Record<string, 'R' | 'RW'> }>;
}

/** The Beads contract as a shared-state schema: the table above, with its scopes. */
export const BEADS_SCHEMA: NamespacesSchema = {
  namespaces: Object.fromEntries(
    Object.entries(BEADS_TABLE).map(([namespace, row]) => [
      namespace,
      {
        scope: BEADS_SCOPES[namespace as BeadsNamespace],
        access: Object.fromEntries(BEADS_ROLES.map((role, i) => [role, row[i]!])),
      },
    ]),
  ),
};

/** Where the runtime's dedup service caches each tier's answers: `system/seen-messages/{tier}/{id}`. */
export const SEEN_MESSAGES_PREFIX = 'system/seen-messages';

/** The one role that writes seen messages: the runtime's dedup service, not a tier. */
export const DEDUP_ROLE = 'DEDUP';

/**
 * Spec 002 puts each tier's seen messages under `system/`, which only the Monitor may write. They
 * are written by the runtime's dedup service instead, outside the permission table: a schema of
 * its own, whose only writer is `DEDUP`, in a scope of its own (`seen`, one per system), so no
 * tier gains a write and the table stays the spec's.
 */
export const SEEN_MESSAGES_SCHEMA: NamespacesSchema = {
  namespaces: { system: { scope: 'seen', access: { [DEDUP_ROLE]: 'RW' } } },
};

/**
 * Whether `role` may read the key a context ref names (`beads:<namespace>/<name>` or
 * `<namespace>/<name>`): its namespace is one of the table's and the role's cell is R or RW.
 *
 * @example
 * isReadableRef('beads:task/constraints', 'FLEET'); // true
 * isReadableRef('beads:problem-statement', 'FLEET'); // false: no namespace
 */
export function isReadableRef(ref: string, role: BeadsRole): boolean {
  const key = ref.startsWith('beads:') ? ref.slice('beads:'.length) : ref;
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return false;
  const row = (BEADS_TABLE as Record<string, readonly string[]>)[key.slice(0, slash)];
  return row !== undefined && row[BEADS_ROLES.indexOf(role)] !== undefined;
}
