import type { ProteinDistribution } from '../../../protocol/nutrition/nutrition-strategy.ts';

/**
 * Share of the day's protein per slot. Four protein-rich feedings (breakfast, lunch, dinner,
 * pre-sleep) of about 0.4 g/kg each maximise muscle protein synthesis over the day (Schoenfeld BJ,
 * Aragon AA 2018, J Int Soc Sports Nutr 15:10); the pre-sleep feeding is kept large because
 * protein before sleep is digested and used overnight (Res PT et al. 2012, Med Sci Sports Exerc
 * 44(8):1560-1569); the snack takes the smallest share, since it carries most of the liquid
 * calories.
 */
const PROTEIN_SLOT_SHARES: Readonly<Record<keyof ProteinDistribution, number>> = {
  breakfast_g: 0.22,
  lunch_g: 0.24,
  snack_g: 0.14,
  dinner_g: 0.24,
  presleep_g: 0.16,
};

/**
 * Protein per slot summing exactly to `proteinG`: whole grams by largest remainder (each slot
 * gets the floor of its share, the leftover grams go to the largest fractions, ties in slot
 * order); a fractional part of `proteinG` goes to the snack.
 *
 * @example distributeProtein(99) // { breakfast_g: 22, lunch_g: 24, snack_g: 14, dinner_g: 23, presleep_g: 16 }
 */
export function distributeProtein(proteinG: number): ProteinDistribution {
  const whole = Math.floor(proteinG);
  const slots = Object.entries(PROTEIN_SLOT_SHARES) as Array<[keyof ProteinDistribution, number]>;
  const exact = slots.map(([slot, share]) => ({ slot, exact: whole * share }));
  const grams = new Map(exact.map(({ slot, exact: value }) => [slot, Math.floor(value + 1e-9)]));
  let left = whole - [...grams.values()].reduce((sum, value) => sum + value, 0);
  const byRemainder = [...exact].sort(
    (a, b) => b.exact - Math.floor(b.exact + 1e-9) - (a.exact - Math.floor(a.exact + 1e-9)),
  );
  for (const { slot } of byRemainder) {
    if (left <= 0) break;
    grams.set(slot, grams.get(slot)! + 1);
    left -= 1;
  }
  const fraction = proteinG - whole;
  return {
    breakfast_g: grams.get('breakfast_g')!,
    lunch_g: grams.get('lunch_g')!,
    snack_g: grams.get('snack_g')! + fraction,
    dinner_g: grams.get('dinner_g')!,
    presleep_g: grams.get('presleep_g')!,
  };
}
