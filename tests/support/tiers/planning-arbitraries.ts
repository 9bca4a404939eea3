import fc from 'fast-check';
import type { SpecialistStatus } from '../../../actors/tiers/planning/dispatcher.ts';
import type { Problem } from '../../../protocol/tiers/problem.ts';
import { AggregationStrategySchema } from '../../../actors/tiers/planning/plan.ts';

const argument = fc.oneof(
  fc.integer({ min: -50, max: 50 }),
  fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 6 }),
  fc.string({ maxLength: 4 }),
);

/** Problems of any shape the rules read: arrays (empty, single, duplicates), negatives, strings, stated bounds. */
export const problemArbitrary: fc.Arbitrary<Problem> = fc.record({
  statement: fc.constantFrom(
    'Return the index of target, or -1 if not found. Use O(log n) time.',
    'Sum the numbers in linear time.',
    'Do the thing.',
    'Reverse it; it must be O(n).',
  ),
  function_name: fc.constantFrom('search', 'sum', 'f', 'solve_it'),
  language: fc.constantFrom('javascript', 'python'),
  test_cases: fc.array(
    fc.record({ input: fc.array(argument, { maxLength: 3 }), expected: fc.oneof(fc.integer(), fc.constant(-1)) }),
    { minLength: 1, maxLength: 5 },
  ),
});

export const strategyArbitrary = fc.constantFrom(...AggregationStrategySchema.options);

const TASK_TYPES = ['execute_code', 'design_tests', 'review_complexity'] as const;

/** A fleet of 1..6 specialists with random types, availability, load and accuracy (names unique). */
export const fleetArbitrary: fc.Arbitrary<SpecialistStatus[]> = fc
  .uniqueArray(
    fc.record({
      name: fc.constantFrom('js-solver', 'claude-solver', 'test-designer', 'reviewer', 'spare-a', 'spare-b'),
      task_types: fc.subarray([...TASK_TYPES], { minLength: 1 }),
      available: fc.boolean(),
      load: fc.nat({ max: 4 }),
      accuracy: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    }),
    { minLength: 1, maxLength: 6, selector: (s) => s.name },
  )
  .map((fleet) => fleet.map((s) => ({ ...s }) as SpecialistStatus));
