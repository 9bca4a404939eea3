import type { AgentSession, DailyMetrics } from '../../../protocol/trainer/session.ts';

/**
 * Groups a user's sessions by the UTC day they were created on and sums their totals
 * (spec 001 §7.8, `agent_daily_metrics`), oldest day first.
 */
export function summarizeDays(userId: string, sessions: readonly AgentSession[]): DailyMetrics[] {
  const days = new Map<string, DailyMetrics>();
  for (const session of sessions) {
    const day = new Date(session.created_at).toISOString().slice(0, 10);
    const metrics = days.get(day) ?? {
      user_id: userId,
      day,
      session_count: 0,
      total_tokens: 0,
      cached_tokens: 0,
      total_cost_cents: 0,
    };
    metrics.session_count += 1;
    metrics.total_tokens += session.total_tokens;
    metrics.cached_tokens += session.cached_tokens;
    metrics.total_cost_cents += session.total_cost_cents;
    days.set(day, metrics);
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}
