import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import type { CookingSkill } from '../../../protocol/nutrition/client-profile.ts';
import type { CyclePhase } from '../../../protocol/nutrition/cycle-phase.ts';
import type { ClientConstraints } from '../../../protocol/nutrition/macro-targets.ts';
import type { NutritionStrategy } from '../../../protocol/nutrition/nutrition-strategy.ts';
import type { MealSlot, MealSlotPlan, WeeklyMealPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import { firstPerProteinAndCuisine, pickRecipe } from '../recipes/chef-recipe-picker.ts';
import { memoizedScaler } from '../recipes/chef-scaling.ts';
import { DietitianPlanningError } from './dietitian-planning-error.ts';
import { emergencyProtocol, soloWeekProtocol, trackingProtocol } from './dietitian-protocols.ts';
import { alternativesFor, assignPrimaries, previousSlot, WEEKDAYS } from './dietitian-rotation.ts';
import type { SlotOptions } from './dietitian-rotation.ts';
import { buildSlotSpecs, MEAL_SLOTS } from './dietitian-slot-specs.ts';
import type { DailyTargets } from './dietitian-slot-specs.ts';
import { eligibleRecipes, slotRequirements } from '../recipes/recipe-bank-eligibility.ts';
import type { SlotRequirements } from '../recipes/recipe-bank-eligibility.ts';
import type { BankRecipe, RecipeTrait } from '../recipes/recipe-bank-entry.ts';

/**
 * §8 rank 3 re-run: the NUTRITIONIST's authoritative numbers the plan must add up to exactly;
 * each given field replaces the strategy's.
 */
export type DietitianConstraint = Partial<DailyTargets>;

/**
 * §10: why the plan is re-run, when the reason itself changes the plan (other triggers change
 * the strategy instead). `compliance_issue`: more than 2 minimum viable days in a week, so the
 * plan gets simpler (one cooking-skill level lower, no-cook and batch recipes first).
 * `cycle_phase_adjustment`: the cycle phase to plan for (luteal: more energy late in the day).
 */
export type DietitianRerunReason =
  { trigger: 'compliance_issue' } | { trigger: 'cycle_phase_adjustment'; cycle_phase: CyclePhase };

/** What the DIETITIAN needs besides the §4.3 strategy. */
export interface DietitianContext {
  /** §4.2 `client_constraints`: aversions, appetite, cooking skill, partner. */
  client_constraints: ClientConstraints;
  /** §4.2 `weeks_on_program`: picks the current tracking method. */
  weeks_on_program: number;
  /** Its own previous plan on a re-run (§10 rule 2): days keep their recipes where still valid. */
  previous_output?: WeeklyMealPlan;
  /**
   * §6.2: issues found in the previous attempt. Deterministic plans pass their schema (the
   * property tests check it over generated strategies), so issues point at a previous output
   * from another brain: it is then not reused, and the plan is rebuilt from the strategy.
   */
  validation_issues?: readonly ErrorIssue[];
  /** §8 rank 3: authoritative numbers from the NUTRITIONIST to comply with exactly. */
  constraint?: DietitianConstraint;
  /** §10: a re-run whose reason changes the plan itself. */
  rerun_reason?: DietitianRerunReason;
}

/** One cooking-skill level lower (basic stays basic): a simpler week after a compliance issue. */
const SIMPLER: Record<CookingSkill, CookingSkill> = { basic: 'basic', intermediate: 'basic', advanced: 'intermediate' };

/**
 * DIETITIAN (§4.4): turns a nutrition strategy into a 7-day x 5-slot meal template whose daily
 * slot specs add up to the targets (so the week is 7 x the targets to 0.1, well inside §8's 5 %),
 * with protein per slot following `protein_distribution`. Every recipe it names (primary,
 * alternatives, substitution bank, solo week) honours the client's aversions (never nut
 * butters), cooking skill and time caps, and scales to its slot spec within §8's 10 %, so the CHEF
 * can always comply. Deterministic: the same inputs give the same plan.
 *
 * @example
 * const plan = buildWeeklyMealPlan(strategy, { client_constraints, weeks_on_program: 0 });
 */
export function buildWeeklyMealPlan(strategy: NutritionStrategy, context: DietitianContext): WeeklyMealPlan {
  const reason = context.rerun_reason;
  const simplify = reason?.trigger === 'compliance_issue';
  const client = simplify
    ? { ...context.client_constraints, cooking_skill: SIMPLER[context.client_constraints.cooking_skill] }
    : context.client_constraints;
  const targets = applyConstraint(
    {
      target_intake_kcal: strategy.target_intake_kcal,
      protein_g: strategy.protein_g,
      fat_g: strategy.fat_g,
      carbs_g: strategy.carbs_g,
      protein_distribution: strategy.protein_distribution,
    },
    context.constraint,
  );
  const specs = buildSlotSpecs(
    targets,
    client,
    reason?.trigger === 'cycle_phase_adjustment' ? reason.cycle_phase : undefined,
  );
  const scale = memoizedScaler();
  const requirements = {} as Record<MealSlot, SlotRequirements>;
  const eligible = {} as Record<MealSlot, readonly BankRecipe[]>;
  const options = {} as Record<MealSlot, SlotOptions>;
  for (const slot of MEAL_SLOTS) {
    const req = slotRequirements(slot, specs[slot], client);
    eligible[slot] = eligibleRecipes(req);
    const feasible = eligible[slot].filter((recipe) => scale(recipe, specs[slot], req.aversions));
    if (feasible.length === 0) {
      throw new DietitianPlanningError(
        `No recipe fits the ${slot} slot (${specs[slot].calories} kcal, ${specs[slot].protein_g} g protein, ${specs[slot].prep_time_max_min} min, ${client.cooking_skill} cook) without an averted food: relax food_aversions or the protein distribution.`,
      );
    }
    requirements[slot] = req;
    options[slot] = { feasible, primaries: preferred(firstPerProteinAndCuisine(feasible), slot, client, simplify) };
  }

  const reusePrevious = (context.validation_issues ?? []).length === 0 ? context.previous_output : undefined;
  const week = assignPrimaries(options, (day, slot) => {
    const previous = previousSlot(reusePrevious, day, slot);
    return previous
      ? pickRecipe(requirements[slot], previous, specs[slot], undefined, scale, eligible[slot])?.recipe
      : undefined;
  });

  // The slot types serving each recipe, in slot order. A recipe served in another slot type is
  // never this slot's substitute; one that two slot types share (when one has nothing of its own)
  // is scaled once for each, and the later slot type names the CHEF's later scaling.
  const servingSlots = new Map<string, MealSlot[]>();
  for (const slot of MEAL_SLOTS)
    for (const id of new Set(WEEKDAYS.map((day) => week[day][slot].id)))
      servingSlots.set(id, [...(servingSlots.get(id) ?? []), slot]);
  const servedOutside = new Map<MealSlot, ReadonlySet<string>>(
    MEAL_SLOTS.map((slot) => [
      slot,
      new Set([...servingSlots].filter(([, slots]) => slots.some((other) => other !== slot)).map(([id]) => id)),
    ]),
  );
  const weeklyTemplate = {} as Record<Weekday, Record<MealSlot, MealSlotPlan>>;
  for (const day of WEEKDAYS) {
    const slots = {} as Record<MealSlot, MealSlotPlan>;
    for (const slot of MEAL_SLOTS) {
      const recipe = week[day][slot];
      slots[slot] = {
        slot_spec: specs[slot],
        alternatives: alternativesFor(
          options[slot].feasible,
          recipe,
          servedOutside.get(slot)!,
          servingSlots.get(recipe.id)!.indexOf(slot) + 1,
        ),
        primary_protein: recipe.primary_protein,
        cuisine_theme: recipe.cuisine,
      };
    }
    weeklyTemplate[day] = slots;
  }

  const noCook = [...new Set(MEAL_SLOTS.flatMap((slot) => eligible[slot]))].filter((recipe) =>
    recipe.traits.includes('no_cook'),
  );
  return {
    weekly_template: weeklyTemplate,
    substitution_bank: Object.fromEntries(
      MEAL_SLOTS.map((slot) => [slot, options[slot].feasible.map((recipe) => recipe.id)]),
    ),
    emergency_protocol: emergencyProtocol(targets, noCook),
    solo_week_protocol: soloWeekProtocol(options.dinner.feasible, specs.dinner, client.partner_cooks),
    tracking_protocol: trackingProtocol(context.weeks_on_program),
  };
}

/**
 * Orders a slot's primaries by what the client needs most (stable, bank order otherwise): a low
 * appetite gets drinkable recipes first outside lunch and dinner; lunches, and dinners of clients
 * who cook alone, get batch-friendly recipes first; a simplified week (compliance issue) puts
 * no-cook recipes first, then batch-friendly ones.
 */
function preferred(
  recipes: readonly BankRecipe[],
  slot: MealSlot,
  client: ClientConstraints,
  simplify: boolean,
): BankRecipe[] {
  const main = slot === 'lunch' || slot === 'dinner';
  const traits: RecipeTrait[] = [];
  if (simplify) traits.push('no_cook');
  if (client.appetite_level === 'low' && !main) traits.push('liquid');
  if (slot === 'lunch' || (slot === 'dinner' && (!client.partner_cooks || simplify))) traits.push('batch_friendly');
  const rank = (recipe: BankRecipe) => {
    const index = traits.findIndex((trait) => recipe.traits.includes(trait));
    return index === -1 ? traits.length : index;
  };
  return recipes.toSorted((a, b) => rank(a) - rank(b));
}

/**
 * The targets with a §8 rank-3 constraint's fields in place of the strategy's. Only the five
 * known fields are taken, and only as finite numbers: the constraint arrives as untyped data.
 */
function applyConstraint(targets: DailyTargets, constraint: DietitianConstraint | undefined): DailyTargets {
  if (!constraint) return targets;
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  const split = constraint.protein_distribution;
  return {
    target_intake_kcal: number(constraint.target_intake_kcal, targets.target_intake_kcal),
    protein_g: number(constraint.protein_g, targets.protein_g),
    fat_g: number(constraint.fat_g, targets.fat_g),
    carbs_g: number(constraint.carbs_g, targets.carbs_g),
    protein_distribution: {
      breakfast_g: number(split?.breakfast_g, targets.protein_distribution.breakfast_g),
      lunch_g: number(split?.lunch_g, targets.protein_distribution.lunch_g),
      snack_g: number(split?.snack_g, targets.protein_distribution.snack_g),
      dinner_g: number(split?.dinner_g, targets.protein_distribution.dinner_g),
      presleep_g: number(split?.presleep_g, targets.protein_distribution.presleep_g),
    },
  };
}
