import type { AppetiteLevel, CookingSkill } from '../../../protocol/nutrition/client-profile.ts';
import type { CyclePhase } from '../../../protocol/nutrition/cycle-phase.ts';
import type { ClientConstraints } from '../../../protocol/nutrition/macro-targets.ts';
import type { NutritionStrategy } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { MealSlotSchema } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { MealSlot, SlotSpec } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { MacroTarget } from '../recipes/chef-recipe-deviation.ts';
import { DietitianPlanningError } from './dietitian-planning-error.ts';
import { formatSlotConstraints } from './dietitian-slot-constraints.ts';
import { ALWAYS_AVERTED, normalizeFoodWord } from '../food/food-aversions.ts';

/** The five §4.4 meal slots, in the order of the day. */
export const MEAL_SLOTS: readonly MealSlot[] = MealSlotSchema.options;

/** The daily numbers a plan must add up to (§4.3 pass-through targets and protein distribution). */
export type DailyTargets = Pick<
  NutritionStrategy,
  'target_intake_kcal' | 'protein_g' | 'fat_g' | 'carbs_g' | 'protein_distribution'
>;

/**
 * Share of the day's non-protein energy (carbs + fat) per slot. A low appetite gets smaller main
 * meals and more between them, where drinks go down easily; a high appetite the reverse.
 * Rules of this plan (not published constants); each row sums to 1.
 */
const NON_PROTEIN_ENERGY_SHARES: Record<AppetiteLevel, Record<MealSlot, number>> = {
  low: { breakfast: 0.2, lunch: 0.23, snack: 0.18, dinner: 0.22, presleep: 0.17 },
  normal: { breakfast: 0.22, lunch: 0.27, snack: 0.13, dinner: 0.28, presleep: 0.1 },
  high: { breakfast: 0.22, lunch: 0.28, snack: 0.12, dinner: 0.3, presleep: 0.08 },
};

/**
 * Share of the day's non-protein energy moved to the snack and pre-sleep meal in the luteal
 * phase, half each, taken from the three main meals in proportion: energy intake and cravings
 * rise in the luteal phase (Davidsen L, Vistisen B, Astrup A 2007, Int J Obes 31:1777-1785),
 * so the day's totals stay (§8 rank 2) and more of them come late, when hunger does.
 */
const LUTEAL_SHIFT = 0.05;

/** The non-protein energy shares for an appetite, in the given cycle phase. */
function energyShares(appetite: AppetiteLevel, cyclePhase?: CyclePhase): Record<MealSlot, number> {
  const shares = { ...NON_PROTEIN_ENERGY_SHARES[appetite] };
  if (cyclePhase !== 'luteal') return shares;
  const mains = shares.breakfast + shares.lunch + shares.dinner;
  for (const slot of ['breakfast', 'lunch', 'dinner'] as const) shares[slot] -= (LUTEAL_SHIFT * shares[slot]) / mains;
  shares.snack += LUTEAL_SHIFT / 2;
  shares.presleep += LUTEAL_SHIFT / 2;
  return shares;
}

/**
 * Relative weight of fat in each slot's non-protein energy: less around the snack (often the
 * pre/post-training meal, where fast carbs help), more at dinner and before sleep.
 */
const FAT_TILT: Record<MealSlot, number> = { breakfast: 1, lunch: 1, snack: 0.8, dinner: 1.1, presleep: 1.2 };

/** Protein split used only if a distribution sums to zero (then the NUTRITIONIST gave none). */
const FALLBACK_PROTEIN_SHARES: Record<MealSlot, number> = {
  breakfast: 0.2,
  lunch: 0.25,
  snack: 0.15,
  dinner: 0.25,
  presleep: 0.15,
};

/**
 * Minutes (prep + cook) a client can spend per slot, by §4.1 `cooking_skill`: a basic cook gets
 * breakfasts in 10 minutes and 5-minute snacks; lunches are batch-cooked, dinners the longest.
 */
export const PREP_TIME_CAPS: Record<CookingSkill, Record<MealSlot, number>> = {
  basic: { breakfast: 10, lunch: 20, snack: 5, dinner: 40, presleep: 5 },
  intermediate: { breakfast: 20, lunch: 35, snack: 15, dinner: 60, presleep: 10 },
  advanced: { breakfast: 40, lunch: 60, snack: 20, dinner: 90, presleep: 15 },
};

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Splits the daily targets over the five slots so that every day adds up exactly (§8 rank 3):
 * - protein per slot follows `protein_distribution`, rescaled to `protein_g` if it does not sum to
 *   it (§8 rank 2: the SCIENTIST's total wins over the NUTRITIONIST's split);
 * - the non-protein energy `kcal - 4 x protein` is shared by `energyShares` (appetite, cycle);
 * - fat follows those shares tilted by `FAT_TILT`, carbs fill the rest of each slot's energy, so
 *   each slot's calories match its macros (Atwater) as well as the day's do. If the tilt would
 *   leave a slot without carbs, fat is shared untilted.
 * Each quantity is rounded to 0.1 and dinner takes the rounding remainder, so the daily sums are
 * the targets to 0.1.
 */
export function slotMacros(
  targets: DailyTargets,
  appetite: AppetiteLevel,
  cyclePhase?: CyclePhase,
): Record<MealSlot, MacroTarget> {
  const { target_intake_kcal: kcal, protein_g: protein, fat_g: fat, carbs_g: carbs } = targets;
  const distribution = MEAL_SLOTS.map((slot) => targets.protein_distribution[`${slot}_g`]);
  const distributed = distribution.reduce((a, b) => a + b, 0);
  const proteinOf = (slot: MealSlot, index: number) =>
    distributed > 0 ? ((distribution[index] ?? 0) * protein) / distributed : protein * FALLBACK_PROTEIN_SHARES[slot];
  const nonProtein = kcal - 4 * protein;
  if (nonProtein <= 0 || carbs + fat <= 0) {
    throw new DietitianPlanningError(
      `The targets leave no energy for carbs and fat (${kcal} kcal, ${protein} g protein): the NUTRITIONIST's targets must be corrected.`,
    );
  }
  // Ratio of the energy carbs and fat actually bring to the energy left after protein: 1 when
  // the targets are self-consistent; carbs absorb it so that every daily sum stays exact.
  const consistency = (4 * carbs + 9 * fat) / nonProtein;
  const shares = energyShares(appetite, cyclePhase);
  const tilted = MEAL_SLOTS.map((slot) => shares[slot] * FAT_TILT[slot]);
  const tiltedSum = tilted.reduce((a, b) => a + b, 0);
  const split = (fatWeights: number[], weightSum: number) =>
    MEAL_SLOTS.map((slot, index) => {
      const energy = nonProtein * shares[slot];
      const slotFat = (fat * (fatWeights[index] ?? 0)) / weightSum;
      return { slot, energy, fat: slotFat, carbs: (consistency * energy - 9 * slotFat) / 4 };
    });
  let parts = split(tilted, tiltedSum);
  if (parts.some((part) => part.carbs < 0))
    parts = split(
      MEAL_SLOTS.map((slot) => shares[slot]),
      1,
    );

  const raw = parts.map((part, index) => ({
    slot: part.slot,
    protein_g: proteinOf(part.slot, index),
    carbs_g: part.carbs,
    fat_g: part.fat,
    calories: 4 * proteinOf(part.slot, index) + part.energy,
  }));
  const totals: MacroTarget = { protein_g: protein, carbs_g: carbs, fat_g: fat, calories: kcal };
  const result = Object.fromEntries(
    MEAL_SLOTS.map((slot) => [slot, { protein_g: 0, carbs_g: 0, fat_g: 0, calories: 0 }]),
  ) as Record<MealSlot, MacroTarget>;
  for (const key of ['protein_g', 'carbs_g', 'fat_g', 'calories'] as const) {
    let others = 0;
    for (const entry of raw) {
      if (entry.slot === 'dinner') continue;
      result[entry.slot][key] = round1(entry[key]);
      others += result[entry.slot][key];
    }
    result.dinner[key] = round1(totals[key] - others);
  }
  return result;
}

/**
 * The §4.4 slot specs of one day: macros, time cap and the constraints the CHEF must honour.
 * `client.cooking_skill` sets time caps and difficulty (the DIETITIAN lowers it to simplify).
 */
export function buildSlotSpecs(
  targets: DailyTargets,
  client: ClientConstraints,
  cyclePhase?: CyclePhase,
): Record<MealSlot, SlotSpec> {
  const macros = slotMacros(targets, client.appetite_level, cyclePhase);
  const avoid = [...new Set([...ALWAYS_AVERTED, ...client.food_aversions].map(normalizeFoodWord))].filter(
    (word) => word !== '',
  );
  const lowAppetite = client.appetite_level === 'low';
  const specs = {} as Record<MealSlot, SlotSpec>;
  for (const slot of MEAL_SLOTS) {
    specs[slot] = {
      ...macros[slot],
      prep_time_max_min: PREP_TIME_CAPS[client.cooking_skill][slot],
      constraints: formatSlotConstraints({
        avoid,
        maxDifficulty: client.cooking_skill,
        sharedDinner: slot === 'dinner' && client.partner_cooks,
        liquidPreferred: lowAppetite && (slot === 'snack' || slot === 'presleep'),
        calorieDense: lowAppetite,
        batchCook: slot === 'lunch',
      }),
    };
  }
  return specs;
}
