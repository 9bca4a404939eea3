import { z } from 'zod';
import { CoscientistAgentSchema } from './envelope.ts';

/** The kinds of context-memory entries; each is a shared-state namespace with its own writers. */
export const EntryTypeSchema = z.enum([
  'goal',
  'guidance',
  'hypothesis',
  'review',
  'debate',
  'match',
  'ranking',
  'feedback',
  'overview',
  'error',
]);
export type EntryType = z.infer<typeof EntryTypeSchema>;

const DateTimeSchema = z.iso.datetime({ offset: true });

/**
 * Spec 003's ContextEntry as stored: `entry_id, agent_id, entry_type, content, created_at,
 * updated_at, dependencies`; `version` is the shared state's version of the write that made it
 * (added when read, see {@link ContextEntry}). `partial` marks what a timed-out task left: no
 * dependent consumes it until the SUPERVISOR promotes it (`promoted`).
 */
export const StoredEntrySchema = z.strictObject({
  entry_id: z.string().min(1),
  agent_id: CoscientistAgentSchema,
  entry_type: EntryTypeSchema,
  content: z.record(z.string(), z.unknown()),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  dependencies: z.array(z.string()),
  partial: z.boolean().optional(),
  promoted: z.boolean().optional(),
});
export type StoredEntry = z.infer<typeof StoredEntrySchema>;

/** A context-memory entry as agents and routes read it: the stored entry and its version. */
export type ContextEntry = StoredEntry & { version: number };

/** Whether a dependent may consume an entry: final, or partial and promoted by the SUPERVISOR. */
export function isConsumable(entry: Pick<StoredEntry, 'partial' | 'promoted'>): boolean {
  return entry.partial !== true || entry.promoted === true;
}
