import type { LlmResponseData } from '../../../protocol/trainer/event-data.ts';
import type { SessionTotals } from '../../../protocol/trainer/session.ts';

/**
 * Sums per-response usage and cost into session totals (spec 001 §11.2) while a loop runs,
 * before `endSession` stores them: tokens and cost add up, and `cache_hit_rate` is
 * `cached / (prompt + cached) * 100` (0 before any token).
 */
export function sessionTotalsOf(responses: readonly Pick<LlmResponseData, 'tokens' | 'cost_cents'>[]): SessionTotals {
  const totals: SessionTotals = {
    total_tokens: 0,
    cached_tokens: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_cost_cents: 0,
    cache_hit_rate: 0,
    llm_calls: 0,
  };
  for (const { tokens, cost_cents } of responses) {
    totals.total_tokens += tokens.total;
    totals.cached_tokens += tokens.cached;
    totals.prompt_tokens += tokens.prompt;
    totals.completion_tokens += tokens.completion;
    totals.total_cost_cents += cost_cents;
    totals.llm_calls += 1;
  }
  const input = totals.prompt_tokens + totals.cached_tokens;
  totals.cache_hit_rate = input === 0 ? 0 : (totals.cached_tokens / input) * 100;
  return totals;
}

/** The share of one response's input read from the cache, in percent (§11.2 for a single call). */
export function cacheHitRate(tokens: { prompt: number; cached: number }): number {
  const input = tokens.prompt + tokens.cached;
  return input === 0 ? 0 : (tokens.cached / input) * 100;
}
