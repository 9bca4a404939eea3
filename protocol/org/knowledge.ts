import { z } from 'zod';
import { OrgAgentSchema } from './envelope.ts';

/** The typed relations between knowledge-graph nodes; a node is `superseded` only through `supersedes`. */
export const KnowledgeRelationTypeSchema = z.enum([
  'supersedes',
  'derived_from',
  'depends_on',
  'conflicts_with',
  'relates_to',
]);

export const KnowledgeRelationSchema = z.strictObject({
  type: KnowledgeRelationTypeSchema,
  to: z.string().min(1),
});
export type KnowledgeRelation = z.infer<typeof KnowledgeRelationSchema>;

export const KnowledgeStatusSchema = z.enum(['active', 'superseded', 'archived']);

/**
 * Spec 004's Knowledge Graph Contribution, with the id it is stored under, its project, its
 * typed relations and when it was recorded.
 */
export const KnowledgeNodeSchema = z.strictObject({
  node_id: z.string().min(1),
  node_type: z.enum(['decision', 'deliverable', 'learning', 'risk']),
  title: z.string().min(1).max(200),
  content: z.string().min(1),
  author_agent: OrgAgentSchema,
  sprint_id: z.string().min(1),
  related_nodes: z.array(z.string().min(1)),
  tags: z.array(z.string().regex(/^[a-z][a-z0-9-]*$/)),
  status: KnowledgeStatusSchema,
  relations: z.array(KnowledgeRelationSchema),
  /** What a decision settles (`storage` = `server-only`): two active decisions on one topic must agree. */
  claim: z.strictObject({ topic: z.string().min(1), value: z.string().min(1) }).optional(),
  project_id: z.string().min(1),
  recorded_at: z.string(),
});
export type KnowledgeNode = z.infer<typeof KnowledgeNodeSchema>;

/** `GET /org/knowledge`'s filters. */
export const KnowledgeQuerySchema = z.strictObject({
  type: KnowledgeNodeSchema.shape.node_type.optional(),
  tag: z.string().min(1).optional(),
  status: KnowledgeStatusSchema.optional(),
  q: z.string().min(1).max(200).optional(),
});
export type KnowledgeQuery = z.infer<typeof KnowledgeQuerySchema>;
