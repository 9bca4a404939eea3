import { z } from 'zod';
import { AggregatedOutcomeSchema, AggregationStrategySchema } from './aggregated-outcome.ts';
import { OutcomeStatusSchema } from './outcome-status.ts';

/*
 * What a delegation tree journals, one record per input it took: a delegation, an outcome (late
 * ones too), a watchdog's timeout, a cancellation, a retry sent after `throttled`, the aggregate
 * of a fan-out once its last child ended. Replaying the
 * records in order through the same step rebuilds the tree exactly, so every value a step drew
 * (a clamped deadline, a backoff delay, partial results) is in the record, never recomputed.
 */

const id = z.string().min(1);
const time = z.number().nonnegative();

/** A delegation started: `deadline` is absolute, already clamped to the parent's. */
export const DelegatedRecordSchema = z.object({
  kind: z.literal('delegated'),
  id,
  parent: id.nullable(),
  owner: z.string().min(1),
  target: z.string().min(1),
  deadline: time,
  /** The requested timeout asked for more than the parent had left. */
  clamped: z.boolean(),
  at: time,
  data: z.unknown().optional(),
  /** The fan-out this delegation belongs to, and how its outcomes combine. */
  group: z.object({ id, strategy: AggregationStrategySchema }).optional(),
});
export type DelegatedRecord = z.infer<typeof DelegatedRecordSchema>;

/**
 * An outcome reported by the target. `late` when the node had already ended (kept in the journal,
 * changes nothing). For `throttled`, `retryAt` is when the retry goes out, or null when none fits
 * (retries spent, or the next would miss the deadline): the node then fails.
 */
export const OutcomeRecordSchema = z.object({
  kind: z.literal('outcome'),
  id,
  status: OutcomeStatusSchema,
  result: z.unknown().optional(),
  /** Self-assessed, 0..1: what a fan-out's aggregated confidence averages. */
  confidence: z.number().min(0).max(1).optional(),
  at: time,
  late: z.boolean(),
  retryAt: time.nullable().optional(),
  /** The id of the message that carried it: the same message again after the node ended is a redelivery. */
  message: id.optional(),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

/** The watchdog found the node still open at its deadline. */
export const TimedOutRecordSchema = z.object({ kind: z.literal('timed_out'), id, at: time });
export type TimedOutRecord = z.infer<typeof TimedOutRecordSchema>;

/** A cancellation arrived; `partials` holds the partial results of each node it cancelled. */
export const CancelledRecordSchema = z.object({
  kind: z.literal('cancelled'),
  id,
  reason: z.string(),
  cascade: z.boolean(),
  at: time,
  partials: z.record(z.string(), z.unknown()),
});
export type CancelledRecord = z.infer<typeof CancelledRecordSchema>;

/** The retry after a `throttled` outcome went out (attempt counts retries from 1). */
export const RetriedRecordSchema = z.object({
  kind: z.literal('retried'),
  id,
  attempt: z.number().int().positive(),
  at: time,
});
export type RetriedRecord = z.infer<typeof RetriedRecordSchema>;

/** Every child of fan-out `group` has ended: their combined outcome (spec 002's `AggregatedOutcome`). */
export const AggregatedRecordSchema = z.object({
  kind: z.literal('aggregated'),
  group: id,
  at: time,
  aggregate: AggregatedOutcomeSchema,
});
export type AggregatedRecord = z.infer<typeof AggregatedRecordSchema>;

export const DelegationRecordSchema = z.discriminatedUnion('kind', [
  DelegatedRecordSchema,
  OutcomeRecordSchema,
  TimedOutRecordSchema,
  CancelledRecordSchema,
  RetriedRecordSchema,
  AggregatedRecordSchema,
]);
export type DelegationRecord = z.infer<typeof DelegationRecordSchema>;
