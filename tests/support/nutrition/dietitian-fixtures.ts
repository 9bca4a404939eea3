import fc from 'fast-check';
import type { ClientConstraints } from '../../../protocol/nutrition/macro-targets.ts';
import type { NutritionStrategy, ProteinDistribution } from '../../../protocol/nutrition/nutrition-strategy.ts';

// Fixtures and arbitraries for the DIETITIAN and CHEF brains: strategies built the way the
// SCIENTIST and NUTRITIONIST build them (protein from body weight, fat as a share of calories,
// carbs the remainder), so that generated inputs are realistic rather than raw random numbers.

/** Slot shares of protein, close to the NUTRITIONIST's (`PROTEIN_SLOT_SHARES`). */
const DEFAULT_SHARES = { breakfast_g: 0.22, lunch_g: 0.24, snack_g: 0.14, dinner_g: 0.24, presleep_g: 0.16 };

/** A whole-gram protein distribution from shares (largest slot takes the rounding). */
export function distribution(proteinG: number, shares: ProteinDistribution = DEFAULT_SHARES): ProteinDistribution {
  const sum = Object.values(shares).reduce((a, b) => a + b, 0);
  const grams = Object.fromEntries(
    Object.entries(shares).map(([slot, share]) => [slot, Math.round((proteinG * share) / sum)]),
  ) as ProteinDistribution;
  return grams;
}

/** A valid §4.3 strategy from calories, protein and the fat share of calories. */
export function strategyOf(
  kcal: number,
  proteinG: number,
  fatPercent = 30,
  proteinDistribution: ProteinDistribution = distribution(proteinG),
): NutritionStrategy {
  const fatG = Math.round((kcal * fatPercent) / 100 / 9);
  return {
    target_intake_kcal: kcal,
    protein_g: proteinG,
    fat_g: fatG,
    carbs_g: Math.round((kcal - 4 * proteinG - 9 * fatG) / 4),
    protein_distribution: proteinDistribution,
    hardgainer_tactics: ['liquid calories between meals', 'calorie-dense add-ons'],
    supplement_protocol: [{ supplement: 'creatine monohydrate', dose: '3 g', timing: 'daily, any time' }],
    hydration_target_L: 2.8,
    fiber_target_g: 25,
    special_considerations: ['low appetite: favour drinks'],
    cycle_adjustments: { follicular: 'standard plan', luteal: 'add 100 kcal of carbs' },
    current_tier: 0,
  };
}

/** The spec's example strategy (tests/unit/protocol/nutrition/fixtures.ts): 2400 kcal, 95 g protein. */
export const EXAMPLE_STRATEGY: NutritionStrategy = {
  ...strategyOf(2400, 95, 28),
  fat_g: 75,
  carbs_g: 336,
  protein_distribution: { breakfast_g: 20, lunch_g: 25, snack_g: 10, dinner_g: 25, presleep_g: 15 },
};

/** Client constraints with the §4.1 always-averted nut butters. */
export function clientOf(overrides: Partial<ClientConstraints> = {}): ClientConstraints {
  return {
    food_aversions: ['peanut_butter', 'nut_butters'],
    appetite_level: 'normal',
    cooking_skill: 'intermediate',
    partner_cooks: false,
    ...overrides,
    ...(overrides.food_aversions
      ? { food_aversions: [...new Set(['peanut_butter', 'nut_butters', ...overrides.food_aversions])] }
      : {}),
  };
}

/** Aversions real clients report, in the words they use. */
export const COMMON_AVERSIONS = [
  'dairy',
  'eggs',
  'fish',
  'shellfish',
  'pork',
  'beef',
  'gluten',
  'soy',
  'mushrooms',
  'cilantro',
  'coconut',
  'sesame',
  'Tuna',
  'tofu',
  'lentils',
  'avocado',
  'chicken',
  'bananas',
] as const;

/**
 * Realistic strategies: body weight 45-110 kg, protein 1.6-2.0 g/kg kept within 70-200 g and at
 * most 30 % of calories, 1600-3800 kcal, fat 25-35 % of calories, carbs the remainder; the
 * protein split varies around the NUTRITIONIST's, and one run in four splits up to 10 % more or
 * less than the total (the DIETITIAN must rescale it).
 */
export const strategyArb: fc.Arbitrary<NutritionStrategy> = fc
  .record({
    weightKg: fc.integer({ min: 45, max: 110 }),
    gPerKg: fc.double({ min: 1.6, max: 2.0, noNaN: true }),
    kcalFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    fatPercent: fc.integer({ min: 25, max: 35 }),
    shares: fc.record({
      breakfast_g: fc.double({ min: 0.18, max: 0.26, noNaN: true }),
      lunch_g: fc.double({ min: 0.2, max: 0.28, noNaN: true }),
      snack_g: fc.double({ min: 0.1, max: 0.18, noNaN: true }),
      dinner_g: fc.double({ min: 0.2, max: 0.28, noNaN: true }),
      presleep_g: fc.double({ min: 0.12, max: 0.2, noNaN: true }),
    }),
    offBy: fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.double({ min: -0.1, max: 0.1, noNaN: true })),
  })
  .map(({ weightKg, gPerKg, kcalFraction, fatPercent, shares, offBy }) => {
    const protein = Math.min(200, Math.max(70, Math.round(weightKg * gPerKg)));
    const minKcal = Math.max(1600, Math.ceil((4 * protein) / 0.3));
    const kcal = Math.round(minKcal + kcalFraction * (3800 - minKcal));
    return strategyOf(kcal, protein, fatPercent, distribution(Math.round(protein * (1 + offBy)), shares));
  });

/** Client constraints: every appetite, skill and partner value, up to two common aversions. */
export const clientArb: fc.Arbitrary<ClientConstraints> = fc
  .record({
    extra: fc.subarray([...COMMON_AVERSIONS], { maxLength: 2 }),
    appetite_level: fc.constantFrom('low', 'normal', 'high' as const),
    cooking_skill: fc.constantFrom('basic', 'intermediate', 'advanced' as const),
    partner_cooks: fc.boolean(),
  })
  .map(({ extra, ...rest }) => clientOf({ ...rest, food_aversions: extra }));
