import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';
import type { SessionEventCounts, SessionTotals } from '../../../protocol/trainer/session.ts';

/**
 * A session's event counts (spec 001 §7.8) and `llm_response` sums (§7.6, §11.2), kept as
 * events arrive, so that neither ending a session nor summarizing it reads its log again.
 */
export class SessionTally {
  readonly #counts: SessionEventCounts = {
    event_count: 0,
    message_count: 0,
    llm_call_count: 0,
    tool_call_count: 0,
    error_count: 0,
    artifact_count: 0,
  };
  #total = 0;
  #cached = 0;
  #prompt = 0;
  #completion = 0;
  #cost = 0;
  #calls = 0;

  /** Counts one event (each event once: the caller sees to that). */
  add(event: SessionEvent): void {
    const counts = this.#counts;
    counts.event_count += 1;
    switch (event.event_type) {
      case 'user_message':
        counts.message_count += 1;
        break;
      case 'llm_request':
        counts.llm_call_count += 1;
        break;
      case 'tool_call':
        counts.tool_call_count += 1;
        break;
      case 'error':
        counts.error_count += 1;
        break;
      case 'artifact':
        counts.artifact_count += 1;
        break;
      case 'llm_response': {
        const { tokens, cost_cents } = event.data;
        this.#total += tokens.total;
        this.#cached += tokens.cached;
        this.#prompt += tokens.prompt;
        this.#completion += tokens.completion;
        this.#cost += cost_cents;
        this.#calls += 1;
        break;
      }
    }
  }

  counts(): SessionEventCounts {
    return { ...this.#counts };
  }

  totals(): SessionTotals {
    const seen = this.#prompt + this.#cached;
    return {
      total_tokens: this.#total,
      cached_tokens: this.#cached,
      prompt_tokens: this.#prompt,
      completion_tokens: this.#completion,
      total_cost_cents: this.#cost,
      // The formula of §11.2 as written: cached / (prompt + cached) * 100.
      cache_hit_rate: seen === 0 ? 0 : (this.#cached / seen) * 100,
      llm_calls: this.#calls,
    };
  }
}

const tallyOf = (events: readonly SessionEvent[]): SessionTally => {
  const tally = new SessionTally();
  for (const event of events) tally.add(event);
  return tally;
};

/**
 * Sums a session's `llm_response` events into its totals (spec 001 §7.6, §11.2). Other events
 * are ignored, so the full timeline may be passed.
 */
export function aggregateUsage(events: readonly SessionEvent[]): SessionTotals {
  return tallyOf(events).totals();
}

/** Counts a session's events by kind (spec 001 §7.8, `agent_session_summaries`). */
export function countEvents(events: readonly SessionEvent[]): SessionEventCounts {
  return tallyOf(events).counts();
}
