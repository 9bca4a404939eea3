import { z } from 'zod';
import { AggregationStrategySchema } from '../runtime/aggregated-outcome.ts';
import { ProblemSchema } from './problem.ts';

/** The bounds of a task's `timeout_ms` over HTTP: 1 s .. 10 min (the Monitor's whole budget). */
export const TASK_TIMEOUT_RANGE = Object.freeze({ min: 1_000, max: 600_000 });

/**
 * The body of `POST /tiers/tasks`: a programming problem to solve, in JavaScript (the only
 * language the sandbox runs). Strict: an unknown field is refused by name.
 *
 * @example
 * TaskRequestSchema.parse({ objective: 'Implement binary search',
 *   problem: { statement: 'Find target in sorted nums, else -1.', function_name: 'search',
 *     language: 'javascript', test_cases: [{ input: [[1, 3, 5], 3], expected: 1 }] } });
 */
export const TaskRequestSchema = z.strictObject({
  objective: z.string().min(1).max(2_000),
  problem: ProblemSchema.extend({
    language: z.literal('javascript', 'Only "javascript" is run over HTTP (the sandbox runs JavaScript).'),
  }),
  constraints: z.array(z.string().min(1).max(500)).max(50).optional(),
  /** 0 = critical .. 4 = backlog (the runtime's scale); 2 when absent. */
  priority: z.int().min(0).max(4).optional(),
  timeout_ms: z.int().min(TASK_TIMEOUT_RANGE.min).max(TASK_TIMEOUT_RANGE.max).optional(),
  /** The Dispatcher's strategy for the solving wave; the Architect's rule table chooses when absent. */
  aggregation_strategy: AggregationStrategySchema.optional(),
});
export type TaskRequest = z.infer<typeof TaskRequestSchema>;

/** The body of `POST /tiers/tasks/:id/cancel`: spec 002's cancellation, addressed by the task. */
export const CancelRequestSchema = z.strictObject({
  reason: z.string().min(1).max(500),
  cascade: z.boolean(),
});
export type CancelRequest = z.infer<typeof CancelRequestSchema>;

/** The body of `POST /tiers/tasks/:id/clarification`: the user's answer to the task's question. */
export const ClarificationRequestSchema = z.strictObject({
  answer: z.string().min(1).max(4_000),
});
export type ClarificationRequest = z.infer<typeof ClarificationRequestSchema>;
