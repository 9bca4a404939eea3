import { IntakeDataSchema, type IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import { WeeklyCheckinSchema, type WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { evaluateCheckin, type CheckinEvaluation } from '../../../actors/nutrition/checkin/checkin-evaluation.ts';
import type { CheckinHistory } from '../../../actors/nutrition/checkin/checkin-history.ts';

/**
 * The worked example of the SCIENTIST tests: a 25-year-old woman, 165 cm, 55 kg, 8,000 steps,
 * eating about 1,600 kcal, normal appetite. BMR = 10 x 55 + 6.25 x 165 - 5 x 25 - 161 = 1295.25.
 */
export function intakeFixture(overrides: Partial<IntakeData> = {}): IntakeData {
  return IntakeDataSchema.parse({
    age: 25,
    height_cm: 165,
    current_weight_kg: 55,
    target_weight_kg: 62,
    training_phase: 'pre_training',
    estimated_daily_intake_kcal: 1600,
    avg_daily_steps: 8000,
    menstrual_status: 'regular',
    training_experience: 'none',
    food_aversions: ['peanut_butter', 'nut_butters'],
    appetite_level: 'normal',
    cooking_skill: 'basic',
    partner_cooks: true,
    equipment_access: 'home_minimal',
    gym_anxiety_level: 'high',
    medical_history: { medications: [], conditions: [], injuries: [] },
    ...overrides,
  });
}

/** A check-in with only a weight (girths on their off week), parsed by the real schema. */
export function checkinFixture(weightKg: number, overrides: Partial<WeeklyCheckin> = {}): WeeklyCheckin {
  return WeeklyCheckinSchema.parse({ weight_kg: weightKg, waist_cm: null, hip_cm: null, ...overrides });
}

/**
 * Evaluates `checkins` one after another from `history`, returning every evaluation (the last
 * one's `history` is the history after all of them).
 */
export function evaluateAll(history: CheckinHistory, checkins: readonly WeeklyCheckin[]): CheckinEvaluation[] {
  const evaluations: CheckinEvaluation[] = [];
  let current = history;
  for (const checkin of checkins) {
    const evaluation = evaluateCheckin(checkin, current);
    evaluations.push(evaluation);
    current = evaluation.history;
  }
  return evaluations;
}

/** Weight-only check-ins for a list of weights. */
export function weighIns(...weights: number[]): WeeklyCheckin[] {
  return weights.map((weight) => checkinFixture(weight));
}
