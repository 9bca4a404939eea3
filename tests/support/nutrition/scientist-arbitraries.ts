import fc from 'fast-check';
import {
  AppetiteLevelSchema,
  CookingSkillSchema,
  EquipmentAccessSchema,
  GymAnxietyLevelSchema,
  MenstrualStatusSchema,
  SexSchema,
  TrainingExperienceSchema,
  TrainingPhaseSchema,
} from '../../../protocol/nutrition/client-profile.ts';
import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';

/** A number with one decimal in [min, max], as people report weights and heights. */
export const oneDecimal = (min: number, max: number) =>
  fc.integer({ min: Math.round(min * 10), max: Math.round(max * 10) }).map((tenths) => tenths / 10);

/** Foods the aversion properties draw from (on top of the two the spec always lists). */
export const AVERSION_VOCABULARY = [
  'dairy',
  'olive_oil',
  'oats',
  'banana',
  'cheese',
  'whey',
  'seeds',
  'dried_fruit',
  'avocado',
  'granola',
  'eggs',
  'fish',
  'soy',
  'pea_protein',
] as const;

/**
 * Realistic intakes (the brief's ranges): age 16-70, height 145-200 cm, weight 38-140 kg, steps
 * 1,000-25,000, every enum value, self-reported intake 900-4,500 kcal.
 */
export const intakeArb: fc.Arbitrary<IntakeData> = fc
  .record({
    age: fc.integer({ min: 16, max: 70 }),
    height_cm: oneDecimal(145, 200),
    current_weight_kg: oneDecimal(38, 140),
    target_weight_kg: oneDecimal(40, 150),
    training_phase: fc.constantFrom(...TrainingPhaseSchema.options),
    estimated_daily_intake_kcal: fc.integer({ min: 900, max: 4500 }),
    avg_daily_steps: fc.integer({ min: 1000, max: 25000 }),
    menstrual_status: fc.constantFrom(...MenstrualStatusSchema.options),
    training_experience: fc.constantFrom(...TrainingExperienceSchema.options),
    food_aversions: fc.subarray([...AVERSION_VOCABULARY]).map((extra) => ['peanut_butter', 'nut_butters', ...extra]),
    appetite_level: fc.constantFrom(...AppetiteLevelSchema.options),
    cooking_skill: fc.constantFrom(...CookingSkillSchema.options),
    partner_cooks: fc.boolean(),
    equipment_access: fc.constantFrom(...EquipmentAccessSchema.options),
    gym_anxiety_level: fc.constantFrom(...GymAnxietyLevelSchema.options),
    medical_history: fc.record({
      medications: fc.constant<string[]>([]),
      conditions: fc.subarray(['asthma', 'anorexia nervosa', 'hypothyroidism', 'binge eating disorder']),
      injuries: fc.subarray(['left knee', 'lower back']),
    }),
    sex: fc.option(fc.constantFrom(...SexSchema.options), { nil: undefined }),
    weeks_on_program: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  })
  .map((intake) => {
    // Optional keys are left out rather than set to undefined, as a parsed payload would be.
    const { sex, weeks_on_program, ...rest } = intake;
    return {
      ...rest,
      ...(sex ? { sex } : {}),
      ...(weeks_on_program !== undefined ? { weeks_on_program } : {}),
    } satisfies IntakeData;
  });

/** The part of a check-in that changes week to week; the weight is a change from last week. */
export interface CheckinStep {
  readonly gain_kg: number;
  readonly measured: boolean;
  readonly waist_delta_cm: number;
  readonly hip_delta_cm: number;
  readonly cycle_day: number | undefined;
  readonly sessions: number;
  readonly progressed: readonly boolean[];
  readonly mvd: number | undefined;
  readonly energy: number;
  readonly sleep: number;
}

export const checkinStepArb: fc.Arbitrary<CheckinStep> = fc.record({
  // Hundredths of a kg, often right at the §7.3 thresholds so that the boundaries are exercised.
  gain_kg: fc.oneof(
    fc.constantFrom(0.24, 0.25, 0.26, 0.74, 0.75, 0.76),
    fc.integer({ min: -50, max: 120 }).map((hundredths) => hundredths / 100),
  ),
  measured: fc.boolean(),
  waist_delta_cm: oneDecimal(-1, 2),
  hip_delta_cm: oneDecimal(-1, 2),
  cycle_day: fc.option(fc.integer({ min: 1, max: 35 }), { nil: undefined }),
  sessions: fc.integer({ min: 0, max: 5 }),
  progressed: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  mvd: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
  energy: fc.integer({ min: 1, max: 10 }),
  sleep: fc.integer({ min: 1, max: 10 }),
});

const LIFTS = ['Hip Thrust', 'Goblet Squat', 'Dumbbell Row'];

/** Turns steps into check-ins starting from `startWeightKg`, girths from 70 / 95 cm. */
export function checkinsFrom(startWeightKg: number, steps: readonly CheckinStep[]): WeeklyCheckin[] {
  let weight = startWeightKg;
  let waist = 70;
  let hip = 95;
  return steps.map((step) => {
    weight = Math.max(30, Math.round((weight + step.gain_kg) * 100) / 100);
    if (step.measured) {
      waist = Math.round((waist + step.waist_delta_cm) * 10) / 10;
      hip = Math.round((hip + step.hip_delta_cm) * 10) / 10;
    }
    return {
      weight_kg: weight,
      waist_cm: step.measured ? waist : null,
      hip_cm: step.measured ? hip : null,
      ...(step.cycle_day !== undefined ? { cycle_day: step.cycle_day } : {}),
      training_log: {
        sessions_completed: step.sessions,
        exercises: LIFTS.map((name, index) => ({
          name,
          best_set: { weight_kg: 20 + index * 5, reps: 10 },
          progressed: step.progressed[index] ?? false,
        })),
      },
      subjective_markers: { energy: step.energy, sleep_quality: step.sleep, mood: 6, appetite: 5 },
      ...(step.mvd !== undefined ? { minimum_viable_days_count: step.mvd } : {}),
    };
  });
}
