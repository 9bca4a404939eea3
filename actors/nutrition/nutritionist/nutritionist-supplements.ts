import type { Supplement } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { firstAcceptable } from './nutritionist-food-aversions.ts';

// The supplement protocol (§4.3 `supplement_protocol`) and the hydration target that follows from it.

/** Body weight from which creatine goes from 3 to 5 g/day (about 0.04-0.06 g/kg either side). */
const CREATINE_HIGH_DOSE_FROM_KG = 80;

/**
 * Extra water for creatine, L/day: creatine draws water into muscle cells, and the ISSN position
 * stand advises adequate fluid with it (Kreider RB et al. 2017, J Int Soc Sports Nutr 14:18).
 */
const CREATINE_EXTRA_WATER_L = 0.25;

/**
 * Extra water for training and the daily steps, L/day: sweat losses of about 0.5-1 L per hour of
 * training over 3-4 sessions a week average out near 0.5 L/day (ACSM position stand on fluid
 * replacement, Sawka MN et al. 2007, Med Sci Sports Exerc 39(2):377-390).
 */
const TRAINING_EXTRA_WATER_L = 0.5;

interface SupplementOption extends Supplement {
  readonly foods: readonly string[];
}

/** Protein powder, whey first, plant-based when dairy (or whey) is averted. */
const PROTEIN_POWDER: readonly SupplementOption[] = [
  {
    supplement: 'whey protein',
    dose: "1 scoop (about 25 g protein), only when a slot's protein target cannot be met from food",
    timing: 'snack slot, or within 2 h after training',
    foods: ['whey'],
  },
  {
    supplement: 'pea protein',
    dose: "1 scoop (about 25 g protein), only when a slot's protein target cannot be met from food",
    timing: 'snack slot, or within 2 h after training',
    foods: ['pea protein'],
  },
];

/** The pre-sleep protein, slow-digesting casein first (Res PT et al. 2012), food-first wording. */
function presleepOptions(presleepG: number): SupplementOption[] {
  return [
    {
      supplement: 'casein (or Greek yogurt / quark as food)',
      dose: `${presleepG} g protein`,
      timing: '30-60 min before sleep',
      foods: ['casein', 'greek yogurt', 'quark'],
    },
    {
      supplement: 'soy protein (or tofu as food)',
      dose: `${presleepG} g protein`,
      timing: '30-60 min before sleep',
      foods: ['soy protein', 'tofu'],
    },
    {
      supplement: 'pea protein',
      dose: `${presleepG} g protein`,
      timing: '30-60 min before sleep',
      foods: ['pea protein'],
    },
  ];
}

/**
 * The protocol: creatine monohydrate for everyone (3 g/day under 80 kg, 5 g/day from 80 kg; no
 * loading phase: 3 g/day saturates muscle stores in about 28 days, Hultman E et al. 1996, J Appl
 * Physiol 81(1):232-237, so starting now has the stores full when training ramps up), a protein
 * powder as a backstop, and the pre-sleep protein. Options the client is averse to are skipped.
 */
export function supplementProtocol(weightKg: number, presleepG: number, aversions: readonly string[]): Supplement[] {
  const protocol: Supplement[] = [
    {
      supplement: 'creatine monohydrate',
      dose: weightKg >= CREATINE_HIGH_DOSE_FROM_KG ? '5 g per day' : '3 g per day',
      timing: 'once a day with any meal, rest days included; no loading phase',
    },
  ];
  for (const options of [PROTEIN_POWDER, presleepOptions(presleepG)]) {
    const option = firstAcceptable(options, aversions);
    if (option) protocol.push({ supplement: option.supplement, dose: option.dose, timing: option.timing });
  }
  return protocol;
}

/**
 * Water target, L/day to a tenth: the SCIENTIST's base + 0.25 L for creatine + 0.5 L for
 * training, so always above the base (§4.3 "may exceed SCIENTIST base due to creatine/training").
 *
 * @example hydrationTargetL(2.0) // 2.8
 */
export function hydrationTargetL(baseL: number): number {
  return Math.round((baseL + CREATINE_EXTRA_WATER_L + TRAINING_EXTRA_WATER_L) * 10) / 10;
}
