import { z } from 'zod';
import { toErrorIssues, ValidationError } from '../../../protocol/runtime/runtime-error.ts';

/** What a role may do in a namespace: read, or read and write. Every role may read. */
export const AccessSchema = z.enum(['R', 'RW']);
export type Access = z.infer<typeof AccessSchema>;

/** A namespace: the scope its keys live in, and its write-permission table (role -> access). */
export const NamespaceSchema = z.strictObject({
  scope: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a scope name is lowercase letters, digits, _ and -'),
  access: z.record(z.string().min(1), AccessSchema),
});
export type Namespace = z.infer<typeof NamespaceSchema>;

/**
 * A system's shared state, as data: each namespace (the first segment of a key, `task` in
 * `task/current-objective`) with its scope and permission table (spec 002's Beads table is one).
 */
export const SharedStateSchemaSchema = z.strictObject({
  namespaces: z.record(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a namespace is letters, digits, _, . and - (no /)'),
    NamespaceSchema,
  ),
});
export type SharedStateSchema = z.infer<typeof SharedStateSchemaSchema>;

const checked = new WeakSet<SharedStateSchema>();

/**
 * Checks a schema once (each object is checked once however many views open it), throwing a
 * `ValidationError` that names each bad field.
 *
 * @example
 * const schema = defineSharedStateSchema({
 *   namespaces: { task: { scope: 'task', access: { ARCHITECT: 'RW', FLEET: 'R' } } },
 * });
 */
export function defineSharedStateSchema(schema: SharedStateSchema): SharedStateSchema {
  if (checked.has(schema)) return schema;
  const parsed = SharedStateSchemaSchema.safeParse(schema);
  if (!parsed.success) {
    throw new ValidationError(
      'The shared-state schema is invalid: fix the fields named in issues.',
      toErrorIssues(parsed.error.issues),
      'invalid_state_schema',
    );
  }
  checked.add(schema);
  return schema;
}

/** The roles that may write in `namespace`, for error messages. */
export function writersOf(namespace: Namespace): string[] {
  return Object.entries(namespace.access)
    .filter(([, access]) => access === 'RW')
    .map(([role]) => role);
}
