import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';
import type { SessionEventCounts, SessionTotals } from '../../../protocol/trainer/session.ts';

/**
 * Sums a session's `llm_response` events into its totals (spec 001 §7.6, §11.2). Other events
 * are ignored, so the full timeline may be passed.
 */
export function aggregateUsage(events: readonly SessionEvent[]): SessionTotals {
  let total = 0;
  let cached = 0;
  let prompt = 0;
  let completion = 0;
  let cost = 0;
  let calls = 0;
  for (const event of events) {
    if (event.event_type !== 'llm_response') continue;
    const { tokens, cost_cents } = event.data;
    total += tokens.total;
    cached += tokens.cached;
    prompt += tokens.prompt;
    completion += tokens.completion;
    cost += cost_cents;
    calls += 1;
  }
  const seen = prompt + cached;
  return {
    total_tokens: total,
    cached_tokens: cached,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_cost_cents: cost,
    // The formula of §11.2 as written: cached / (prompt + cached) * 100.
    cache_hit_rate: seen === 0 ? 0 : (cached / seen) * 100,
    llm_calls: calls,
  };
}

/** Counts a session's events by kind (spec 001 §7.8, `agent_session_summaries`). */
export function countEvents(events: readonly SessionEvent[]): SessionEventCounts {
  const counts: SessionEventCounts = {
    event_count: events.length,
    message_count: 0,
    llm_call_count: 0,
    tool_call_count: 0,
    error_count: 0,
    artifact_count: 0,
  };
  for (const event of events) {
    if (event.event_type === 'user_message') counts.message_count += 1;
    else if (event.event_type === 'llm_request') counts.llm_call_count += 1;
    else if (event.event_type === 'tool_call') counts.tool_call_count += 1;
    else if (event.event_type === 'error') counts.error_count += 1;
    else if (event.event_type === 'artifact') counts.artifact_count += 1;
  }
  return counts;
}
