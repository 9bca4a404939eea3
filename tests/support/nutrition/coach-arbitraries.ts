import fc from 'fast-check';
import type { InjuryArea } from '../../../actors/nutrition/coach/training-exercise.ts';
import { TRAINING_EXERCISES } from '../../../actors/nutrition/coach/training-exercise-table.ts';
import { WeekdaySchema } from '../../../protocol/nutrition/weekday.ts';
import type { TrainingInput } from '../../../protocol/nutrition/training-input.ts';

/** Free-text injuries as clients write them, each with the area it must protect. */
export const KNOWN_INJURIES: ReadonlyArray<readonly [string, InjuryArea]> = [
  ['knee', 'knee'],
  ['Left knee pain (patellofemoral)', 'knee'],
  ['old ACL reconstruction', 'knee'],
  ['torn meniscus', 'knee'],
  ['lower back', 'lower_back'],
  ['Lower back pain', 'lower_back'],
  ['herniated disc L5-S1', 'lower_back'],
  ['bad back', 'lower_back'],
  ['shoulder', 'shoulder'],
  ['rotator cuff strain', 'shoulder'],
  ['shoulder impingement', 'shoulder'],
  ['wrist', 'wrist'],
  ['carpal tunnel', 'wrist'],
  ['tennis elbow', 'elbow'],
  ['hip flexor strain', 'hip'],
  ['sprained ankle', 'ankle'],
  ['achilles tendinopathy', 'ankle'],
  ['stiff neck', 'neck'],
];

export const experienceArb = fc.constantFrom('none', 'beginner', 'intermediate');
export const accessArb = fc.constantFrom('home_minimal', 'home_full', 'commercial_gym', 'both');
export const anxietyArb = fc.constantFrom('high', 'moderate', 'low');

/** Known injuries plus text that names no area (it must not break anything). */
export const injuriesArb = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...KNOWN_INJURIES.map(([text]) => text)) },
    { weight: 1, arbitrary: fc.constantFrom('none', 'asthma', 'migraines', 'broken finger long ago') },
  ),
  { maxLength: 4 },
);

const logNameArb = fc.oneof(
  fc.constantFrom(...TRAINING_EXERCISES.map((exercise) => exercise.name)),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** A §4.6 training input with 2-6 available days and everything else free. */
export function trainingInputArb(
  days: { minLength: number; maxLength: number } = { minLength: 2, maxLength: 6 },
): fc.Arbitrary<TrainingInput> {
  return fc.record({
    client_data: fc.record({
      training_experience: experienceArb,
      equipment_access: accessArb,
      gym_anxiety_level: anxietyArb,
      weeks_on_program: fc.integer({ min: 0, max: 60 }),
      current_phase: fc.constantFrom('pre_training', 'active_training'),
      injuries: injuriesArb,
      available_days: fc.shuffledSubarray([...WeekdaySchema.options], days),
      menstrual_cycle_day: fc.option(fc.integer({ min: 1, max: 35 }), { nil: null }),
      cycle_phase: fc.option(fc.constantFrom('follicular', 'luteal'), { nil: null }),
    }),
    progress_data: fc.record({
      training_log: fc.array(
        fc.record({
          name: logNameArb,
          sets: fc.integer({ min: 1, max: 6 }),
          reps: fc.integer({ min: 1, max: 20 }),
          weight_kg: fc.integer({ min: 0, max: 150 }),
        }),
        { maxLength: 8 },
      ),
      stall_detected: fc.boolean(),
      consecutive_stall_sessions: fc.integer({ min: 0, max: 6 }),
      sleep_hours_avg: fc.option(fc.double({ min: 4, max: 10, noNaN: true }), { nil: null }),
      step_count_avg: fc.integer({ min: 1000, max: 25_000 }),
    }),
    scientist_triggers: fc.record({
      phase_transition_due: fc.boolean(),
      deload_recommended: fc.boolean(),
      adjustment_note: fc.option(fc.string({ minLength: 1, maxLength: 60 }), { nil: null }),
    }),
  });
}
