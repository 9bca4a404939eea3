import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { TrainingPhase } from '../../../protocol/nutrition/client-profile.ts';
import { ADAPTATION_WEEKS, type MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import { estimateEnergy, type EnergyEstimate } from './scientist-energy.ts';
import { planCalorieRamp, tierTargetKcal, type CalorieRamp } from './scientist-calorie-ramp.ts';
import {
  FAT_SHARE_BY_APPETITE,
  baseHydrationL,
  fiberFloorG,
  proteinTarget,
  splitEnergy,
} from './scientist-macro-split.ts';

/**
 * What the SCIENTIST needs beyond the intake. At intake every field is left out; the check-in
 * evaluation fills them from the `CheckinHistory` (weights of the last recalculations, the ramp
 * tier, the sum of the +200 / -150 kcal adjustments).
 */
interface ScientistContext {
  /** Weeks on the program; default `intake.weeks_on_program ?? 0` (the intake is week 0). */
  readonly weeks_on_program?: number;
  /** Latest body weight (the last check-in); default the intake weight. */
  readonly current_weight_kg?: number;
  /** Weight of the last TDEE calculation (§7.3: recalculated every 5 kg); default current weight. */
  readonly tdee_weight_kg?: number;
  /** Weight of the last protein calculation (§7.3: recalculated monthly); default current weight. */
  readonly protein_weight_kg?: number;
  /** The calorie ramp; default `planCalorieRamp` from the full target and the reported intake. */
  readonly ramp?: CalorieRamp;
  /** Sum of the check-in calorie adjustments in kcal (+200 per increase, -150 per decrease); default 0. */
  readonly calorie_adjustment_kcal?: number;
  /** The training phase after a phase transition; default `intake.training_phase`. */
  readonly training_phase?: TrainingPhase;
}

/** The SCIENTIST's full calculation: the payload plus the intermediate figures a caller may need. */
interface ScientistCalculation {
  readonly macro_targets: MacroTargets;
  readonly energy: EnergyEstimate;
  readonly ramp: CalorieRamp;
}

/**
 * The SCIENTIST's macro targets (§4.2), with the working shown in `energy` and `ramp`:
 *
 * 1. BMR by Mifflin-St Jeor at the TDEE weight, TDEE = BMR x step multiplier
 *    (`STEP_ACTIVITY_TABLE`), full target = TDEE + surplus for 0.25-0.5 kg/week (7,700 kcal/kg).
 * 2. Daily target = the ramp tier's target (`tierTargetKcal`) + check-in adjustments, never
 *    below the BMR.
 * 3. Protein 1.6-2.0 g/kg of the protein weight (by appetite), fat >= 25 % (30-35 % by
 *    appetite), carbs the remainder; fiber >= 20 g; water 35 mL/kg with the EFSA floor.
 * 4. `adaptation_period_complete` once `weeks_on_program >= 4`.
 */
export function calculateMacroTargets(intake: IntakeData, context: ScientistContext = {}): ScientistCalculation {
  const current_weight_kg = context.current_weight_kg ?? intake.current_weight_kg;
  const tdeeWeight = context.tdee_weight_kg ?? current_weight_kg;
  const proteinWeight = context.protein_weight_kg ?? current_weight_kg;
  const weeks_on_program = context.weeks_on_program ?? intake.weeks_on_program ?? 0;
  const appetite = intake.appetite_level;

  const energy = estimateEnergy(intake, tdeeWeight);
  const ramp = context.ramp ?? planCalorieRamp(energy.full_target_kcal, intake.estimated_daily_intake_kcal);
  const target_intake_kcal = Math.max(
    Math.ceil(energy.bmr_kcal),
    tierTargetKcal(energy.full_target_kcal, ramp) + (context.calorie_adjustment_kcal ?? 0),
  );
  const protein = proteinTarget(proteinWeight, appetite);
  const split = splitEnergy(target_intake_kcal, protein.protein_g, FAT_SHARE_BY_APPETITE[appetite]);

  const macro_targets: MacroTargets = {
    bmr_kcal: energy.bmr_kcal,
    tdee_kcal: energy.tdee_kcal,
    target_intake_kcal,
    protein_g: protein.protein_g,
    protein_g_per_kg: protein.protein_g_per_kg,
    fat_g: split.fat_g,
    fat_percent: split.fat_percent,
    carbs_g: split.carbs_g,
    fiber_g_min: fiberFloorG(target_intake_kcal),
    // Tied to the TDEE weight so that it moves with the energy targets, not with weekly noise.
    hydration_L: baseHydrationL(tdeeWeight, intake.sex ?? 'female'),
    current_weight_kg,
    target_weight_kg: intake.target_weight_kg,
    weekly_weight_target_kg: energy.weekly_weight_target_kg,
    training_phase: context.training_phase ?? intake.training_phase,
    weeks_on_program,
    adaptation_period_complete: weeks_on_program >= ADAPTATION_WEEKS,
    client_constraints: {
      food_aversions: [...intake.food_aversions],
      appetite_level: appetite,
      cooking_skill: intake.cooking_skill,
      partner_cooks: intake.partner_cooks,
    },
  };
  return { macro_targets, energy, ramp };
}

/**
 * The SCIENTIST -> NUTRITIONIST payload (`macro_targets`, §4.2). See `calculateMacroTargets`.
 *
 * @example
 * computeMacroTargets(intake).target_intake_kcal // e.g. 1686 at tier 0 for a 55 kg, 165 cm, 25-year-old woman
 */
export function computeMacroTargets(intake: IntakeData, context: ScientistContext = {}): MacroTargets {
  return calculateMacroTargets(intake, context).macro_targets;
}
