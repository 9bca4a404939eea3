import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accuracyOfSpecialist,
  EMPTY_ROUTING_ACCURACY,
  NOT_COUNTED,
  updateRoutingAccuracy,
  WINDOW,
  type RoutedOutcome,
} from '../../../../../actors/tiers/monitor/routing-accuracy.ts';
import { OutcomeStatusSchema } from '../../../../../protocol/runtime/outcome-status.ts';

const routed = fc.record({
  specialist: fc.constantFrom('js-solver', 'reviewer', 'test-designer'),
  task_type: fc.constantFrom('execute_code', 'review_complexity'),
  status: fc.constantFrom(...OutcomeStatusSchema.options),
});
const run = (outcomes: RoutedOutcome[]) => outcomes.reduce(updateRoutingAccuracy, EMPTY_ROUTING_ACCURACY);
const at = (specialist: string, status: RoutedOutcome['status']): RoutedOutcome => ({
  specialist,
  task_type: 'execute_code',
  status,
});

describe('updateRoutingAccuracy', () => {
  it('averages exactly while young, then weighs the latest outcome by 1/WINDOW', () => {
    const three = run([at('a', 'success'), at('a', 'failed'), at('a', 'success')]);
    expect(three.specialists['a']!['execute_code']!.accuracy).toBeCloseTo(2 / 3, 10);
    const full = run(Array.from({ length: WINDOW }, () => at('a', 'success')));
    const after = updateRoutingAccuracy(full, at('a', 'timeout'));
    expect(after.specialists['a']!['execute_code']!.accuracy).toBeCloseTo(1 - 1 / WINDOW, 10);
    expect(after.overall.outcomes).toBe(WINDOW + 1);
  });

  it('leaves the table unchanged for a cancelled, throttled, blocked or clarifying outcome', () => {
    const table = run([at('a', 'success')]);
    for (const status of NOT_COUNTED) expect(updateRoutingAccuracy(table, at('a', status))).toBe(table);
  });

  it('stays within 0..1, counts only counted outcomes, and moves toward each outcome', () => {
    fc.assert(
      fc.property(fc.array(routed, { maxLength: 40 }), routed, (history, next) => {
        const table = run(history);
        const counted = history.filter((o) => !NOT_COUNTED.has(o.status));
        expect(table.overall.outcomes).toBe(counted.length);
        for (const byType of Object.values(table.specialists))
          for (const entry of Object.values(byType)) expect(entry.accuracy >= 0 && entry.accuracy <= 1).toBe(true);
        const before = table.specialists[next.specialist]?.[next.task_type]?.accuracy;
        const after = updateRoutingAccuracy(table, next).specialists[next.specialist]?.[next.task_type]?.accuracy;
        if (before === undefined || NOT_COUNTED.has(next.status)) return;
        if (next.status === 'success') expect(after!).toBeGreaterThanOrEqual(before);
        else expect(after!).toBeLessThanOrEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the Dispatcher a specialist's accuracy overall and per task type (null when never routed)", () => {
    const table = run([
      at('a', 'success'),
      { specialist: 'a', task_type: 'review_complexity', status: 'failed' },
      at('a', 'success'),
    ]);
    expect(accuracyOfSpecialist(table, 'a')).toEqual({
      accuracy: 2 / 3,
      accuracy_by_task_type: { execute_code: 1, review_complexity: 0 },
    });
    expect(accuracyOfSpecialist(table, 'b')).toEqual({ accuracy: null, accuracy_by_task_type: {} });
  });
});
