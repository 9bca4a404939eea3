import { z } from 'zod';
import { CoscientistAgentSchema } from './envelope.ts';

/*
 * The payload `data` of each message the co-scientist routes (spec 003's three patterns), by
 * `header.message_type`. Every message has the SUPERVISOR at one end (`routing-table.ts`).
 */

/** The agents that run tasks (every agent but the SUPERVISOR, which assigns them). */
export const WorkerAgentSchema = CoscientistAgentSchema.exclude(['SUPERVISOR']);
export type WorkerAgent = z.infer<typeof WorkerAgentSchema>;

/** Spec 003's 1-10 priority (lower is more urgent). */
export const SpecPrioritySchema = z.int().min(1).max(10);

/** Pattern 1: the SUPERVISOR writes a task (`task_assignment`, SUPERVISOR -> its agent). */
export const TaskAssignmentSchema = z.strictObject({
  task_id: z.string().min(1),
  agent_type: WorkerAgentSchema,
  input_data: z.record(z.string(), z.unknown()),
  priority: SpecPrioritySchema,
  dependencies: z.array(z.string().min(1)),
});
export type TaskAssignment = z.infer<typeof TaskAssignmentSchema>;

/** Pattern 1, step 7: the agent signals how its task ended (`task_result`, agent -> SUPERVISOR). */
export const TaskResultSchema = z.strictObject({
  task_id: z.string().min(1),
  status: z.enum(['completed', 'failed', 'timed_out', 'cancelled']),
  /** The context-memory entries the task wrote (a timed-out task's are marked partial). */
  entry_ids: z.array(z.string()),
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
});
export type TaskResult = z.infer<typeof TaskResultSchema>;

/** Pattern 2, step 4: how target agents use feedback. */
export const IncorporationStrategySchema = z.enum(['prompt_augmentation', 'criteria_weighting', 'exclusion_list']);
export type IncorporationStrategy = z.infer<typeof IncorporationStrategySchema>;

/** Pattern 2: feedback written by META_REVIEW, announced by the SUPERVISOR (`feedback_broadcast`, to `broadcast`). */
export const FeedbackBroadcastSchema = z.strictObject({
  feedback_type: z.enum(['meta_review', 'research_overview']),
  target_agents: z.array(WorkerAgentSchema).min(1),
  /** The context-memory entries that hold the feedback content. */
  feedback_entry_ids: z.array(z.string()).min(1),
  feedback_content: z.string(),
  incorporation_strategy: IncorporationStrategySchema,
});
export type FeedbackBroadcast = z.infer<typeof FeedbackBroadcastSchema>;

/** Pattern 3: how a pair is debated (the paper: multi-turn debates for the top of the ranking). */
export const DebateFormatSchema = z.enum(['multi_turn_debate', 'single_comparison']);
export type DebateFormat = z.infer<typeof DebateFormatSchema>;

/** The review criteria every judgement scores (REFLECTION's reviews and the debates). */
export const CriterionSchema = z.enum(['novelty', 'plausibility', 'testability']);
export type Criterion = z.infer<typeof CriterionSchema>;

/** Pattern 3: how a debate is scored: weights per criterion, summing to 1. */
export const EvaluationCriteriaSchema = z
  .strictObject({ weights: z.strictObject({ novelty: z.number(), plausibility: z.number(), testability: z.number() }) })
  .refine((c) => Math.abs(c.weights.novelty + c.weights.plausibility + c.weights.testability - 1) < 1e-9, {
    message: 'The weights must sum to 1.',
    path: ['weights'],
  });
export type EvaluationCriteria = z.infer<typeof EvaluationCriteriaSchema>;

/** One pair of a tournament and how to debate it. */
export const HypothesisPairSchema = z.strictObject({
  a: z.string().min(1),
  b: z.string().min(1),
  debate_format: DebateFormatSchema,
});
export type HypothesisPair = z.infer<typeof HypothesisPairSchema>;

/** Pattern 3, step 1: RANKING asks the SUPERVISOR for a tournament (`tournament_request`, RANKING -> SUPERVISOR). */
export const TournamentRequestSchema = z.strictObject({
  hypothesis_pairs: z.array(HypothesisPairSchema),
  debate_format: DebateFormatSchema,
  evaluation_criteria: EvaluationCriteriaSchema,
});
export type TournamentRequest = z.infer<typeof TournamentRequestSchema>;

/** Pattern 3, step 4: one debate's result, written to context memory (an inconsistent verdict is no result). */
export const DebateResultSchema = z.strictObject({
  debate_id: z.string().min(1),
  winner_id: z.string().min(1),
  loser_id: z.string().min(1),
  debate_transcript: z.array(z.strictObject({ speaker: z.string(), text: z.string() })),
  confidence_score: z.number().min(0).max(1),
});
export type DebateResult = z.infer<typeof DebateResultSchema>;

/** Natural-language steering: the SUPERVISOR announces new guidance (`guidance_update`, SUPERVISOR -> GENERATION). */
export const GuidanceUpdateSchema = z.strictObject({
  guidance_entry_id: z.string().min(1),
  concepts: z.array(z.string()),
});
export type GuidanceUpdate = z.infer<typeof GuidanceUpdateSchema>;

/** Each `message_type` with the schema of its `payload.data`. */
export const COSCIENTIST_PAYLOADS = {
  task_assignment: TaskAssignmentSchema,
  task_result: TaskResultSchema,
  feedback_broadcast: FeedbackBroadcastSchema,
  tournament_request: TournamentRequestSchema,
  guidance_update: GuidanceUpdateSchema,
} as const;
export type CoscientistMessageType = keyof typeof COSCIENTIST_PAYLOADS;
