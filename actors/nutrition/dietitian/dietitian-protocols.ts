import type {
  EmergencyProtocol,
  SoloWeekProtocol,
  SlotSpec,
  TrackingProtocol,
} from '../../../protocol/nutrition/weekly-meal-plan.ts';
import { ADAPTATION_WEEKS } from '../../../protocol/nutrition/macro-targets.ts';
import type { DailyTargets } from './dietitian-slot-specs.ts';
import type { BankRecipe } from '../recipes/recipe-bank-entry.ts';

/**
 * Minimum viable day (§4.4 `emergency_protocol`, counted by §7.1 `minimum_viable_days_count`):
 * on a day the plan falls apart, 80 % of the calories and 90 % of the protein still keep the
 * surplus mostly intact and protect muscle. Rules of this plan, not published thresholds.
 */
const MINIMUM_VIABLE_DAY = { calories: 0.8, protein: 0.9, meals: 4 } as const;

/**
 * The minimum viable day: no-cook recipes the client may eat (aversions already filtered out),
 * drinkable ones first, with the reduced calorie and protein floors.
 */
export function emergencyProtocol(targets: DailyTargets, noCookRecipes: readonly BankRecipe[]): EmergencyProtocol {
  const ranked = [
    ...noCookRecipes.filter((recipe) => recipe.traits.includes('liquid')),
    ...noCookRecipes.filter((recipe) => !recipe.traits.includes('liquid')),
  ].slice(0, MINIMUM_VIABLE_DAY.meals);
  const meals = ranked.map((recipe) => `${recipe.name} (${recipe.id}): no cooking, ${recipe.time.prep_min} min`);
  return {
    meals: meals.length > 0 ? meals : ['Any substitution-bank recipe that takes under 5 minutes, eaten 4 times.'],
    calories: Math.round(targets.target_intake_kcal * MINIMUM_VIABLE_DAY.calories),
    protein_g: Math.round(targets.protein_g * MINIMUM_VIABLE_DAY.protein),
  };
}

/**
 * The partner-unavailable fallback: batch-friendly dinners the client can cook alone twice a
 * week (Sunday and Wednesday), each batch covering three or four dinners.
 */
export function soloWeekProtocol(
  dinners: readonly BankRecipe[],
  dinnerSpec: SlotSpec,
  partnerCooks: boolean,
): SoloWeekProtocol {
  const batchable = dinners.filter((recipe) => recipe.traits.includes('batch_friendly'));
  const chosen = (batchable.length > 0 ? batchable : dinners).slice(0, 3);
  const names = chosen.map((recipe) => recipe.name).join('; ');
  const portion = `${dinnerSpec.calories} kcal and ${dinnerSpec.protein_g} g protein per dinner`;
  const who = partnerCooks
    ? 'When your partner cannot cook, do not skip dinner:'
    : 'You cook for yourself, so every week is a solo week:';
  return {
    description:
      chosen.length > 0
        ? `${who} cook one batch on Sunday and one on Wednesday from ${names}; each batch covers 3 to 4 dinners at ${portion}. Freeze what you will not eat within the fridge life.`
        : `${who} use the minimum viable day meals for dinner (${portion}).`,
    recipe_ids: chosen.map((recipe) => recipe.id),
  };
}

/**
 * §4.4 `tracking_protocol`: weigh and log everything while portions are learnt (weeks 1-4, the
 * §4.2 adaptation period), then a lighter method; the current method is marked.
 */
export function trackingProtocol(weeksOnProgram: number): TrackingProtocol {
  const adapting = weeksOnProgram < ADAPTATION_WEEKS;
  const weeks14 =
    'Weigh every food on a kitchen scale and log it in a tracking app; weigh yourself every morning (fasted, after the toilet) and use the weekly average.';
  const weeks5 =
    'Log plan meals by recipe name (their macros are fixed) and weigh only foods you swap in; weigh yourself 3 mornings a week and use the average. If gain stays under 0.25 kg/week for 2 weeks, go back to full logging for a week.';
  return {
    weeks_1_4: adapting ? `CURRENT (week ${weeksOnProgram + 1}). ${weeks14}` : weeks14,
    weeks_5_plus: adapting ? weeks5 : `CURRENT (week ${weeksOnProgram + 1}). ${weeks5}`,
  };
}
