import { macroDeviation, recipeDeviation, SLOT_SPEC_TOLERANCE } from '../actors/nutrition/chef-recipe-deviation.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../protocol/nutrition/envelope.ts';
import type { PipelineContext } from './pipeline-context.ts';

/** §8: an output that contradicts a higher-ranked agent's, and the data that wins. */
export interface OutputConflict {
  rank: 2 | 3 | 4;
  higher_agent: 'SCIENTIST' | 'NUTRITIONIST' | 'DIETITIAN';
  lower_agent: 'NUTRITIONIST' | 'DIETITIAN' | 'CHEF';
  message: string;
  /** The higher-ranked agent's numbers the lower one must comply with. */
  authoritative: unknown;
}

/** §8 conflict detection: weekly totals may deviate at most 5 % from the daily targets x 7. */
export const WEEKLY_TOTAL_TOLERANCE = 0.05;
const MACROS = ['target_intake_kcal', 'protein_g', 'fat_g', 'carbs_g'] as const;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Rank 2: NUTRITIONIST passes SCIENTIST's totals through unchanged. */
function rank2(targets: EnvelopeOf<'macro_targets'>, strategy: EnvelopeOf<'nutrition_strategy'>): OutputConflict[] {
  const changed = MACROS.filter((key) => strategy.payload[key] !== targets.payload[key]);
  if (changed.length === 0) return [];
  const authoritative = Object.fromEntries(MACROS.map((key) => [key, targets.payload[key]]));
  return [
    {
      rank: 2,
      higher_agent: 'SCIENTIST',
      lower_agent: 'NUTRITIONIST',
      message: `NUTRITIONIST changed ${changed.map((k) => `${k} (${targets.payload[k]} -> ${strategy.payload[k]})`).join(', ')}; SCIENTIST's numbers stand.`,
      authoritative,
    },
  ];
}

/** Rank 3: the DIETITIAN's week adds up to the NUTRITIONIST's daily targets x 7. */
function rank3(strategy: EnvelopeOf<'nutrition_strategy'>, plan: EnvelopeOf<'weekly_meal_plan'>): OutputConflict[] {
  const totals = { protein_g: 0, carbs_g: 0, fat_g: 0, calories: 0 };
  for (const day of Object.values(plan.payload.weekly_template)) {
    for (const slot of Object.values(day)) {
      totals.protein_g += slot.slot_spec.protein_g;
      totals.carbs_g += slot.slot_spec.carbs_g;
      totals.fat_g += slot.slot_spec.fat_g;
      totals.calories += slot.slot_spec.calories;
    }
  }
  const s = strategy.payload;
  const weekly = { protein_g: s.protein_g * 7, carbs_g: s.carbs_g * 7, fat_g: s.fat_g * 7, calories: s.target_intake_kcal * 7 };
  const deviation = macroDeviation(totals, weekly);
  if (deviation.max <= WEEKLY_TOTAL_TOLERANCE) return [];
  const off = (['protein_g', 'carbs_g', 'fat_g', 'calories'] as const).filter((k) => Math.abs(deviation[k]) > WEEKLY_TOTAL_TOLERANCE);
  return [
    {
      rank: 3,
      higher_agent: 'NUTRITIONIST',
      lower_agent: 'DIETITIAN',
      message: `The week deviates from daily targets x 7 by ${off.map((k) => `${k} ${pct(deviation[k])}`).join(', ')} (at most 5 %).`,
      authoritative: { daily: { target_intake_kcal: s.target_intake_kcal, protein_g: s.protein_g, fat_g: s.fat_g, carbs_g: s.carbs_g }, weekly },
    },
  ];
}

/**
 * Rank 4: each CHEF recipe within 10 % of the slot spec it answers. A recipe answers the slots
 * whose first alternative is its `recipe_id` (the DIETITIAN's primary pick for the slot).
 */
function rank4(plan: EnvelopeOf<'weekly_meal_plan'>, recipes: EnvelopeOf<'recipes'>): OutputConflict[] {
  const conflicts: OutputConflict[] = [];
  for (const [day, slots] of Object.entries(plan.payload.weekly_template)) {
    for (const [slot, spec] of Object.entries(slots)) {
      const recipe = recipes.payload.recipes.find((r) => r.recipe_id !== undefined && r.recipe_id === spec.alternatives[0]);
      if (!recipe) continue;
      const deviation = recipeDeviation(recipe, spec.slot_spec);
      if (deviation.max <= SLOT_SPEC_TOLERANCE) continue;
      conflicts.push({
        rank: 4,
        higher_agent: 'DIETITIAN',
        lower_agent: 'CHEF',
        message: `${recipe.recipe_name} misses the ${day} ${slot} spec by up to ${pct(deviation.max)} (at most 10 %).`,
        authoritative: { day, slot, slot_spec: spec.slot_spec, recipe_id: recipe.recipe_id },
      });
    }
  }
  return conflicts;
}

/** §8 conflict detection: every output checked against its upstream before it passes downstream. */
export function detectOutputConflicts(context: PipelineContext, envelopes: readonly NutritionEnvelope[]): OutputConflict[] {
  const { macro_targets: targets, nutrition_strategy: strategy, weekly_meal_plan: plan } = context.outputs;
  return envelopes.flatMap((envelope) => {
    if (envelope.data_type === 'nutrition_strategy' && targets?.data_type === 'macro_targets') return rank2(targets, envelope);
    if (envelope.data_type === 'weekly_meal_plan' && strategy?.data_type === 'nutrition_strategy') return rank3(strategy, envelope);
    if (envelope.data_type === 'recipes' && plan?.data_type === 'weekly_meal_plan') return rank4(plan, envelope);
    return [];
  });
}
