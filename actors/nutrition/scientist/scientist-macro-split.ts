import type { AppetiteLevel, Sex } from '../../../protocol/nutrition/client-profile.ts';

// How the SCIENTIST splits a daily energy target into protein, fat and carbohydrate, and sets the
// fiber floor and the base hydration. 4 kcal/g protein and carbohydrate, 9 kcal/g fat (Atwater).

/** Atwater general factors, kcal per gram. */
const KCAL_PER_G = { protein: 4, carbs: 4, fat: 9 } as const;

/** The spec's protein band in g/kg (§4.2 `protein_g`: 1.6-2.0 g/kg). */
const PROTEIN_G_PER_KG_MIN = 1.6;
const PROTEIN_G_PER_KG_MAX = 2.0;

/**
 * Protein g/kg by appetite. 1.6 g/kg is the breakpoint beyond which extra protein adds no
 * measurable lean mass (Morton RW et al. 2018, Br J Sports Med 52(6):376-384); a low-appetite
 * client gets exactly that, because protein is the most satiating macronutrient and would crowd
 * out the energy the surplus needs. Normal appetite 1.8, high appetite 2.0 (the top of the band).
 */
const PROTEIN_G_PER_KG_BY_APPETITE: Readonly<Record<AppetiteLevel, number>> = {
  low: 1.6,
  normal: 1.8,
  high: 2.0,
};

/** The spec's fat floor: at least 25 % of energy (§4.2 `fat_g`). */
const FAT_SHARE_MIN = 0.25;

/**
 * Share of energy from fat by appetite, within the 20-35 % acceptable range (IOM 2005 AMDR) and
 * above the spec's 25 % floor: 35 % for a low appetite (fat is the densest energy, 9 kcal/g, so
 * the same energy fits in less food volume), 30 % otherwise.
 */
export const FAT_SHARE_BY_APPETITE: Readonly<Record<AppetiteLevel, number>> = {
  low: 0.35,
  normal: 0.3,
  high: 0.3,
};

/** The spec's fiber floor (§4.2 `fiber_g_min`: >= 20 g). */
const FIBER_FLOOR_G = 20;

/**
 * Fiber floor per 1,000 kcal: 10 g, below the 14 g/1,000 kcal adequate intake (IOM 2005), on
 * purpose: this is the hard floor; the NUTRITIONIST's operational target may go up to 14 g/1,000
 * kcal when appetite allows (fiber is filling, which works against a surplus).
 */
const FIBER_FLOOR_G_PER_1000_KCAL = 10;

/** Base water in L per kg body weight: the common 35 mL/kg/day rule of thumb. */
const HYDRATION_L_PER_KG = 0.035;

/**
 * Floor for the base water, in L/day: EFSA's adequate total water intake for adults (EFSA NDA
 * Panel 2010, EFSA Journal 8(3):1459): 2.0 L for women, 2.5 L for men.
 */
const HYDRATION_FLOOR_L: Readonly<Record<Sex, number>> = { female: 2.0, male: 2.5 };

/** The energy of a set of macros in kcal: `4 x protein + 4 x carbs + 9 x fat`. */
export function macroKcal(macros: { protein_g: number; carbs_g: number; fat_g: number }): number {
  return KCAL_PER_G.protein * macros.protein_g + KCAL_PER_G.carbs * macros.carbs_g + KCAL_PER_G.fat * macros.fat_g;
}

// Products like 1.6 x 55 come out as 88.00000000000001; clean them before ceil/floor.
function clean(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The protein figures for one reference weight. */
interface ProteinTarget {
  readonly protein_g: number;
  /** protein_g / reference weight, to the hundredth: always within 1.6-2.0. */
  readonly protein_g_per_kg: number;
}

/**
 * Whole grams of protein: `round(g_per_kg x weight)`, kept inside `[ceil(1.6 x weight),
 * floor(2.0 x weight)]` so that rounding can never leave the spec's band. E.g. 55 kg at 1.8 g/kg
 * -> 99 g (1.8 g/kg).
 */
export function proteinTarget(referenceWeightKg: number, appetite: AppetiteLevel): ProteinTarget {
  const lowest = Math.ceil(clean(PROTEIN_G_PER_KG_MIN * referenceWeightKg));
  const highest = Math.floor(clean(PROTEIN_G_PER_KG_MAX * referenceWeightKg));
  const wanted = Math.round(clean(PROTEIN_G_PER_KG_BY_APPETITE[appetite] * referenceWeightKg));
  const protein_g = Math.min(highest, Math.max(lowest, wanted));
  return { protein_g, protein_g_per_kg: Math.round((protein_g / referenceWeightKg) * 100) / 100 };
}

/** Fat and carbohydrate grams for an energy target and a protein amount. */
interface EnergySplit {
  readonly fat_g: number;
  /** Share of the target from fat, in percent, to a tenth: always >= 25. */
  readonly fat_percent: number;
  readonly carbs_g: number;
}

/**
 * Fat first, carbs the remainder: `fat_g = ceil(target x share / 9)` (ceil keeps the share at or
 * above it), then `carbs_g = round((target - 4 x protein_g - 9 x fat_g) / 4)`, so the macros add up
 * to the target within 2 kcal. If protein and fat alone would exceed the target (only for
 * implausibly small targets), fat drops to the 25 % floor first.
 *
 * @example splitEnergy(1686, 99, 0.3) // fat 57 g (30.4 %), carbs 194 g: 396 + 776 + 513 = 1685 kcal
 */
export function splitEnergy(targetKcal: number, proteinG: number, fatShare: number): EnergySplit {
  const fatFor = (share: number) => Math.ceil(clean((targetKcal * share) / KCAL_PER_G.fat));
  let fat_g = fatFor(Math.max(FAT_SHARE_MIN, fatShare));
  const left = () => targetKcal - KCAL_PER_G.protein * proteinG - KCAL_PER_G.fat * fat_g;
  if (left() < 0) fat_g = fatFor(FAT_SHARE_MIN);
  const carbs_g = Math.max(0, Math.round(left() / KCAL_PER_G.carbs));
  const fat_percent = Math.round(((KCAL_PER_G.fat * fat_g) / targetKcal) * 1000) / 10;
  return { fat_g, fat_percent, carbs_g };
}

/** Fiber floor in g: `max(20, round(10 x target_kcal / 1000))`. E.g. 1686 kcal -> 20 g; 3000 -> 30 g. */
export function fiberFloorG(targetKcal: number): number {
  return Math.max(FIBER_FLOOR_G, Math.round((FIBER_FLOOR_G_PER_1000_KCAL * targetKcal) / 1000));
}

/** Base water in L to a tenth: `max(EFSA floor, 0.035 x weight)`. E.g. 55 kg woman -> 2.0 L; 80 kg -> 2.8 L. */
export function baseHydrationL(weightKg: number, sex: Sex): number {
  return Math.max(HYDRATION_FLOOR_L[sex], Math.round(weightKg * HYDRATION_L_PER_KG * 10) / 10);
}
