import { z } from 'zod';
import { CriterionSchema, DebateFormatSchema, IncorporationStrategySchema, WorkerAgentSchema } from './payloads.ts';
import { DomainSchema } from './domain.ts';

/* The `content` of each context-memory entry type (the memory schema of issue 13). */

/** The research goal as the scientist gave it (and the domain it runs in). */
export const GoalContentSchema = z.strictObject({
  goal: z.string(),
  domain: DomainSchema,
  preferences: z.array(z.string()),
  constraints: z.array(z.string()),
  iterations: z.int(),
  hypotheses_per_iteration: z.int(),
});
export type GoalContent = z.infer<typeof GoalContentSchema>;

/** Guidance the SUPERVISOR made of the scientist's words: the concepts GENERATION emphasizes. */
export const GuidanceContentSchema = z.strictObject({
  text: z.string(),
  concepts: z.array(z.string()),
  /** The first iteration that reads it. */
  from_iteration: z.int(),
});
export type GuidanceContent = z.infer<typeof GuidanceContentSchema>;

/** The three parts a hypothesis is composed of (the knowledge base's ids). */
export const ComponentsSchema = z.strictObject({
  intervention: z.string(),
  target: z.string(),
  mechanism: z.string(),
});
export type Components = z.infer<typeof ComponentsSchema>;

/** A hypothesis: never edited once written; EVOLUTION writes new ones naming their parents. */
export const HypothesisContentSchema = z.strictObject({
  text: z.string(),
  components: ComponentsSchema,
  concepts: z.array(z.string()),
  parent_ids: z.array(z.string()),
  iteration: z.int(),
  origin: z.enum(['generation', 'evolution']),
});
export type HypothesisContent = z.infer<typeof HypothesisContentSchema>;

/** One scored criterion of a review, with its reason. */
export const CriterionScoreSchema = z.strictObject({
  criterion: CriterionSchema,
  score: z.number().min(0).max(10),
  reason: z.string(),
});

/** REFLECTION's review: a 0-10 score per criterion with reasons, and the overall mean. */
export const ReviewContentSchema = z.strictObject({
  hypothesis_id: z.string(),
  scores: z.array(CriterionScoreSchema),
  overall: z.number(),
  /** The hypothesis' iteration (so feedback can be measured per generation). */
  iteration: z.int(),
});
export type ReviewContent = z.infer<typeof ReviewContentSchema>;

/** One debate: both orders judged; `result` only when they agree (position bias: else no result). */
export const DebateContentSchema = z.strictObject({
  debate_id: z.string(),
  pair: z.tuple([z.string(), z.string()]),
  format: DebateFormatSchema,
  consistent: z.boolean(),
  winner_id: z.string().optional(),
  loser_id: z.string().optional(),
  debate_transcript: z.array(z.strictObject({ speaker: z.string(), text: z.string() })),
  confidence_score: z.number().min(0).max(1),
});
export type DebateContent = z.infer<typeof DebateContentSchema>;

/** A match RANKING applied: its Elo delta is stored, so every rating can be recomputed. */
export const MatchContentSchema = z.strictObject({
  debate_id: z.string(),
  winner_id: z.string(),
  loser_id: z.string(),
  confidence_score: z.number(),
  elo_delta: z.number(),
  format: DebateFormatSchema,
  /** Position in the deterministic order of its batch. */
  order: z.int(),
  iteration: z.int(),
});
export type MatchContent = z.infer<typeof MatchContentSchema>;

/** The Elo table: every rating and match count, and the debates already applied. */
export const RankingContentSchema = z.strictObject({
  ratings: z.record(z.string(), z.number()),
  matches: z.record(z.string(), z.int()),
  applied: z.array(z.string()),
  k: z.number(),
});
export type RankingContent = z.infer<typeof RankingContentSchema>;

/** META_REVIEW's feedback to one agent type, and how it is to be used. */
export const FeedbackContentSchema = z.strictObject({
  target_agent: WorkerAgentSchema,
  text: z.string(),
  incorporation_strategy: IncorporationStrategySchema,
  /** The criterion reviews found weakest (recurring weakness), if any. */
  weak_criterion: CriterionSchema.optional(),
  /** Knowledge-base components that kept scoring low: avoid them. */
  avoid: z.array(z.string()),
  iteration: z.int(),
});
export type FeedbackContent = z.infer<typeof FeedbackContentSchema>;

/** The research overview META_REVIEW writes each iteration. */
export const OverviewContentSchema = z.strictObject({
  text: z.string(),
  iteration: z.int(),
  top: z.array(z.strictObject({ hypothesis_id: z.string(), elo: z.number(), text: z.string() })),
  mean_review_score: z.number(),
});
export type OverviewContent = z.infer<typeof OverviewContentSchema>;

/** What a failed task wrote (Task Failure Protocol, step 1). */
export const ErrorContentSchema = z.strictObject({ task_id: z.string(), code: z.string(), message: z.string() });
export type ErrorContent = z.infer<typeof ErrorContentSchema>;
