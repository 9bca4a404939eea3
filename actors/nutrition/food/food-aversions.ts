import { FOOD_TABLE } from './food-table.ts';
import type { FoodId } from './food-table.ts';

/** §4.1: `food_aversions` always includes these; the brains exclude them even if a list omits them. */
export const ALWAYS_AVERTED = ['peanut_butter', 'nut_butters'] as const;

/**
 * Normalizes a food word so that "Peanut butter", "peanut-butter" and "peanut_butters" compare
 * equal: lower case, words joined by `_`, each word in the singular.
 */
export function normalizeFoodWord(word: string): string {
  let normalized = NORMALIZED.get(word);
  if (normalized === undefined) {
    normalized = normalize(word);
    // Bounded: the table's words and the aversions users type; a flood of new words starts over.
    if (NORMALIZED.size >= MAX_NORMALIZED) NORMALIZED.clear();
    NORMALIZED.set(word, normalized);
  }
  return normalized;
}

const MAX_NORMALIZED = 10_000;
const NORMALIZED = new Map<string, string>();

function normalize(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .split('_')
    .map(singular)
    .join('_');
}

/** English plural to singular for food words: berries -> berry, tomatoes -> tomato, eggs -> egg. */
function singular(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|oes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) {
    return word.slice(0, -1);
  }
  return word;
}

/** The normalized aversion set of a client, the §4.1 always-averted items included. */
export function aversionSet(aversions: readonly string[]): ReadonlySet<string> {
  return new Set([...ALWAYS_AVERTED, ...aversions].map(normalizeFoodWord).filter((word) => word !== ''));
}

const FOOD_WORDS = new Map<FoodId, readonly string[]>();

/** The normalized words that name a food: its id, its ingredient name and its tags (memoized). */
function foodWords(food: FoodId): readonly string[] {
  let words = FOOD_WORDS.get(food);
  if (!words) {
    const row = FOOD_TABLE[food];
    words = [...new Set([food, row.name, ...row.tags].map(normalizeFoodWord))];
    FOOD_WORDS.set(food, words);
  }
  return words;
}

/**
 * Whether a client who avoids `aversions` must not be served `food`: an aversion names the food
 * by its id, its ingredient name or one of its tags (its plain name or family, e.g. "dairy").
 * An aversion that names no food of the table excludes nothing (and the plan lists it as an
 * `avoid:` constraint so that the CHEF can still honour it).
 */
export function isFoodAverted(food: FoodId, aversions: ReadonlySet<string>): boolean {
  return foodWords(food).some((word) => aversions.has(word));
}
