import { describe, expect, it } from 'vitest';
import { aggregateUsage, countEvents } from '../../../../../actors/trainer/events/event-store-totals.ts';
import { asEvents, llmResponseData } from '../../../../support/trainer/trainer-events.ts';

describe('aggregateUsage', () => {
  it('is all zeros, hit rate included, for a session without model calls', () => {
    const events = asEvents([{ event_type: 'user_message', data: { message: 'hi' } }]);
    expect(aggregateUsage(events)).toEqual({
      total_tokens: 0,
      cached_tokens: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      total_cost_cents: 0,
      cache_hit_rate: 0,
      llm_calls: 0,
    });
  });

  it('sums each field of every llm_response', () => {
    const events = asEvents([
      { event_type: 'llm_response', data: llmResponseData(100, 10, 300, 0.5) },
      { event_type: 'llm_response', data: llmResponseData(50, 20, 0, 0.25) },
    ]);
    expect(aggregateUsage(events)).toEqual({
      total_tokens: 410 + 70,
      cached_tokens: 300,
      prompt_tokens: 150,
      completion_tokens: 30,
      total_cost_cents: 0.75,
      cache_hit_rate: (300 / 450) * 100,
      llm_calls: 2,
    });
  });
});

describe('countEvents', () => {
  it('counts nothing in an empty session', () => {
    expect(countEvents([])).toEqual({
      event_count: 0,
      message_count: 0,
      llm_call_count: 0,
      tool_call_count: 0,
      error_count: 0,
      artifact_count: 0,
    });
  });
});
