import type { CyclePhase } from '../../../protocol/nutrition/cycle-phase.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { cyclePhaseOf, type CheckinHistory } from './checkin-history.ts';
import { FULL_TIER, TIER_HOLD_WEEKS } from '../scientist/scientist-calorie-ramp.ts';

// The remaining §7.3 / §10 rules: waist-to-hip, the 5 kg TDEE milestone, the monthly protein
// recalculation, compliance, cycle phase, and the calorie ramp.

/** kg gained since the last TDEE calculation that trigger a new one (§7.3). */
export const TDEE_RECALC_GAIN_KG = 5;
/** Weeks between protein recalculations ("monthly", §7.3). */
export const PROTEIN_RECALC_WEEKS = 4;
/** More minimum viable days than this in a week is a compliance issue (§10 "> 2 MVD/week"). */
export const MAX_MINIMUM_VIABLE_DAYS = 2;

/** The girth change since the previous measurement. */
interface GirthChange {
  readonly previous_week: number;
  readonly waist_delta_cm: number;
  readonly hip_delta_cm: number;
  readonly ratio_before: number;
  readonly ratio_after: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The waist and hip change since the last check-in that measured them (they are biweekly,
 * §7.2), or undefined when this check-in or no earlier one has measurements.
 */
export function girthChange(history: CheckinHistory, checkin: WeeklyCheckin): GirthChange | undefined {
  if (checkin.waist_cm === null || checkin.hip_cm === null) return undefined;
  const previous = history.checkins.findLast(
    (record) => record.checkin.waist_cm !== null && record.checkin.hip_cm !== null,
  );
  if (!previous) return undefined;
  const before = previous.checkin as WeeklyCheckin & { waist_cm: number; hip_cm: number };
  return {
    previous_week: previous.week,
    waist_delta_cm: round2(checkin.waist_cm - before.waist_cm),
    hip_delta_cm: round2(checkin.hip_cm - before.hip_cm),
    ratio_before: round2(before.waist_cm / before.hip_cm),
    ratio_after: round2(checkin.waist_cm / checkin.hip_cm),
  };
}

/** §7.3 "waist growing faster than hips": the waist grew, and by more cm than the hips. */
export function waistOutpacesHips(change: GirthChange | undefined): change is GirthChange {
  return !!change && change.waist_delta_cm > 0 && change.waist_delta_cm > change.hip_delta_cm;
}

/** kg gained since the last TDEE calculation, to the gram. */
export function gainSinceTdeeKg(history: CheckinHistory, weightKg: number): number {
  return Math.round((weightKg - history.tdee_weight_kg) * 1000) / 1000;
}

/** §7.3 TDEE recalculation: due at 5 kg (inclusive) gained since the last one. */
export function tdeeRecalculationDue(history: CheckinHistory, weightKg: number): boolean {
  return gainSinceTdeeKg(history, weightKg) >= TDEE_RECALC_GAIN_KG;
}

/** §7.3 protein recalculation: due 4 weeks (inclusive) after the last one. */
export function proteinRecalculationDue(history: CheckinHistory, week: number): boolean {
  return week - history.protein_recalc_week >= PROTEIN_RECALC_WEEKS;
}

/** §10 compliance issue: more than 2 minimum viable days this week. */
export function complianceIssue(checkin: WeeklyCheckin): boolean {
  return (checkin.minimum_viable_days_count ?? 0) > MAX_MINIMUM_VIABLE_DAYS;
}

/** A change of cycle phase that the meal plan must follow. */
interface CyclePhaseChange {
  readonly from: CyclePhase | undefined;
  readonly to: CyclePhase;
}

/**
 * §10 cycle-phase adjustment: the check-in's phase differs from the last reported one (entering
 * luteal applies the NUTRITIONIST's luteal strategy, leaving it goes back to follicular). With no
 * earlier phase, only a luteal phase is a change: the plan starts on the follicular strategy.
 */
export function cyclePhaseChange(history: CheckinHistory, checkin: WeeklyCheckin): CyclePhaseChange | undefined {
  const to = cyclePhaseOf(checkin);
  if (!to) return undefined;
  const from = history.checkins.map((record) => cyclePhaseOf(record.checkin)).findLast((phase) => phase !== undefined);
  if (from === undefined) return to === 'luteal' ? { from, to } : undefined;
  return from === to ? undefined : { from, to };
}

/**
 * §10 tier progression, the normal way: below tier 2, on the current tier for at least 2 weeks,
 * at most 2 minimum viable days this week (the client managed the tier), and not gaining faster
 * than `highGainKg` this week.
 */
export function tierProgressionDue(
  history: CheckinHistory,
  checkin: WeeklyCheckin,
  week: number,
  weekGainKg: number,
  highGainKg: number,
): boolean {
  return (
    history.tier < FULL_TIER &&
    week - history.tier_since_week >= TIER_HOLD_WEEKS &&
    !complianceIssue(checkin) &&
    weekGainKg <= highGainKg
  );
}
