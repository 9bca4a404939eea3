import type { SharedStateSchema } from '../../../actors/runtime/shared-state/shared-state-schema.ts';

/** Spec 002's tiers, as the Beads permission table names them (its columns). */
export const BEADS_ROLES = ['MONITOR', 'ARCHITECT', 'DISPATCHER', 'FLEET'] as const;

/**
 * Spec 002's "Write Permissions" table, cell by cell (rows: namespaces, columns: roles), and its
 * scopes: task/routing/execution live per task, system/history per user (issue 11).
 */
export const BEADS_TABLE = {
  task: ['R', 'RW', 'R', 'R'],
  routing: ['R', 'R', 'RW', 'R'],
  execution: ['R', 'R', 'R', 'RW'],
  system: ['RW', 'R', 'R', 'R'],
  history: ['RW', 'R', 'R', 'R'],
} as const;

const SCOPES = { task: 'task', routing: 'task', execution: 'task', system: 'user', history: 'user' } as const;

/** The Beads contract as a shared-state schema. */
export const beadsSchema: SharedStateSchema = {
  namespaces: Object.fromEntries(
    Object.entries(BEADS_TABLE).map(([namespace, row]) => [
      namespace,
      {
        scope: SCOPES[namespace as keyof typeof SCOPES],
        access: Object.fromEntries(BEADS_ROLES.map((role, i) => [role, row[i]!])),
      },
    ]),
  ),
};
