import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knowledgeStateOf, type KnowledgeState } from '../../../actors/trainer/initializer/initializer-knowledge.ts';
import { historyWindowOf } from '../../../actors/trainer/initializer/initializer-time-range.ts';
import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';

const CHANGES: Record<string, readonly string[]> = {
  log_workout: ['workout_history', 'exercise_distribution'],
  set_current_location: ['all_locations'],
};
const WINDOWED = new Set(['workout_history', 'exercise_distribution']);
const SOURCES = ['workout_history', 'exercise_distribution', 'all_locations', 'user_profile', 'not_a_source'];

/** Spec 001 §5.2 `getExistingKnowledge`, read from every event at once (the statement of the rule). */
function reference(events: readonly SessionEvent[]): KnowledgeState {
  const loaded = new Map<string, { source: string; days_back: number | null; at: number }>();
  const changedAt = new Map<string, number>();
  const calls = new Map<string, string>();
  for (const event of events) {
    const data = event.data as Record<string, any>;
    if (event.event_type === 'knowledge') {
      if (!SOURCES.slice(0, 4).includes(data.source)) continue;
      const days =
        data.source === 'exercise_distribution'
          ? /\blast (\d+) days\b/.exec(data.data)?.[1] === undefined
            ? null
            : Number(/\blast (\d+) days\b/.exec(data.data)![1])
          : data.source === 'workout_history'
            ? historyWindowOf(data.data)
            : null;
      const before = loaded.get(data.source)?.days_back;
      const widest = before == null ? days : days === null ? before : Math.max(before, days);
      loaded.set(data.source, {
        source: data.source,
        days_back: WINDOWED.has(data.source) ? widest : null,
        at: event.sequence_number,
      });
    } else if (event.event_type === 'tool_call') calls.set(data.call_id, data.tool_name);
    else if (event.event_type === 'tool_result' && data.success) {
      const tool = calls.get(data.call_id);
      for (const source of tool !== undefined && Object.hasOwn(CHANGES, tool) ? CHANGES[tool]! : [])
        changedAt.set(source, event.sequence_number);
    }
  }
  const values = [...loaded.values()];
  return {
    existing: values.map(({ source, days_back }) => ({ source, days_back })) as KnowledgeState['existing'],
    stale: values.filter(({ source, at }) => (changedAt.get(source) ?? 0) > at).map((e) => e.source) as never,
  };
}

const callId = fc.constantFrom('c1', 'c2', 'c3');
const anyEventData = fc.oneof(
  fc.record({
    event_type: fc.constant('knowledge'),
    data: fc.record({
      source: fc.constantFrom(...SOURCES),
      data: fc.oneof(
        fc.integer({ min: 1, max: 90 }).map((n) => `Workouts over the last ${n} days`),
        fc.constant('- Home gym'),
      ),
    }),
  }),
  fc.record({
    event_type: fc.constant('tool_call'),
    data: fc.record({
      call_id: callId,
      tool_name: fc.constantFrom('log_workout', 'set_current_location', 'swap_exercise', 'constructor'),
      arguments: fc.constant({}),
    }),
  }),
  fc.record({
    event_type: fc.constant('tool_result'),
    data: fc.record({ call_id: callId, success: fc.boolean(), result: fc.constant({}) }),
  }),
);

/** A session's events, frozen as the log holds them, with their sequence numbers. */
const anySession = fc
  .array(anyEventData, { minLength: 1, maxLength: 40 })
  .map((rows) =>
    rows.map((row, i) => Object.freeze({ ...row, data: Object.freeze(row.data), sequence_number: i + 1 })),
  ) as fc.Arbitrary<SessionEvent[]>;

describe('the knowledge a session has loaded (initializer, spec 001 §5.2)', () => {
  it('reads, turn after turn on a growing log, what reading every event at once gives', () => {
    fc.assert(
      fc.property(anySession, fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 20 }), (events, growths) => {
        let seen = 0;
        for (const growth of [...growths, events.length]) {
          seen = Math.min(events.length, seen + growth);
          // Each turn gets a new array of the same (frozen) events, as `contextAfter` hands them out.
          const sent = events.slice(0, seen);
          expect(knowledgeStateOf(sent)).toEqual(reference(sent));
        }
      }),
      { numRuns: 300 },
    );
  });
});
