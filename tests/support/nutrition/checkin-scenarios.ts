import { calculateMacroTargets } from '../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import type { AdjustmentTrigger } from '../../../protocol/nutrition/adjustment-result.ts';
import type { PipelineStageAgent } from '../../../protocol/nutrition/agents.ts';
import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { NutritionDataType } from '../../../protocol/nutrition/nutrition-data-type.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { payload } from './nutrition-fakes.ts';

// Check-in sequences that make the real SCIENTIST (actors/nutrition/checkin-*.ts) fire exactly one
// §7.3 / §10 trigger on their last check-in, every earlier one answering no_change.

/** The §10 agents a weekly result reports on, and the output each one owns in `GET /pipelines/:id`. */
export const AGENT_OUTPUT = {
  NUTRITIONIST: 'nutrition_strategy',
  DIETITIAN: 'weekly_meal_plan',
  CHEF: 'recipes',
  COACH: 'training_program',
} as const satisfies Partial<Record<PipelineStageAgent, NutritionDataType>>;
export type ReportedAgent = keyof typeof AGENT_OUTPUT;
export const REPORTED: readonly ReportedAgent[] = ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'];

/** The example intake's weight: every check-in weight below is relative to it. */
const START_KG = payload('intake_data').current_weight_kg;

/** The example intake with `overrides`. */
export function intakeWith(overrides: Partial<IntakeData> = {}): IntakeData {
  return { ...payload('intake_data'), ...overrides };
}

/**
 * An intake whose self-reported intake equals the computed full target, so the calorie ramp
 * starts at tier 2 (gap < 250 kcal, scientist-calorie-ramp.ts): no tier progression can fire,
 * and two low-gain weeks give a calorie_increase rather than a tier step.
 */
export function fullTierIntake(overrides: Partial<IntakeData> = {}): IntakeData {
  const intake = intakeWith(overrides);
  return { ...intake, estimated_daily_intake_kcal: calculateMacroTargets(intake).energy.full_target_kcal };
}

/** A check-in at `gainKg` above the intake weight; waist and hip null (the off week) unless given. */
export function checkin(gainKg: number, extra: Partial<WeeklyCheckin> = {}): WeeklyCheckin {
  const weight_kg = Math.round((START_KG + gainKg) * 1000) / 1000;
  return { weight_kg, waist_cm: null, hip_cm: null, ...extra };
}

/** A check-in with waist and hip measured (due every second week, §7.2). */
export function measured(
  gainKg: number,
  waist_cm = 68,
  hip_cm = 92,
  extra: Partial<WeeklyCheckin> = {},
): WeeklyCheckin {
  return checkin(gainKg, { waist_cm, hip_cm, ...extra });
}

/** Two lifts without progress over 3 sessions: each is stalled for 3 sessions (§7.3 stall). */
const STALLED_LOG: NonNullable<WeeklyCheckin['training_log']> = {
  sessions_completed: 3,
  exercises: [
    { name: 'Goblet squat', best_set: { weight_kg: 12, reps: 10 }, progressed: false },
    { name: 'Hip thrust', best_set: { weight_kg: 20, reps: 10 }, progressed: false },
  ],
};

/** One trigger's scenario: the intake, the check-ins (the last one fires), what the delta carries. */
export interface TriggerScenario {
  readonly trigger: AdjustmentTrigger;
  /** Why the last check-in fires it and nothing else. */
  readonly why: string;
  readonly intake: IntakeData;
  /** The calorie ramp tier the intake starts at (checked before the check-ins). */
  readonly startTier: 0 | 1 | 2;
  readonly checkins: readonly WeeklyCheckin[];
  /** Whether the delta must carry `new_target_intake_kcal` and `new_macros` (§7.3 step 6). */
  readonly delta: { readonly kcal: boolean; readonly macros: boolean };
  /** The signed `adjustment_amount_kcal` (calorie changes only). */
  readonly amountKcal?: number;
}

// Resumed at week 6 in active training: post-adaptation from the first check-in, protein next
// due at week 10, and the COACH (experience none) in hypertrophy week 1 of 8.
const POST_ADAPTATION = { weeks_on_program: 6, training_phase: 'active_training' } as const;

/** One scenario per §7.3 trigger the check-ins can fire (physician_advisory comes from PHYSICIAN, not check-ins). */
export const TRIGGER_SCENARIOS: readonly TriggerScenario[] = [
  {
    trigger: 'calorie_increase',
    why: 'weeks 7 and 8 gain 0.10 kg each (< 0.25) at tier 2',
    intake: fullTierIntake(POST_ADAPTATION),
    startTier: 2,
    checkins: [measured(0.1), checkin(0.2)],
    delta: { kcal: true, macros: true },
    amountKcal: 200,
  },
  {
    trigger: 'calorie_decrease',
    why: 'week 7 gains 0.80 kg (> 0.75)',
    intake: fullTierIntake(POST_ADAPTATION),
    startTier: 2,
    checkins: [measured(0.8)],
    delta: { kcal: true, macros: true },
    amountKcal: -150,
  },
  {
    trigger: 'protein_recalculation',
    why: 'week 4 (monthly) at +1.2 kg: the protein grams change; adaptation weeks, tier 2',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(0.3), checkin(0.6), measured(0.9), checkin(1.2)],
    delta: { kcal: false, macros: true },
  },
  {
    trigger: 'tdee_recalculation',
    why: 'week 1 at +5 kg (the 5 kg milestone), inside the adaptation period',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(5)],
    delta: { kcal: true, macros: true },
  },
  {
    trigger: 'training_stall',
    why: 'two lifts without progress over 3 sessions',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(0.3, 68, 92, { training_log: STALLED_LOG })],
    delta: { kcal: false, macros: false },
  },
  {
    trigger: 'phase_transition',
    why: 'resumed at week 5: the COACH plans foundation week 6 of 6 (0 weeks left), so it ends at week 6',
    intake: fullTierIntake({ weeks_on_program: 5 }),
    startTier: 2,
    checkins: [measured(0.3)],
    delta: { kcal: false, macros: false },
  },
  {
    trigger: 'waist_hip_ratio_flag',
    why: 'waist +1 cm, hips +0 cm between the measurements of weeks 1 and 2',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(0.3, 68, 92), measured(0.6, 69, 92)],
    delta: { kcal: false, macros: false },
  },
  {
    trigger: 'compliance_issue',
    why: '3 minimum viable days in week 1 (> 2)',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(0.3, 68, 92, { minimum_viable_days_count: 3 })],
    delta: { kcal: false, macros: false },
  },
  {
    trigger: 'tier_progression',
    why: 'the example intake starts at tier 1; week 2 is 2 weeks on it',
    intake: intakeWith(),
    startTier: 1,
    checkins: [measured(0.3), checkin(0.6)],
    delta: { kcal: true, macros: true },
  },
  {
    trigger: 'cycle_phase_adjustment',
    why: 'week 1 reports the luteal phase (the plan starts on the follicular strategy)',
    intake: fullTierIntake(),
    startTier: 2,
    checkins: [measured(0.3, 68, 92, { cycle_phase: 'luteal' })],
    delta: { kcal: false, macros: false },
  },
];
