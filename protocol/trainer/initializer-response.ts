import { z } from 'zod';
import { DataSourceNameSchema } from './data-source.ts';

/** Why the initializer adds a source (spec 001 §5.3). */
const KnowledgeReasonSchema = z.enum(['not_in_context', 'expand_range', 'refresh_state']);

/**
 * One source to append as knowledge. Every field is required and `days_back` is nullable rather
 * than optional, because OpenAI's strict structured output accepts only required fields.
 */
export const KnowledgeSelectionSchema = z.strictObject({
  source: DataSourceNameSchema,
  reason: KnowledgeReasonSchema,
  days_back: z.int().min(1).max(3650).nullable().describe('Only for workout_history and exercise_distribution'),
});
export type KnowledgeSelection = z.infer<typeof KnowledgeSelectionSchema>;

/** What the initializer agent answers (spec 001 §5.3). */
export const InitializerResponseSchema = z.strictObject({
  reasoning: z.string().describe('Brief explanation of the selection'),
  append_knowledge: z.array(KnowledgeSelectionSchema).describe('New sources to add to the context'),
  use_existing: z.array(DataSourceNameSchema).describe('Already loaded sources the agent should use'),
});
export type InitializerResponse = z.infer<typeof InitializerResponseSchema>;
