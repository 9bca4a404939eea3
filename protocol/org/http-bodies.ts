import { z } from 'zod';
import { PrdConstraintSchema, PrdFeatureSchema, PrdSchema } from './prd.ts';

/** `POST /org/projects`: a PRD, and the sprint it runs in (generated when absent). */
export const CreateProjectBodySchema = z.strictObject({
  prd: PrdSchema,
  sprint_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)
    .optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBodySchema>;

/** `PATCH /org/projects/:id/prd`: features to add or replace (by id), constraints to add to a feature. */
export const AmendPrdBodySchema = z
  .strictObject({
    features: z.array(PrdFeatureSchema).max(30).optional(),
    constraints: z
      .array(z.strictObject({ feature_id: z.string().min(1), constraint: PrdConstraintSchema }))
      .max(20)
      .optional(),
  })
  .refine((body) => (body.features?.length ?? 0) + (body.constraints?.length ?? 0) > 0, {
    message: 'give at least one feature or constraint',
    path: ['features'],
  });
export type AmendPrdBody = z.infer<typeof AmendPrdBodySchema>;

/** `POST /org/projects/:id/escalations/:eid/resolve`: the user's decision; the recommendation only if asked. */
export const ResolveEscalationBodySchema = z.strictObject({
  decision: z.string().min(1).max(2000),
  apply_recommendation: z.boolean().default(false),
});
export type ResolveEscalationBody = z.infer<typeof ResolveEscalationBodySchema>;

/** The status of a project as its views answer it. */
export const ProjectStatusSchema = z.enum(['working', 'waiting_for_user', 'done']);
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>;
