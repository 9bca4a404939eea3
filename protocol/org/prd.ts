import { z } from 'zod';
import { OrgPrioritySchema } from './envelope.ts';

const FeatureIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, _ and - (at most 64)');

/**
 * A constraint of the PRD that bears on a decision: `topic` is what it constrains (`storage`,
 * `auth`), `value` what it demands (`offline-first`). The chief checks it against active decisions
 * tagged with the same topic.
 */
export const PrdConstraintSchema = z.strictObject({
  topic: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a lowercase tag such as storage'),
  value: z.string().min(1).max(200),
});
export type PrdConstraint = z.infer<typeof PrdConstraintSchema>;

/** One feature of a PRD with its acceptance criteria (each becomes a story and test cases). */
export const PrdFeatureSchema = z.strictObject({
  id: FeatureIdSchema,
  title: z.string().min(1).max(200),
  acceptance_criteria: z.array(z.string().min(1).max(500)).min(1).max(20),
  constraints: z.array(PrdConstraintSchema).max(10).optional(),
});
export type PrdFeature = z.infer<typeof PrdFeatureSchema>;

/** A product requirements document as a user submits it (issue 14). Feature ids are unique. */
export const PrdSchema = z
  .strictObject({
    title: z.string().min(1).max(200),
    features: z.array(PrdFeatureSchema).min(1).max(30),
    priority: OrgPrioritySchema.optional(),
  })
  .superRefine((prd, ctx) => {
    const seen = new Set<string>();
    prd.features.forEach((feature, index) => {
      if (seen.has(feature.id))
        ctx.addIssue({
          code: 'custom',
          path: ['features', index, 'id'],
          message: `duplicate feature id ${feature.id}`,
        });
      seen.add(feature.id);
    });
  });
export type Prd = z.infer<typeof PrdSchema>;
