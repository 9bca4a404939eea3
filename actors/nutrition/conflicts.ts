import type { MacroTargets } from '../../protocol/nutrition/macro-targets.ts';
import type { NutritionStrategy } from '../../protocol/nutrition/nutrition-strategy.ts';
import type { Recipe, Recipes } from '../../protocol/nutrition/recipes.ts';
import { MealSlotSchema, type SlotSpec, type WeeklyMealPlan } from '../../protocol/nutrition/weekly-meal-plan.ts';
import { WeekdaySchema } from '../../protocol/nutrition/weekday.ts';

// The orchestrator's conflict detection (§8): each lower-ranked output checked against the
// higher-ranked one it must follow. The detectors only report; resolution is the orchestrator's.

/** One §8 conflict: which rule, which agents, which field, and by how much. */
export interface AgentConflict {
  /** The §8 rank whose rule is broken: 2 (SCIENTIST numbers), 3 (NUTRITIONIST strategy), 4 (DIETITIAN slot specs). */
  readonly rank: 2 | 3 | 4;
  readonly higher_agent: 'SCIENTIST' | 'NUTRITIONIST' | 'DIETITIAN';
  readonly lower_agent: 'NUTRITIONIST' | 'DIETITIAN' | 'CHEF';
  /** Dotted path of the field in the lower agent's output (or the derived total). */
  readonly field: string;
  /** The higher agent's value (the authority). */
  readonly expected: number;
  readonly actual: number;
  /** `(actual - expected) / max(|expected|, 1)`: signed, 0.1 = 10 % over. */
  readonly deviation: number;
}

/** Above this relative deviation a DIETITIAN weekly total breaks rank 3 (§8: "> 5 %"). */
const RANK_3_TOLERANCE = 0.05;
/** Above this relative deviation a CHEF recipe breaks rank 4 (§8: "> 10 %"). */
const RANK_4_TOLERANCE = 0.1;

/**
 * Relative deviation. The denominator is at least 1 (g or kcal) so that a slot spec of 0 g fat
 * compares without dividing by zero: 0.5 g against 0 g is a 50 % deviation, 3 g 300 %.
 */
export function deviation(expected: number, actual: number): number {
  return (actual - expected) / Math.max(Math.abs(expected), 1);
}

/** The four totals every nutrition stage carries. */
const TOTALS = ['target_intake_kcal', 'protein_g', 'fat_g', 'carbs_g'] as const;

/**
 * Rank 2 (§8): the NUTRITIONIST's totals must equal the SCIENTIST's exactly (pass-through, §4.3).
 * One conflict per differing field.
 */
export function detectRank2Conflict(macroTargets: MacroTargets, strategy: NutritionStrategy): AgentConflict[] {
  return TOTALS.filter((field) => strategy[field] !== macroTargets[field]).map((field) => ({
    rank: 2,
    higher_agent: 'SCIENTIST',
    lower_agent: 'NUTRITIONIST',
    field,
    expected: macroTargets[field],
    actual: strategy[field],
    deviation: deviation(macroTargets[field], strategy[field]),
  }));
}

/** The week's totals of a meal plan: the slot specs of 7 days x 5 slots summed. */
export function weeklyPlanTotals(plan: WeeklyMealPlan): Record<'calories' | 'protein_g' | 'fat_g' | 'carbs_g', number> {
  const totals = { calories: 0, protein_g: 0, fat_g: 0, carbs_g: 0 };
  for (const day of WeekdaySchema.options) {
    for (const slot of MealSlotSchema.options) {
      const spec = plan.weekly_template[day]?.[slot]?.slot_spec;
      if (!spec) continue;
      totals.calories += spec.calories;
      totals.protein_g += spec.protein_g;
      totals.fat_g += spec.fat_g;
      totals.carbs_g += spec.carbs_g;
    }
  }
  return totals;
}

/**
 * Rank 3 (§8): the DIETITIAN's weekly totals must be within 5 % of the NUTRITIONIST's daily
 * targets x 7 (exactly 5 % is allowed). Fields are named `weekly_template.<total>`.
 */
export function detectRank3Conflict(strategy: NutritionStrategy, plan: WeeklyMealPlan): AgentConflict[] {
  const week = weeklyPlanTotals(plan);
  const pairs = [
    ['calories', strategy.target_intake_kcal],
    ['protein_g', strategy.protein_g],
    ['fat_g', strategy.fat_g],
    ['carbs_g', strategy.carbs_g],
  ] as const;
  return pairs.flatMap(([field, daily]) => {
    const expected = daily * 7;
    const gap = deviation(expected, week[field]);
    if (Math.abs(gap) <= RANK_3_TOLERANCE + 1e-12) return [];
    return [
      {
        rank: 3,
        higher_agent: 'NUTRITIONIST',
        lower_agent: 'DIETITIAN',
        field: `weekly_template.${field}`,
        expected,
        actual: week[field],
        deviation: gap,
      } as const,
    ];
  });
}

/**
 * The id a recipe is referred to by in `alternatives` and `substitution_bank`: its `recipe_id`,
 * or, when a CHEF leaves it out, its `recipe_name`.
 */
function recipeRef(recipe: Recipe): string {
  return recipe.recipe_id ?? recipe.recipe_name;
}

const SLOT_FIELDS = ['calories', 'protein_g', 'fat_g', 'carbs_g'] as const satisfies ReadonlyArray<keyof SlotSpec>;

/**
 * Rank 4 (§8): every CHEF recipe that answers a slot must be within 10 % of that slot's spec, per
 * serving, on calories, protein, fat and carbs (exactly 10 % is allowed). A recipe answers a slot
 * when its id (`recipeRef`) is among the slot's `alternatives`; a recipe listed by no slot is not
 * checked. Fields are named `weekly_template.<day>.<slot>[<recipe id>].<macro>`.
 */
export function detectRank4Conflict(plan: WeeklyMealPlan, recipes: Recipes): AgentConflict[] {
  const byRef = new Map(recipes.recipes.map((recipe) => [recipeRef(recipe), recipe] as const));
  const conflicts: AgentConflict[] = [];
  for (const day of WeekdaySchema.options) {
    for (const slot of MealSlotSchema.options) {
      const plannedSlot = plan.weekly_template[day]?.[slot];
      if (!plannedSlot) continue;
      for (const ref of plannedSlot.alternatives) {
        const recipe = byRef.get(ref);
        if (!recipe) continue;
        for (const field of SLOT_FIELDS) {
          const expected = plannedSlot.slot_spec[field];
          const actual = recipe.macros_per_serving[field];
          const gap = deviation(expected, actual);
          if (Math.abs(gap) <= RANK_4_TOLERANCE + 1e-12) continue;
          conflicts.push({
            rank: 4,
            higher_agent: 'DIETITIAN',
            lower_agent: 'CHEF',
            field: `weekly_template.${day}.${slot}[${ref}].${field}`,
            expected,
            actual,
            deviation: gap,
          });
        }
      }
    }
  }
  return conflicts;
}
