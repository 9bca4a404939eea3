import { ADAPTATION_WEEKS } from '../../../protocol/nutrition/macro-targets.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import type { CheckinHistory } from './checkin-history.ts';

// The two weight-gain rules of §7.3, on the weekly gains measured after the adaptation period.

/** Below this weekly gain, for 2 consecutive weeks, the target goes up (§7.3). */
export const LOW_GAIN_KG_PER_WEEK = 0.25;
/** Consecutive low weeks needed. */
const LOW_GAIN_WEEKS = 2;
/** Above this weekly gain the target goes down (§7.3). */
export const HIGH_GAIN_KG_PER_WEEK = 0.75;
/** The two adjustments of §7.3, kcal/day. */
export const CALORIE_INCREASE_KCAL = 200;
export const CALORIE_DECREASE_KCAL = -150;

/** The weight change over one week, in kg (to the gram), for the week it closes. */
export interface WeeklyGain {
  readonly week: number;
  readonly gain_kg: number;
}

/**
 * Every weekly gain up to and including `checkin` (closing `week`): each check-in's weight minus
 * the previous one's, the first minus the intake weight.
 */
export function weeklyGains(history: CheckinHistory, checkin: WeeklyCheckin, week: number): WeeklyGain[] {
  const weights = [
    { week: history.start_week, weight: history.intake.current_weight_kg },
    ...history.checkins.map((record) => ({ week: record.week, weight: record.checkin.weight_kg })),
    { week, weight: checkin.weight_kg },
  ];
  return weights.slice(1).map((point, index) => ({
    week: point.week,
    // Rounded to the gram so that 56.2 - 55.95 compares as 0.25, not 0.2500000000000071.
    gain_kg: Math.round((point.weight - weights[index]!.weight) * 1000) / 1000,
  }));
}

/**
 * True when a week's gain can drive a calorie adjustment: it was gained after the 4-week
 * adaptation period (weeks 1-4 carry water and glycogen shifts as intake rises, so the week must
 * be later than week 4) and after the last change to the energy target (+/- kcal or a ramp tier
 * step: the week that change closed was eaten at the old target).
 */
function countsForAdjustment(gain: WeeklyGain, history: CheckinHistory): boolean {
  return gain.week > ADAPTATION_WEEKS && gain.week > (history.last_calorie_adjustment_week ?? -1);
}

/** What the gain rules found this week. */
type GainVerdict =
  | { readonly kind: 'low'; readonly gains: readonly WeeklyGain[] }
  | { readonly kind: 'high'; readonly gain: WeeklyGain }
  | { readonly kind: 'none' };

/**
 * The §7.3 gain rules: `low` when the last 2 weekly gains both count (post-adaptation, after the
 * last adjustment) and are both under 0.25 kg; `high` when this week's gain counts and is over
 * 0.75 kg. Exactly 0.25 and exactly 0.75 do not fire.
 */
export function judgeGain(history: CheckinHistory, gains: readonly WeeklyGain[]): GainVerdict {
  const latest = gains.at(-1);
  if (!latest || !countsForAdjustment(latest, history)) return { kind: 'none' };
  if (latest.gain_kg > HIGH_GAIN_KG_PER_WEEK) return { kind: 'high', gain: latest };
  const recent = gains.slice(-LOW_GAIN_WEEKS);
  const low =
    recent.length === LOW_GAIN_WEEKS &&
    recent.every((gain) => countsForAdjustment(gain, history) && gain.gain_kg < LOW_GAIN_KG_PER_WEEK);
  return low ? { kind: 'low', gains: recent } : { kind: 'none' };
}

/** `0.18` -> "0.18", `-0.1` -> "-0.10": kg to two decimals for notes. */
export function kg(value: number): string {
  return value.toFixed(2);
}

/** The mean of the gains, in kg/week. */
export function meanGain(gains: readonly WeeklyGain[]): number {
  return gains.reduce((sum, gain) => sum + gain.gain_kg, 0) / Math.max(1, gains.length);
}
