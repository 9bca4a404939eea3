import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import type { MealSlot, SlotSpec } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';

/**
 * §8 rank 4 cannot be met: no eligible recipe (aversions, skill, time cap) scales to a slot spec
 * within the tolerance, so the CHEF can neither adjust nor substitute. The conflict goes back to
 * the DIETITIAN (chef_processing -> dietitian_processing) or, after a re-run, to the user.
 */
export class ChefScalingError extends RuntimeError {
  override name = 'ChefScalingError';
  constructor(
    readonly slot: MealSlot,
    readonly day: Weekday,
    readonly slotSpec: SlotSpec,
    /** Ids of the recipes tried, in order; empty when none was eligible. */
    readonly tried: readonly string[],
    readonly tolerance: number,
  ) {
    super(
      'slot_spec_unreachable',
      `No recipe meets the ${day} ${slot} slot spec (${slotSpec.calories} kcal, ${slotSpec.protein_g} g protein, ` +
        `${slotSpec.carbs_g} g carbs, ${slotSpec.fat_g} g fat, ${slotSpec.prep_time_max_min} min) within ${Math.round(tolerance * 100)} %: ` +
        (tried.length > 0
          ? `tried ${tried.join(', ')}.`
          : 'no recipe is eligible under its constraints (aversions, difficulty, time).') +
        ' Re-run the DIETITIAN with a slot spec the recipe bank can meet, or relax the constraints.',
      422,
    );
  }
}
