import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_BOTTLENECKS,
  updateBottlenecks,
  type TimedOutcome,
} from '../../../../../actors/tiers/monitor/bottlenecks.ts';

const timed = fc.record({
  specialist: fc.constantFrom('js-solver', 'reviewer', 'test-designer'),
  task_type: fc.constantFrom('execute_code', 'review_complexity', 'design_tests'),
  execution_time_ms: fc.nat({ max: 30_000 }),
});
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

describe('updateBottlenecks', () => {
  it('names the slowest specialist and task type on average', () => {
    const outcomes: TimedOutcome[] = [
      { specialist: 'js-solver', task_type: 'execute_code', execution_time_ms: 100 },
      { specialist: 'reviewer', task_type: 'review_complexity', execution_time_ms: 900 },
      { specialist: 'js-solver', task_type: 'execute_code', execution_time_ms: 1_500 },
    ];
    const b = outcomes.reduce(updateBottlenecks, EMPTY_BOTTLENECKS);
    expect(b.slowest_specialist).toEqual({ name: 'reviewer', mean_ms: 900 });
    expect(b.specialists['js-solver']).toEqual({ count: 2, mean_ms: 800, max_ms: 1_500 });
    expect(b.slowest_task_type).toEqual({ name: 'review_complexity', mean_ms: 900 });
  });

  it('keeps exact means and the true slowest over any history', () => {
    fc.assert(
      fc.property(fc.array(timed, { minLength: 1, maxLength: 40 }), (outcomes) => {
        const b = outcomes.reduce(updateBottlenecks, EMPTY_BOTTLENECKS);
        const bySpecialist = new Map<string, number[]>();
        for (const o of outcomes)
          bySpecialist.set(o.specialist, [...(bySpecialist.get(o.specialist) ?? []), o.execution_time_ms]);
        for (const [name, times] of bySpecialist) expect(b.specialists[name]!.mean_ms).toBeCloseTo(mean(times), 6);
        const top = Math.max(...[...bySpecialist.values()].map(mean));
        expect(b.slowest_specialist!.mean_ms).toBeCloseTo(top, 6);
        expect(mean(bySpecialist.get(b.slowest_specialist!.name)!)).toBeCloseTo(top, 6);
      }),
      { numRuns: 300 },
    );
  });
});
