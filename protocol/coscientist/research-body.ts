import { z } from 'zod';
import { DomainSchema } from './domain.ts';

/** `POST /research`: a goal in plain language, and how long and wide to search. */
export const CreateResearchBodySchema = z.strictObject({
  goal: z.string().trim().min(3).max(2000),
  domain: DomainSchema.optional(),
  preferences: z.array(z.string().max(500)).max(20).default([]),
  constraints: z.array(z.string().max(500)).max(20).default([]),
  iterations: z.int().min(1).max(10).default(3),
  hypotheses_per_iteration: z.int().min(1).max(12).default(4),
});
export type CreateResearchBody = z.infer<typeof CreateResearchBodySchema>;

/** `POST /research/:id/guidance`: the scientist's steering, in plain language. */
export const GuidanceBodySchema = z.strictObject({ text: z.string().trim().min(1).max(2000) });
export type GuidanceBody = z.infer<typeof GuidanceBodySchema>;

/** `GET /research/:id/memory?entry_type=`. */
export const MemoryQuerySchema = z.strictObject({
  entry_type: z
    .enum(['goal', 'guidance', 'hypothesis', 'review', 'debate', 'match', 'ranking', 'feedback', 'overview', 'error'])
    .optional(),
});

/** `GET /research/:id/events?until=settled`. */
export const EventsQuerySchema = z.strictObject({ until: z.literal('settled').optional() });
