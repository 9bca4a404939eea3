import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { Sex } from '../../../protocol/nutrition/client-profile.ts';

// The SCIENTIST's energy arithmetic: BMR, TDEE from steps, and the surplus for the weekly gain.
// Every constant here is documented with the rule it encodes, so a reviewer can redo the sums.

/**
 * The Mifflin-St Jeor sex constant in kcal/day: +5 for men, -161 for women
 * (Mifflin MD, St Jeor ST et al. 1990, Am J Clin Nutr 51(2):241-247).
 */
const MIFFLIN_SEX_CONSTANT_KCAL: Readonly<Record<Sex, number>> = { male: 5, female: -161 };

/**
 * Resting energy in kcal/day by Mifflin-St Jeor:
 * `BMR = 10 x weight_kg + 6.25 x height_cm - 5 x age + s` (s = +5 male, -161 female).
 *
 * @example mifflinStJeorBmr({ weightKg: 55, heightCm: 165, age: 25, sex: 'female' }) // 1295.25
 */
export function mifflinStJeorBmr(body: { weightKg: number; heightCm: number; age: number; sex: Sex }): number {
  return 10 * body.weightKg + 6.25 * body.heightCm - 5 * body.age + MIFFLIN_SEX_CONSTANT_KCAL[body.sex];
}

/** One row of the step table: daily steps from `minSteps` (inclusive) up to the next row. */
interface StepActivityBand {
  readonly minSteps: number;
  readonly label: string;
  readonly multiplier: number;
}

/**
 * Average daily steps -> activity multiplier (TDEE = BMR x multiplier). The bands are
 * Tudor-Locke & Bassett's step-defined activity levels (Sports Med 2004, 34(1):1-8: < 5,000
 * sedentary; 5,000-7,499 low active; 7,500-9,999 somewhat active; 10,000-12,499 active;
 * >= 12,500 highly active). The multipliers are the classic activity factors (1.2 sedentary,
 * 1.375 light, 1.55 moderate, 1.725 very active) mapped onto those bands, with 1.45 between light
 * and moderate. Steps are the NEAT proxy of §4.1; resistance training of 3-4 short sessions a
 * week is covered by the band rather than added, so a training phase change never moves energy
 * targets (§10: phase transitions re-run only the COACH).
 */
const STEP_ACTIVITY_TABLE: readonly StepActivityBand[] = [
  { minSteps: 0, label: 'sedentary', multiplier: 1.2 },
  { minSteps: 5_000, label: 'low active', multiplier: 1.375 },
  { minSteps: 7_500, label: 'somewhat active', multiplier: 1.45 },
  { minSteps: 10_000, label: 'active', multiplier: 1.55 },
  { minSteps: 12_500, label: 'highly active', multiplier: 1.725 },
];

/** The band of `STEP_ACTIVITY_TABLE` that `avgDailySteps` falls in. */
export function stepActivityBand(avgDailySteps: number): StepActivityBand {
  let band = STEP_ACTIVITY_TABLE[0]!;
  for (const row of STEP_ACTIVITY_TABLE) if (avgDailySteps >= row.minSteps) band = row;
  return band;
}

/**
 * Energy to gain one kg of body weight, in kcal: the classic 7,700 kcal/kg (3,500 kcal/lb,
 * Wishnofsky 1958). Lean tissue costs less, so for a trainee this errs on the side of a larger
 * surplus; the weekly check-ins correct it (§7.3 +200 / -150 kcal rules).
 */
const KCAL_PER_KG_GAIN = 7_700;

/** The spec's band for the weekly gain target (§4.2 `weekly_weight_target_kg`: 0.25-0.5 kg/week). */
export const WEEKLY_GAIN_MIN_KG = 0.25;
export const WEEKLY_GAIN_MAX_KG = 0.5;

/**
 * Target gain per week as a share of body weight: 0.5 %/week, the upper end of the 0.25-0.5 %/week
 * off-season recommendation (Iraki J et al. 2019, Sports 7(7):154), the upper end because the
 * clients are novice hardgainers. Clamped to the spec's 0.25-0.5 kg/week, which wins.
 */
const WEEKLY_GAIN_SHARE_OF_WEIGHT = 0.005;

/**
 * Weekly gain target in kg, to the hundredth: `clamp(0.5 % x weight, 0.25, 0.5)`.
 * E.g. 55 kg -> 0.275 -> 0.28 kg/week; 45 kg -> 0.25; 120 kg -> 0.5.
 */
export function weeklyGainTargetKg(weightKg: number): number {
  // weight x 0.5 is exact in binary floating point, so the hundredth rounds as written.
  const hundredths = Math.round(weightKg * WEEKLY_GAIN_SHARE_OF_WEIGHT * 100);
  return Math.min(WEEKLY_GAIN_MAX_KG, Math.max(WEEKLY_GAIN_MIN_KG, hundredths / 100));
}

/**
 * Daily surplus in kcal for a weekly gain: `round(weekly_kg x 7,700 / 7)`, i.e. 1,100 kcal/day
 * per kg/week. E.g. 0.28 kg/week -> 308 kcal/day.
 */
export function dailySurplusKcal(weeklyGainKg: number): number {
  return Math.round((weeklyGainKg * KCAL_PER_KG_GAIN) / 7);
}

/** The energy figures of one calculation. */
export interface EnergyEstimate {
  /** Mifflin-St Jeor, to the hundredth of a kcal (the formula's own precision). */
  readonly bmr_kcal: number;
  readonly activity_multiplier: number;
  /** `round(BMR x multiplier)`. */
  readonly tdee_kcal: number;
  readonly weekly_weight_target_kg: number;
  readonly surplus_kcal: number;
  /** TDEE + surplus: the full target, before any ramp-up tier or check-in adjustment. */
  readonly full_target_kcal: number;
}

/**
 * BMR, TDEE, weekly gain target and surplus for the client at `weightKg` (the weight of the
 * last TDEE calculation: the intake weight, then every 5 kg milestone, §7.3). `sex` defaults to
 * female, the spec's client.
 */
export function estimateEnergy(intake: IntakeData, weightKg: number = intake.current_weight_kg): EnergyEstimate {
  const bmr = mifflinStJeorBmr({
    weightKg,
    heightCm: intake.height_cm,
    age: intake.age,
    sex: intake.sex ?? 'female',
  });
  const bmr_kcal = Math.round(bmr * 100) / 100;
  const activity_multiplier = stepActivityBand(intake.avg_daily_steps).multiplier;
  const tdee_kcal = Math.round(bmr * activity_multiplier);
  const weekly_weight_target_kg = weeklyGainTargetKg(weightKg);
  const surplus_kcal = dailySurplusKcal(weekly_weight_target_kg);
  return {
    bmr_kcal,
    activity_multiplier,
    tdee_kcal,
    weekly_weight_target_kg,
    surplus_kcal,
    full_target_kcal: tdee_kcal + surplus_kcal,
  };
}
