import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateCostCents, costOfTokens, tokenUsageOf } from '../../../actors/models/model-cost.ts';
import { MODEL_IDS, MODEL_REGISTRY } from '../../../actors/models/model-registry.ts';
import { sessionTotalsOf } from '../../../actors/trainer/events/session-cost.ts';
import { aggregateUsage } from '../../../actors/trainer/events/event-store-totals.ts';
import { asEvents } from '../../support/trainer/trainer-events.ts';

const count = fc.integer({ min: 0, max: 5_000_000 });
const model = fc.constantFrom(...MODEL_IDS);
const usage = fc.record({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
});

/** §11.1 written out independently: uncached input at the prompt price, reads at the cached price. */
function expectedCents(id: (typeof MODEL_IDS)[number], prompt: number, completion: number, cached: number): number {
  const p = MODEL_REGISTRY[id].pricing;
  return (((prompt - cached) * p.prompt + completion * p.completion + cached * p.cached_prompt) / 1_000_000) * 100;
}

const close = (actual: number, expected: number) =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));

describe('cost (spec 001 §11.1)', () => {
  it('matches the formula for any usage on every model', () => {
    fc.assert(
      fc.property(model, count, count, count, (id, a, b, completion) => {
        const [cached, prompt] = a <= b ? [a, b] : [b, a];
        const cents = calculateCostCents(id, prompt, completion, { cache_read_input_tokens: cached });
        expect(close(cents, expectedCents(id, prompt, completion, cached))).toBe(true);
        expect(cents).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('without cache information is prompt plus completion', () => {
    fc.assert(
      fc.property(model, count, count, (id, prompt, completion) => {
        expect(close(calculateCostCents(id, prompt, completion), expectedCents(id, prompt, completion, 0))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never costs more when input is read from the cache, and is linear in each count', () => {
    fc.assert(
      fc.property(model, count, count, fc.integer({ min: 1, max: 1000 }), (id, prompt, completion, moved) => {
        const cachedPart = Math.min(moved, prompt);
        const withCache = calculateCostCents(id, prompt, completion, { cache_read_input_tokens: cachedPart });
        expect(withCache).toBeLessThanOrEqual(calculateCostCents(id, prompt, completion) + 1e-12);
        const double = calculateCostCents(id, prompt * 2, completion * 2, { cache_read_input_tokens: cachedPart * 2 });
        expect(close(double, withCache * 2)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('prices a response usage through TokenUsage exactly as the formula over the API counts', () => {
    fc.assert(
      fc.property(model, usage, (id, raw) => {
        const tokens = tokenUsageOf(raw);
        expect(tokens.total).toBe(
          raw.input_tokens + raw.cache_creation_input_tokens + raw.cache_read_input_tokens + raw.output_tokens,
        );
        const allInput = raw.input_tokens + raw.cache_creation_input_tokens + raw.cache_read_input_tokens;
        expect(
          close(costOfTokens(id, tokens), expectedCents(id, allInput, raw.output_tokens, raw.cache_read_input_tokens)),
        ).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('orders the models by price for the same usage: Haiku < Sonnet < Opus', () => {
    fc.assert(
      fc.property(
        usage.filter((u) => u.input_tokens + u.output_tokens > 0),
        (raw) => {
          const tokens = tokenUsageOf(raw);
          const [haiku, sonnet, opus] = MODEL_IDS.map((id) => costOfTokens(id, tokens));
          expect(haiku).toBeLessThan(sonnet as number);
          expect(sonnet).toBeLessThan(opus as number);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('session totals (spec 001 §11.2)', () => {
  it('agree with the event store aggregation for any list of responses', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(model, usage), { maxLength: 12 }), (calls) => {
        const responses = calls.map(([id, raw]) => {
          const tokens = tokenUsageOf(raw);
          return { raw_response: {}, tokens, cost_cents: costOfTokens(id, tokens) };
        });
        const mine = sessionTotalsOf(responses);
        const stored = aggregateUsage(
          asEvents(responses.map((data) => ({ event_type: 'llm_response' as const, data }))),
        );
        expect(mine.total_tokens).toBe(stored.total_tokens);
        expect(mine.cached_tokens).toBe(stored.cached_tokens);
        expect(mine.llm_calls).toBe(calls.length);
        expect(close(mine.total_cost_cents, stored.total_cost_cents)).toBe(true);
        expect(close(mine.cache_hit_rate, stored.cache_hit_rate)).toBe(true);
        expect(mine.cache_hit_rate).toBeGreaterThanOrEqual(0);
        expect(mine.cache_hit_rate).toBeLessThanOrEqual(100);
      }),
      { numRuns: 300 },
    );
  });
});
