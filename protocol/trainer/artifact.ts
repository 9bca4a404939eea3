import { z } from 'zod';

/** Artifact ids carry the `art_` prefix (spec 001 §12.9: `artifact_id STARTS_WITH "art_"`). */
const ArtifactIdSchema = z
  .string()
  .regex(/^art_[A-Za-z0-9_-]+$/, 'an artifact id looks like art_<letters, digits, _ or ->');

/**
 * A structured output created for the client (spec 001 §7.3, `artifact` event data). A workout
 * is `type: "exercise_list"` with `payload.exercises`; the payload's own schema lives with the
 * tool that creates it, so here it is any JSON object.
 */
export const ArtifactSchema = z.strictObject({
  artifact_id: ArtifactIdSchema,
  type: z.string().min(1),
  schema_version: z.string().min(1),
  title: z.string(),
  summary: z.record(z.string(), z.unknown()),
  auto_start: z.boolean(),
  payload: z.record(z.string(), z.unknown()),
});
export type Artifact = z.infer<typeof ArtifactSchema>;
