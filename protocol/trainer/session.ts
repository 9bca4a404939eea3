import { z } from 'zod';

/** `active` until the loop ends it: `completed` normally, `error` on a fatal error (spec 001 §7.6). */
export const SessionStatusSchema = z.enum(['active', 'completed', 'error']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** One agent session (spec 001 §7.1, `agent_sessions`). */
export const AgentSessionSchema = z.strictObject({
  id: z.string().min(1),
  user_id: z.string().min(1),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  /** Checkpointing offset: the context holds only events with a greater sequence number. */
  context_start_sequence: z.int().min(0),
  total_tokens: z.int().min(0),
  cached_tokens: z.int().min(0),
  total_cost_cents: z.number().min(0),
  status: SessionStatusSchema,
  metadata: z.record(z.string(), z.unknown()),
});
export type AgentSession = z.infer<typeof AgentSessionSchema>;

/**
 * What `endSession` computes from a session's `llm_response` events (spec 001 §11.2).
 * `cache_hit_rate` is `cached / (prompt + cached) * 100`, 0 when no tokens were used.
 */
export const SessionTotalsSchema = z.strictObject({
  total_tokens: z.int().min(0),
  cached_tokens: z.int().min(0),
  prompt_tokens: z.int().min(0),
  completion_tokens: z.int().min(0),
  total_cost_cents: z.number().min(0),
  cache_hit_rate: z.number().min(0).max(100),
  llm_calls: z.int().min(0),
});
export type SessionTotals = z.infer<typeof SessionTotalsSchema>;

/** Event counts of one session (spec 001 §7.8, `agent_session_summaries`). */
export const SessionEventCountsSchema = z.strictObject({
  event_count: z.int().min(0),
  message_count: z.int().min(0),
  llm_call_count: z.int().min(0),
  tool_call_count: z.int().min(0),
  error_count: z.int().min(0),
  artifact_count: z.int().min(0),
});
export type SessionEventCounts = z.infer<typeof SessionEventCountsSchema>;

/** A session with its event counts (spec 001 §7.8, `agent_session_summaries`). */
export const SessionSummarySchema = AgentSessionSchema.extend(SessionEventCountsSchema.shape);
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** One user's usage on one UTC day (spec 001 §7.8, `agent_daily_metrics`). */
export const DailyMetricsSchema = z.strictObject({
  user_id: z.string().min(1),
  day: z.iso.date(),
  session_count: z.int().min(0),
  total_tokens: z.int().min(0),
  cached_tokens: z.int().min(0),
  total_cost_cents: z.number().min(0),
});
export type DailyMetrics = z.infer<typeof DailyMetricsSchema>;
