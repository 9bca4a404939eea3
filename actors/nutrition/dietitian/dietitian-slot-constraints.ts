import type { RecipeDifficulty } from '../recipes/recipe-bank-entry.ts';

/**
 * The `slot_spec.constraints` vocabulary the DIETITIAN writes and the CHEF reads, so that a plan
 * alone carries everything the CHEF must honour:
 * - `avoid:<food>`: an aversion (§4.1 `food_aversions`), one per averted food;
 * - `max_difficulty:<skill>`: the client's §4.1 `cooking_skill` caps recipe difficulty;
 * - `shared_dinner`: the partner cooks and eats this dinner too (§4.1 `partner_cooks`);
 * - `liquid_calories_preferred`, `calorie_dense`: low appetite (§4.1 `appetite_level`);
 * - `batch_cook`: the slot is cooked once for several days.
 * Strings outside the vocabulary (e.g. from a model-backed DIETITIAN) are kept but ignored.
 */
interface SlotConstraints {
  avoid: string[];
  maxDifficulty?: RecipeDifficulty;
  sharedDinner: boolean;
  liquidPreferred: boolean;
  calorieDense: boolean;
  batchCook: boolean;
}

const AVOID = 'avoid:';
const MAX_DIFFICULTY = 'max_difficulty:';
const FLAGS = {
  sharedDinner: 'shared_dinner',
  liquidPreferred: 'liquid_calories_preferred',
  calorieDense: 'calorie_dense',
  batchCook: 'batch_cook',
} as const;
const DIFFICULTIES: readonly RecipeDifficulty[] = ['basic', 'intermediate', 'advanced'];

/** The constraint strings of a slot, in a fixed order. */
export function formatSlotConstraints(constraints: SlotConstraints): string[] {
  const out = constraints.avoid.map((food) => `${AVOID}${food}`);
  if (constraints.maxDifficulty) out.push(`${MAX_DIFFICULTY}${constraints.maxDifficulty}`);
  for (const key of Object.keys(FLAGS) as (keyof typeof FLAGS)[]) {
    if (constraints[key]) out.push(FLAGS[key]);
  }
  return out;
}

/** Reads a slot's constraint strings back; unknown strings are ignored. */
export function parseSlotConstraints(strings: readonly string[]): SlotConstraints {
  const parsed: SlotConstraints = {
    avoid: [],
    sharedDinner: false,
    liquidPreferred: false,
    calorieDense: false,
    batchCook: false,
  };
  for (const raw of strings) {
    const value = raw.trim();
    if (value.startsWith(AVOID)) {
      const food = value.slice(AVOID.length).trim();
      if (food !== '') parsed.avoid.push(food);
      continue;
    }
    if (value.startsWith(MAX_DIFFICULTY)) {
      const level = DIFFICULTIES.find((d) => d === value.slice(MAX_DIFFICULTY.length).trim());
      if (level) parsed.maxDifficulty = level;
      continue;
    }
    for (const key of Object.keys(FLAGS) as (keyof typeof FLAGS)[]) {
      if (value === FLAGS[key]) parsed[key] = true;
    }
  }
  return parsed;
}
