import type { CalorieTier } from '../../../protocol/nutrition/nutrition-strategy.ts';

// The calorie ramp-up (§4.3 `current_tier`, §10 "Tier progression (calorie ramp)"). The spec names
// tiers 0-2 but not their rule; this file is that rule.

/**
 * The smallest step between two tiers, in kcal/day. About one extra snack: small enough that a
 * low-appetite client can add it without discomfort, large enough to move the scale within the
 * two weeks a tier lasts. A design choice, not a published constant.
 */
const RAMP_STEP_MIN_KCAL = 250;

/** The highest tier: the full target (TDEE + surplus). */
export const FULL_TIER: CalorieTier = 2;

/** Weeks a client stays on a tier before moving up (see the check-in tier-progression rule). */
export const TIER_HOLD_WEEKS = 2;

/** The ramp: where the client starts and how far apart the tiers are. */
export interface CalorieRamp {
  readonly tier: CalorieTier;
  /** kcal/day between two consecutive tiers. */
  readonly step_kcal: number;
}

/**
 * Where the ramp starts, from the gap between the full target and the self-reported intake
 * (`gap = full_target - estimated_daily_intake_kcal`):
 *
 * - `gap < 250`: tier 2, eat the full target from day one (no ramp needed).
 * - `250 <= gap < 500`: tier 1, one step of 250 kcal below the full target.
 * - `gap >= 500`: tier 0, two steps below; the step is `max(250, round(gap / 3))`, so that for
 *   a large gap tier 0 sits one third of the way from the habitual intake to the full target,
 *   tier 1 two thirds, tier 2 at the target.
 *
 * Every starting tier's target is at or above the habitual intake: the ramp starts from what the
 * client eats now and only goes up.
 *
 * @example planCalorieRamp(2186, 1600) // gap 586 -> { tier: 0, step_kcal: 250 }: 1686, 1936, 2186
 */
export function planCalorieRamp(fullTargetKcal: number, estimatedIntakeKcal: number): CalorieRamp {
  const gap = fullTargetKcal - estimatedIntakeKcal;
  if (gap >= 2 * RAMP_STEP_MIN_KCAL) {
    return { tier: 0, step_kcal: Math.max(RAMP_STEP_MIN_KCAL, Math.round(gap / 3)) };
  }
  if (gap >= RAMP_STEP_MIN_KCAL) return { tier: 1, step_kcal: RAMP_STEP_MIN_KCAL };
  return { tier: FULL_TIER, step_kcal: RAMP_STEP_MIN_KCAL };
}

/**
 * The daily target of a tier: `full_target - (2 - tier) x step`, never below `floorKcal` (the
 * BMR: a plan to gain weight never asks for less than resting energy).
 */
export function tierTargetKcal(fullTargetKcal: number, ramp: CalorieRamp, floorKcal = 0): number {
  return Math.max(Math.round(floorKcal), fullTargetKcal - (FULL_TIER - ramp.tier) * ramp.step_kcal);
}

/** The next tier up, or the same tier at the top. */
export function nextTier(tier: CalorieTier): CalorieTier {
  return tier === 0 ? 1 : FULL_TIER;
}
