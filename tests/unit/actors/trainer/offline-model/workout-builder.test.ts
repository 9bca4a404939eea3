import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getLibraryExercise, isDoableWith } from '../../../../../actors/trainer/exercises/exercise-library.ts';
import {
  buildWorkout,
  focusLabel,
  type WorkoutPlan,
} from '../../../../../actors/trainer/offline-model/workout-builder.ts';
import { EQUIPMENT } from '../../../../../protocol/trainer/tools/equipment.ts';
import { MUSCLES } from '../../../../../protocol/trainer/tools/muscle.ts';
import { WorkoutPayloadSchema } from '../../../../../protocol/trainer/tools/workout-payload.ts';

const GOALS = ['strength', 'hypertrophy', 'endurance', 'cardio', 'mobility', 'power', 'stability', 'recovery'];

const planArb: fc.Arbitrary<WorkoutPlan> = fc.record({
  muscles: fc.uniqueArray(fc.constantFrom(...MUSCLES), { minLength: 1, maxLength: 5 }),
  goals: fc.uniqueArray(fc.constantFrom(...GOALS), { maxLength: 3 }),
  types: fc.uniqueArray(fc.constantFrom('reps' as const, 'hold' as const, 'duration' as const, 'intervals' as const), {
    maxLength: 2,
  }),
  equipment: fc.uniqueArray(fc.constantFrom(...EQUIPMENT), { maxLength: 8 }),
  minutes: fc.option(fc.integer({ min: 10, max: 90 }), { nil: undefined }),
  quick: fc.boolean(),
  avoid: fc.record({
    words: fc.uniqueArray(fc.constantFrom('burpee', 'jump', 'squat', 'press'), { maxLength: 2 }),
    muscles: fc.uniqueArray(fc.constantFrom(...MUSCLES), { maxLength: 1 }),
  }),
  recent: fc.constant([]),
  locationName: fc.constant('Somewhere'),
});

describe('offline workout builder', () => {
  it('always builds a valid workout whose every exercise is doable and allowed', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const workout = buildWorkout(plan);
        expect(workout).toBeDefined();
        expect(WorkoutPayloadSchema.safeParse(workout).success).toBe(true);
        for (const exercise of workout!.exercises) {
          const entry = getLibraryExercise(exercise.exercise_name);
          expect(entry).toBeDefined();
          expect(isDoableWith(entry!, plan.equipment)).toBe(true);
          const name = exercise.exercise_name.toLowerCase();
          expect(plan.avoid.words.some((word) => name.includes(word))).toBe(false);
          expect(entry!.primary.some((muscle) => plan.avoid.muscles.includes(muscle))).toBe(false);
        }
        expect(workout!.exercises.map((e) => e.order)).toEqual(workout!.exercises.map((_, i) => i + 1));
      }),
      { numRuns: 300 },
    );
  });

  it('targets the asked muscles first and sizes the session by time', () => {
    const base: WorkoutPlan = {
      muscles: ['Quadriceps', 'Hamstrings', 'Glutes', 'Calves'],
      goals: ['strength'],
      types: [],
      equipment: ['barbell', 'squat_rack', 'bench', 'dumbbell', 'leg_press_machine', 'leg_curl_machine'],
      quick: false,
      avoid: { words: [], muscles: [] },
      recent: [],
      locationName: 'Gym',
    };
    const full = buildWorkout(base)!;
    const main = full.exercises.filter((e) => !e.group || e.group.type === 'superset');
    expect(main.slice(0, 4).map((e) => e.muscles_utilized[0]?.muscle)).toEqual([
      'Quadriceps',
      'Hamstrings',
      'Glutes',
      'Calves',
    ]);
    expect(full.title).toBe('Leg Workout');
    expect(buildWorkout({ ...base, quick: true })!.exercises.length).toBeLessThan(full.exercises.length);
    expect(buildWorkout({ ...base, minutes: 60 })!.exercises.length).toBeGreaterThan(full.exercises.length);
  });

  it('favours exercises not done recently', () => {
    const plan: WorkoutPlan = {
      muscles: ['Chest'],
      goals: ['strength'],
      types: [],
      equipment: ['barbell', 'bench', 'dumbbell'],
      quick: true,
      avoid: { words: [], muscles: [] },
      recent: [],
      locationName: 'Gym',
    };
    const first = buildWorkout(plan)!
      .exercises.filter((e) => !e.group)
      .map((e) => e.exercise_name);
    const next = buildWorkout({ ...plan, recent: first })!
      .exercises.filter((e) => !e.group)
      .map((e) => e.exercise_name);
    expect(next[0]).not.toBe(first[0]);
  });

  it('labels the focus', () => {
    expect(focusLabel(['Chest', 'Triceps'])).toBe('Chest & Triceps');
    expect(focusLabel(['Quadriceps', 'Chest', 'Back', 'Glutes', 'Shoulders', 'Hamstrings', 'Abs'])).toBe('Full Body');
  });
});
