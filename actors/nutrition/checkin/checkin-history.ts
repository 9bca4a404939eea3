import { z } from 'zod';
import { TrainingPhaseSchema, WeeksOnProgramSchema } from '../../../protocol/nutrition/client-profile.ts';
import type { CyclePhase } from '../../../protocol/nutrition/cycle-phase.ts';
import { IntakeDataSchema, type IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import { MacroTargetsSchema } from '../../../protocol/nutrition/macro-targets.ts';
import { CalorieTierSchema } from '../../../protocol/nutrition/nutrition-strategy.ts';
import type { TrainingProgram } from '../../../protocol/nutrition/training-program.ts';
import { WeeklyCheckinSchema, type WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { calculateMacroTargets } from '../scientist/scientist-macro-targets.ts';

/** One check-in and the week it closes (the intake is week 0, each check-in one week more). */
const CheckinRecordSchema = z.strictObject({
  week: WeeksOnProgramSchema,
  checkin: WeeklyCheckinSchema,
});

/**
 * What the SCIENTIST told the COACH at the last evaluation (§4.6 `progress_data` stall fields and
 * `scientist_triggers`), kept so that `buildTrainingInput` can be called again later.
 */
export const TrainingSignalsSchema = z.strictObject({
  stall_detected: z.boolean(),
  consecutive_stall_sessions: z.number().int().min(0).max(100),
  phase_transition_due: z.boolean(),
  deload_recommended: z.boolean(),
  adjustment_note: z.string().min(1).nullable(),
});
export type TrainingSignals = z.infer<typeof TrainingSignalsSchema>;

/** The COACH's phase as its last program stated it (§4.7 `program`), and the week it was recorded. */
const CoachPhasePlanSchema = z.strictObject({
  phase: z.string().min(1),
  phase_week: z.number().int().min(1).max(52),
  weeks_remaining: z.number().int().min(0).max(52),
  recorded_week: WeeksOnProgramSchema,
});

/**
 * Everything the weekly evaluation (§7.3) needs from the past, as plain JSON so a store can keep
 * it. Built by `createCheckinHistory`, advanced only by `appendCheckin`.
 */
export const CheckinHistorySchema = z.strictObject({
  intake: IntakeDataSchema,
  /** Week of the intake: 0, or `intake.weeks_on_program` when a program is resumed. */
  start_week: WeeksOnProgramSchema,
  initial_macro_targets: MacroTargetsSchema,
  /** The SCIENTIST's targets after the last check-in. */
  last_macro_targets: MacroTargetsSchema,
  checkins: z.array(CheckinRecordSchema),
  /** Weight and week of the last TDEE calculation (every 5 kg gained, §7.3). */
  tdee_weight_kg: z.number().positive(),
  tdee_recalc_week: WeeksOnProgramSchema,
  /** Weight and week of the last protein calculation (monthly, §7.3). */
  protein_weight_kg: z.number().positive(),
  protein_recalc_week: WeeksOnProgramSchema,
  /** The calorie ramp: current tier, kcal between tiers, and the week the tier started. */
  tier: CalorieTierSchema,
  ramp_step_kcal: z.number().positive(),
  tier_since_week: WeeksOnProgramSchema,
  /**
   * Sum of the +200 / -150 kcal check-in adjustments; and the week of the last change a gain or
   * ramp rule made to the energy target (+/- kcal or a tier step), after which the gain rules
   * wait for fresh weeks.
   */
  calorie_adjustment_kcal: z.number(),
  last_calorie_adjustment_week: WeeksOnProgramSchema.nullable(),
  /** Per lift (lower-case name): consecutive sessions without progress. */
  lift_stall_sessions: z.record(z.string(), z.number().int().min(0)),
  /** The training phase, and the week it (or its current block) started. */
  training_phase: TrainingPhaseSchema,
  phase_started_week: WeeksOnProgramSchema,
  /**
   * The COACH's own phase plan from its last program (`recordTrainingProgram`), so that the
   * SCIENTIST calls the transition when the COACH's phase is planned to end; null when unknown.
   */
  coach_phase: CoachPhasePlanSchema.nullable(),
  training_signals: TrainingSignalsSchema,
});
export type CheckinHistory = z.infer<typeof CheckinHistorySchema>;

/**
 * The history at intake: no check-ins, recalculation weights at the intake weight, the ramp
 * where `planCalorieRamp` starts it.
 */
export function createCheckinHistory(intake: IntakeData): CheckinHistory {
  const { macro_targets, ramp } = calculateMacroTargets(intake);
  const start_week = intake.weeks_on_program ?? 0;
  return {
    intake,
    start_week,
    initial_macro_targets: macro_targets,
    last_macro_targets: macro_targets,
    checkins: [],
    tdee_weight_kg: intake.current_weight_kg,
    tdee_recalc_week: start_week,
    protein_weight_kg: intake.current_weight_kg,
    protein_recalc_week: start_week,
    tier: ramp.tier,
    ramp_step_kcal: ramp.step_kcal,
    tier_since_week: start_week,
    calorie_adjustment_kcal: 0,
    last_calorie_adjustment_week: null,
    lift_stall_sessions: {},
    training_phase: intake.training_phase,
    phase_started_week: start_week,
    coach_phase: null,
    training_signals: {
      stall_detected: false,
      consecutive_stall_sessions: 0,
      phase_transition_due: false,
      deload_recommended: false,
      adjustment_note: null,
    },
  };
}

/**
 * The history once the COACH has produced `program` (at intake or on a re-run): its phase plan is
 * kept so that the next phase transition is called when that phase is planned to end.
 */
export function recordTrainingProgram(history: CheckinHistory, program: TrainingProgram): CheckinHistory {
  return {
    ...history,
    coach_phase: {
      phase: program.program.phase,
      phase_week: program.program.phase_week,
      weeks_remaining: program.program.total_weeks_remaining_in_phase,
      recorded_week: currentWeek(history),
    },
  };
}

/** The week the last check-in closed, or the intake week. */
export function currentWeek(history: CheckinHistory): number {
  return history.checkins.at(-1)?.week ?? history.start_week;
}

/** Cycle day from which a 28-day cycle is in its luteal phase (ovulation around day 14). */
const LUTEAL_FROM_CYCLE_DAY = 15;

/**
 * The cycle phase a check-in reports: `cycle_phase` when given, else from `cycle_day` (days 1-14
 * follicular, 15 on luteal, assuming a 28-day cycle), else undefined (not tracked).
 */
export function cyclePhaseOf(checkin: WeeklyCheckin): CyclePhase | undefined {
  if (checkin.cycle_phase) return checkin.cycle_phase;
  if (checkin.cycle_day === undefined) return undefined;
  return checkin.cycle_day >= LUTEAL_FROM_CYCLE_DAY ? 'luteal' : 'follicular';
}
