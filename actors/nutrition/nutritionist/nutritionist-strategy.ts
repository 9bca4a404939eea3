import type { MenstrualStatus } from '../../../protocol/nutrition/client-profile.ts';
import type { MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import type { MedicalContext } from '../../../protocol/nutrition/medical-context.ts';
import type { CalorieTier, NutritionStrategy } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { cycleAdjustments, specialConsiderations } from './nutritionist-considerations.ts';
import { distributeProtein } from './nutritionist-protein-distribution.ts';
import { hydrationTargetL, supplementProtocol } from './nutritionist-supplements.ts';
import { selectTactics } from './nutritionist-tactics.ts';

/** What the NUTRITIONIST needs besides the SCIENTIST's targets. */
interface NutritionistContext {
  /** The calorie ramp tier the SCIENTIST is on (`CheckinHistory.tier`, or `planCalorieRamp` at intake). */
  readonly current_tier: CalorieTier;
  /** From the intake: with amenorrhea there is no cycle to adjust to. */
  readonly menstrual_status?: MenstrualStatus;
  /** The PHYSICIAN's answer when a `continue` is attached as context (§5). */
  readonly medical_context?: MedicalContext;
  /**
   * Conflict resolution (§8): the authoritative SCIENTIST targets this re-run must comply with.
   * When present it replaces the `macroTargets` argument.
   */
  readonly constraint?: { readonly macro_targets: MacroTargets };
}

/** Fiber per 1,000 kcal for the operational target: the adequate intake (IOM 2005). */
const FIBER_TARGET_G_PER_1000_KCAL = 14;

/**
 * Operational fiber target in g: with a low appetite the SCIENTIST's floor (fiber fills, and the
 * surplus comes first), otherwise 14 g/1,000 kcal, never under the floor. E.g. 2186 kcal -> 31 g.
 */
export function fiberTargetG(targets: MacroTargets): number {
  if (targets.client_constraints.appetite_level === 'low') return targets.fiber_g_min;
  const adequate = Math.round((FIBER_TARGET_G_PER_1000_KCAL * targets.target_intake_kcal) / 1000);
  return Math.min(150, Math.max(targets.fiber_g_min, adequate));
}

/**
 * The NUTRITIONIST -> DIETITIAN payload (`nutrition_strategy`, §4.3). The totals are the
 * SCIENTIST's, copied exactly (§8 rank 2); the rest says how to eat them: protein per slot
 * summing to `protein_g`, tactics by priority, supplements with dose and timing, water above the
 * SCIENTIST's base, a fiber target at or above the floor, considerations, cycle strategies and
 * the ramp tier.
 */
export function buildNutritionStrategy(macroTargets: MacroTargets, context: NutritionistContext): NutritionStrategy {
  const targets = context.constraint?.macro_targets ?? macroTargets;
  const constraints = targets.client_constraints;
  const protein_distribution = distributeProtein(targets.protein_g);
  const fiber_target_g = fiberTargetG(targets);
  return {
    target_intake_kcal: targets.target_intake_kcal,
    protein_g: targets.protein_g,
    fat_g: targets.fat_g,
    carbs_g: targets.carbs_g,
    protein_distribution,
    hardgainer_tactics: selectTactics({
      appetite: constraints.appetite_level,
      aversions: constraints.food_aversions,
      cooking_skill: constraints.cooking_skill,
      partner_cooks: constraints.partner_cooks,
      current_tier: context.current_tier,
      target_intake_kcal: targets.target_intake_kcal,
    }),
    supplement_protocol: supplementProtocol(
      targets.current_weight_kg,
      protein_distribution.presleep_g,
      constraints.food_aversions,
    ),
    hydration_target_L: hydrationTargetL(targets.hydration_L),
    fiber_target_g,
    special_considerations: specialConsiderations({
      targets,
      fiber_target_g,
      ...(context.medical_context ? { medical_context: context.medical_context } : {}),
    }),
    cycle_adjustments: cycleAdjustments(targets, context.menstrual_status),
    current_tier: context.current_tier,
  };
}
