import type { AppetiteLevel, CookingSkill } from '../../../protocol/nutrition/client-profile.ts';
import type { CalorieTier } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { firstAcceptable } from './nutritionist-food-aversions.ts';

// The hardgainer tactics bank (§4.3 `hardgainer_tactics`, "ordered by priority").

/** One way to word a tactic, with the foods it names (checked against the aversions). */
interface TacticOption {
  readonly text: string;
  readonly foods: readonly string[];
}

type TacticId =
  | 'schedule'
  | 'liquid'
  | 'dense'
  | 'water_between'
  | 'ready_snacks'
  | 'protein_each_slot'
  | 'carbs_around_training'
  | 'portions'
  | 'batch_cook';

/** Each tactic in one or more wordings; the first the client can eat is used. */
const TACTICS: Readonly<Record<TacticId, readonly TacticOption[]>> = {
  schedule: [
    { text: 'Eat by the clock, not by hunger: all five slots every day, 3-4 h apart, even when not hungry', foods: [] },
  ],
  liquid: [
    {
      text: 'Drink part of the energy: a shake of whole milk, oats, banana and whey in the snack slot adds 600-700 kcal with little fullness',
      foods: ['whole milk', 'oats', 'banana', 'whey'],
    },
    {
      text: 'Drink part of the energy: a shake of oat milk, oats, banana and pea protein in the snack slot adds 500-600 kcal with little fullness',
      foods: ['oat milk', 'oats', 'banana', 'pea protein'],
    },
    {
      text: 'Drink part of the energy: a smoothie of fruit juice, banana, seeds and rice protein in the snack slot adds 400-500 kcal',
      foods: ['fruit juice', 'banana', 'seeds', 'rice protein'],
    },
  ],
  dense: [
    {
      text: 'Make meals denser before making them bigger: 1 tbsp olive oil on lunch and dinner (+240 kcal), cheese, avocado, granola, dried fruit',
      foods: ['olive oil', 'cheese', 'avocado', 'granola', 'dried fruit'],
    },
    {
      text: 'Make meals denser before making them bigger: 1 tbsp olive oil on lunch and dinner (+240 kcal), avocado, seeds, dried fruit',
      foods: ['olive oil', 'avocado', 'seeds', 'dried fruit'],
    },
    {
      text: 'Make meals denser before making them bigger: cook starches in stock with a knob of butter, add dried fruit and seeds',
      foods: ['stock', 'butter', 'dried fruit', 'seeds'],
    },
  ],
  water_between: [
    { text: 'Drink water between meals, not with them: a large drink before eating fills the stomach', foods: [] },
  ],
  ready_snacks: [
    {
      text: 'Keep ready-to-eat snacks in reach (granola bars, dried fruit, cheese and crackers) so a slot is never skipped for lack of time',
      foods: ['granola', 'dried fruit', 'cheese', 'crackers'],
    },
    {
      text: 'Keep ready-to-eat snacks in reach (dried fruit, rice cakes, seeds, bananas) so a slot is never skipped for lack of time',
      foods: ['dried fruit', 'rice cakes', 'seeds', 'banana'],
    },
  ],
  protein_each_slot: [
    {
      text: 'Hit the protein amount of every slot (protein_distribution): 4-5 feedings of 20-40 g spread over the day build more muscle than 2 large ones',
      foods: [],
    },
  ],
  carbs_around_training: [
    {
      text: 'Put the largest carbohydrate portions in the meals before and after training, when appetite and glycogen use are highest',
      foods: [],
    },
  ],
  portions: [
    {
      text: 'Serve the slot portions and stop there: with a big appetite the risk is overshooting the surplus, not missing it',
      foods: [],
    },
  ],
  batch_cook: [
    {
      text: 'Batch-cook two bases (a starch and a protein) twice a week so that any slot is under 10 minutes away',
      foods: [],
    },
  ],
};

/**
 * Priority order by appetite. Low appetite: structure and liquid, dense calories first, because
 * the hard part is eating enough at all. Normal: protein timing and density. High: portion
 * discipline, the surplus being easy to overshoot.
 */
const TACTIC_ORDER: Readonly<Record<AppetiteLevel, readonly TacticId[]>> = {
  low: ['schedule', 'liquid', 'dense', 'water_between', 'ready_snacks', 'protein_each_slot', 'carbs_around_training'],
  normal: ['protein_each_slot', 'dense', 'schedule', 'liquid', 'carbs_around_training', 'ready_snacks'],
  high: ['protein_each_slot', 'portions', 'carbs_around_training', 'schedule'],
};

/** What the tactics depend on. */
interface TacticInputs {
  readonly appetite: AppetiteLevel;
  readonly aversions: readonly string[];
  readonly cooking_skill: CookingSkill;
  readonly partner_cooks: boolean;
  readonly current_tier: CalorieTier;
  readonly target_intake_kcal: number;
}

/**
 * The tactics, highest priority first: the ramp note while below tier 2 (the most important thing
 * is to eat the current tier, not more), then the appetite's order, then batch cooking for a
 * basic cook without a partner who cooks. A tactic whose every wording names an averted food is
 * left out.
 */
export function selectTactics(inputs: TacticInputs): string[] {
  const tactics: string[] = [];
  if (inputs.current_tier < 2) {
    tactics.push(
      `Calorie ramp tier ${inputs.current_tier} of 2: eat ${inputs.target_intake_kcal} kcal every day; the next tier adds about a snack after 2 weeks at this one`,
    );
  }
  const ids: TacticId[] = [...TACTIC_ORDER[inputs.appetite]];
  if (inputs.cooking_skill === 'basic' && !inputs.partner_cooks) ids.push('batch_cook');
  for (const id of ids) {
    const option = firstAcceptable(TACTICS[id], inputs.aversions);
    if (option) tactics.push(option.text);
  }
  return tactics;
}
