import { describe, expect, it } from 'vitest';
import {
  baseHydrationL,
  fiberFloorG,
  macroKcal,
  proteinTarget,
  splitEnergy,
} from '../../../../../actors/nutrition/scientist/scientist-macro-split.ts';

describe('proteinTarget', () => {
  it('gives 1.6 / 1.8 / 2.0 g/kg for low / normal / high appetite', () => {
    expect(proteinTarget(55, 'low')).toEqual({ protein_g: 88, protein_g_per_kg: 1.6 });
    expect(proteinTarget(55, 'normal')).toEqual({ protein_g: 99, protein_g_per_kg: 1.8 });
    expect(proteinTarget(55, 'high')).toEqual({ protein_g: 110, protein_g_per_kg: 2 });
  });

  it('rounds into the 1.6-2.0 g/kg band, never out of it', () => {
    // 1.6 x 55.3 = 88.48 would round to 88 = 1.59 g/kg: the floor is ceil(88.48) = 89
    expect(proteinTarget(55.3, 'low')).toEqual({ protein_g: 89, protein_g_per_kg: 1.61 });
    // 2.0 x 55.3 = 110.6 would round to 111 = 2.007 g/kg: the ceiling is floor(110.6) = 110
    expect(proteinTarget(55.3, 'high')).toEqual({ protein_g: 110, protein_g_per_kg: 1.99 });
  });
});

describe('splitEnergy', () => {
  it('takes fat first (ceil) and carbs as the remainder', () => {
    // fat: ceil(1686 x 0.30 / 9) = ceil(56.2) = 57 g = 513 kcal = 30.4 %
    // carbs: (1686 - 4 x 99 - 513) / 4 = 777 / 4 = 194.25 -> 194
    const split = splitEnergy(1686, 99, 0.3);
    expect(split).toEqual({ fat_g: 57, fat_percent: 30.4, carbs_g: 194 });
    expect(macroKcal({ protein_g: 99, ...split })).toBe(1685);
  });

  it('keeps fat at or above 25 % even when asked for less', () => {
    const split = splitEnergy(2000, 100, 0.2);
    expect(split.fat_g).toBe(56); // ceil(2000 x 0.25 / 9) = ceil(55.6)
    expect(split.fat_percent).toBeGreaterThanOrEqual(25);
  });

  it('drops fat to the 25 % floor when protein and fat would exceed a tiny target', () => {
    // 35 %: ceil(800 x 0.35 / 9) = 32 g = 288 kcal; 4 x 130 = 520; 808 > 800
    const split = splitEnergy(800, 130, 0.35);
    expect(split.fat_g).toBe(23); // ceil(800 x 0.25 / 9) = ceil(22.2)
    expect(split.carbs_g).toBe(18); // (800 - 520 - 207) / 4 = 73 / 4 = 18.25 -> 18
  });
});

describe('fiberFloorG', () => {
  it('is 10 g per 1,000 kcal, never under 20 g', () => {
    expect(fiberFloorG(1686)).toBe(20);
    expect(fiberFloorG(2049)).toBe(20);
    expect(fiberFloorG(2450)).toBe(25); // 24.5 rounds up
    expect(fiberFloorG(3000)).toBe(30);
  });
});

describe('baseHydrationL', () => {
  it('is 35 mL/kg with the EFSA floor of 2.0 L (women) or 2.5 L (men)', () => {
    expect(baseHydrationL(55, 'female')).toBe(2); // 1.925 under the floor
    expect(baseHydrationL(55, 'male')).toBe(2.5);
    expect(baseHydrationL(80, 'female')).toBe(2.8);
    expect(baseHydrationL(100, 'male')).toBe(3.5);
  });
});
