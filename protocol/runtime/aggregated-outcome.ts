import { z } from 'zod';
import { OutcomeStatusSchema } from './outcome-status.ts';

/** How the outcomes of a fan-out combine into one (spec 002, "Aggregation Strategies"). */
export const AggregationStrategySchema = z.enum(['all_success', 'any_success', 'majority', 'first_success']);
export type AggregationStrategy = z.infer<typeof AggregationStrategySchema>;

/** One child of a fan-out as the aggregate reports it (002's `ChildOutcomeSummary`). */
export const ChildOutcomeSummarySchema = z.object({
  message_id: z.string().min(1),
  status: OutcomeStatusSchema,
  /** 0..1, self-assessed; a child that never reported (timeout, cancelled) counts as 0. */
  confidence: z.number().min(0).max(1),
  specialist: z.string(),
  /** The child's weight in the aggregated confidence (default 1). */
  weight: z.number().nonnegative().optional(),
});
export type ChildOutcomeSummary = z.infer<typeof ChildOutcomeSummarySchema>;

/** The combined outcome of a fan-out (002's `AggregatedOutcome`), with what the rules decided. */
export const AggregatedOutcomeSchema = z.object({
  strategy_used: AggregationStrategySchema,
  child_outcomes: z.array(ChildOutcomeSummarySchema),
  aggregated_status: OutcomeStatusSchema,
  /** Weighted average of the confidences of the children the status rests on. */
  aggregated_confidence: z.number().min(0).max(1),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** 002's Partial Success Rule 2: most children did not succeed, the strategy should be revised. */
  revise_strategy: z.boolean(),
  /** 002's Partial Success Rule 3: nothing succeeded, escalate with every error. */
  escalate: z.boolean(),
});
export type AggregatedOutcome = z.infer<typeof AggregatedOutcomeSchema>;
