import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXERCISE_LIBRARY,
  alternativesFor,
  findExercises,
  isDoableWith,
} from '../../../actors/trainer/exercises/exercise-library.ts';
import { toWorkoutExercise } from '../../../actors/trainer/exercises/exercise-library-prescription.ts';
import { EQUIPMENT } from '../../../protocol/trainer/tools/equipment.ts';
import { ExerciseSchema, ExerciseTypeSchema } from '../../../protocol/trainer/tools/exercise.ts';
import { MUSCLES } from '../../../protocol/trainer/tools/muscle.ts';

const equipmentArb = fc.option(fc.subarray([...EQUIPMENT]), { nil: undefined });
const musclesArb = fc.subarray([...MUSCLES], { minLength: 1, maxLength: 4 });

describe('exercise library (property)', () => {
  it('finds only exercises doable with the equipment, of the type, hitting a wanted muscle, best match first', () => {
    fc.assert(
      fc.property(
        equipmentArb,
        musclesArb,
        fc.option(fc.constantFrom(...ExerciseTypeSchema.options), { nil: undefined }),
        (equipment, muscles, type) => {
          const found = findExercises({ equipment, muscles, ...(type ? { type } : {}) });
          const score = (id: string) => {
            const e = EXERCISE_LIBRARY.find((entry) => entry.id === id);
            return e
              ? e.primary.filter((m) => muscles.includes(m)).length * 2 +
                  e.secondary.filter((m) => muscles.includes(m)).length
              : -1;
          };
          for (const entry of found) {
            expect(isDoableWith(entry, equipment)).toBe(true);
            expect(entry.primary.some((m) => muscles.includes(m))).toBe(true);
            if (type) expect(entry.type).toBe(type);
          }
          for (let i = 1; i < found.length; i++)
            expect(score(found[i - 1]?.id ?? '')).toBeGreaterThanOrEqual(score(found[i]?.id ?? ''));
          // Nothing doable and matching was left out.
          const expected = EXERCISE_LIBRARY.filter(
            (e) =>
              isDoableWith(e, equipment) && e.primary.some((m) => muscles.includes(m)) && (!type || e.type === type),
          );
          expect(found.length).toBe(expected.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('offers alternatives that share a primary muscle, fit the equipment and differ from the exercise', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EXERCISE_LIBRARY), equipmentArb, (target, equipment) => {
        for (const alternative of alternativesFor(target.id, equipment)) {
          expect(alternative.id).not.toBe(target.id);
          expect(alternative.primary.some((m) => target.primary.includes(m))).toBe(true);
          expect(isDoableWith(alternative, equipment)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('prescribes every entry as a valid exercise at any order and volume', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXERCISE_LIBRARY),
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0.3, max: 2, noNaN: true }),
        fc.subarray(['strength', 'endurance', 'mobility', 'power']),
        (entry, order, volume, goals) => {
          const exercise = toWorkoutExercise(entry, { order, volume, goals });
          expect(ExerciseSchema.safeParse(exercise).success).toBe(true);
          expect(exercise.order).toBe(order);
        },
      ),
      { numRuns: 300 },
    );
  });
});
