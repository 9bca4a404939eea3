import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateOutcome,
  expectedRange,
  type ObservedOutcome,
  type OutcomeBounds,
} from '../../../../../actors/tiers/monitor/outcome-bounds.ts';
import { OutcomeStatusSchema } from '../../../../../protocol/runtime/outcome-status.ts';

const outcome = (over: Partial<ObservedOutcome> = {}): ObservedOutcome => ({
  task_type: 'execute_code',
  confidence: 0.9,
  execution_time_ms: 200,
  status: 'success',
  ...over,
});
const learn = (outcomes: ObservedOutcome[], bounds: OutcomeBounds = {}) =>
  outcomes.reduce((b, o) => evaluateOutcome(b, o).bounds, bounds);

const outcomeArbitrary = fc.record({
  task_type: fc.constantFrom('execute_code', 'design_tests', 'review_complexity'),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  execution_time_ms: fc.nat({ max: 60_000 }),
  status: fc.constantFrom(...OutcomeStatusSchema.options),
});

describe('evaluateOutcome', () => {
  it('sets the bounds from the first outcome of a type, without surprise', () => {
    const judged = evaluateOutcome({}, outcome({ confidence: 0.01, execution_time_ms: 59_000, status: 'failed' }));
    expect(judged.surprise_flag).toBe(false);
    expect(judged.surprise_reason).toBeNull();
    expect(judged.bounds['execute_code']!.confidence.mean).toBe(0.01);
  });

  it('flags a confidence or a time far outside what the type has shown, and says which', () => {
    const bounds = learn([outcome(), outcome({ confidence: 0.92, execution_time_ms: 220 })]);
    expect(evaluateOutcome(bounds, outcome({ confidence: 0.88, execution_time_ms: 210 })).surprise_flag).toBe(false);
    const low = evaluateOutcome(bounds, outcome({ confidence: 0.3 }));
    expect(low.surprise_reason).toMatch(/^execute_code: confidence 0.3 is outside 0.7\d?\.\.1/);
    const slow = evaluateOutcome(bounds, outcome({ execution_time_ms: 5_000 }));
    expect(slow.surprise_reason).toMatch(/execution time 5000 ms is outside \d+\.\.\d+ ms/);
  });

  it('flags a failure where the type has always succeeded (3 outcomes or more)', () => {
    const two = learn([outcome(), outcome()]);
    expect(evaluateOutcome(two, outcome({ status: 'failed' })).surprise_flag).toBe(false);
    const three = learn([outcome(), outcome(), outcome()]);
    expect(evaluateOutcome(three, outcome({ status: 'failed' })).surprise_reason).toMatch(
      /failed where 100 % of 3 succeeded/,
    );
  });

  it('keeps each type apart', () => {
    const bounds = learn([outcome(), outcome()]);
    expect(evaluateOutcome(bounds, outcome({ task_type: 'review_complexity', confidence: 0.1 })).surprise_flag).toBe(
      false,
    );
  });

  it('learns every outcome: exact running mean and variance, min and max, counts', () => {
    fc.assert(
      fc.property(fc.array(outcomeArbitrary, { minLength: 1, maxLength: 30 }), (outcomes) => {
        const bounds = learn(outcomes);
        for (const [type, b] of Object.entries(bounds)) {
          const mine = outcomes.filter((o) => o.task_type === type);
          const times = mine.map((o) => o.execution_time_ms);
          const mean = times.reduce((a, t) => a + t, 0) / times.length;
          const variance = times.reduce((a, t) => a + (t - mean) ** 2, 0) / times.length;
          expect(b.outcomes).toBe(mine.length);
          expect(b.successes).toBe(mine.filter((o) => o.status === 'success').length);
          expect(b.execution_time_ms.mean).toBeCloseTo(mean, 6);
          expect(b.execution_time_ms.m2 / b.execution_time_ms.count).toBeCloseTo(variance, 3);
          expect(b.execution_time_ms.min).toBe(Math.min(...times));
          expect(b.confidence.max).toBe(Math.max(...mine.map((o) => o.confidence)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never flags a value inside the range it learned, and never changes the input bounds', () => {
    fc.assert(
      fc.property(fc.array(outcomeArbitrary, { minLength: 1, maxLength: 20 }), outcomeArbitrary, (history, next) => {
        const bounds = learn(history);
        const frozen = structuredClone(bounds);
        const judged = evaluateOutcome(bounds, next);
        expect(bounds).toEqual(frozen);
        expect(judged.surprise_flag).toBe(judged.surprise_reason !== null);
        const known = bounds[next.task_type];
        if (!known) {
          expect(judged.surprise_flag).toBe(false);
          return;
        }
        const range = expectedRange(known.confidence, 0.15);
        const inside = next.confidence >= range.low && next.confidence <= range.high;
        expect(/confidence/.test(judged.surprise_reason ?? '')).toBe(!inside);
      }),
      { numRuns: 300 },
    );
  });
});
