import { describe, expect, it } from 'vitest';
import {
  nextTier,
  planCalorieRamp,
  tierTargetKcal,
} from '../../../../../actors/nutrition/scientist/scientist-calorie-ramp.ts';

describe('planCalorieRamp', () => {
  it('starts at tier 2 when the reported intake is within 250 kcal of the target', () => {
    expect(planCalorieRamp(2186, 1937)).toEqual({ tier: 2, step_kcal: 250 }); // gap 249
  });

  it('starts at tier 1 from a gap of 250 up to 499 kcal', () => {
    expect(planCalorieRamp(2186, 1936)).toEqual({ tier: 1, step_kcal: 250 }); // gap 250
    expect(planCalorieRamp(2186, 1687)).toEqual({ tier: 1, step_kcal: 250 }); // gap 499
  });

  it('starts at tier 0 from a gap of 500 kcal, steps of 250 until the gap passes 750', () => {
    expect(planCalorieRamp(2186, 1686)).toEqual({ tier: 0, step_kcal: 250 }); // gap 500
    expect(planCalorieRamp(2186, 1436)).toEqual({ tier: 0, step_kcal: 250 }); // gap 750
  });

  it('splits a larger gap in thirds so tier 0 starts a third of the way up from the habitual intake', () => {
    const ramp = planCalorieRamp(2400, 1500); // gap 900
    expect(ramp).toEqual({ tier: 0, step_kcal: 300 });
    expect(tierTargetKcal(2400, ramp)).toBe(1800);
    expect(tierTargetKcal(2400, { ...ramp, tier: 1 })).toBe(2100);
    expect(tierTargetKcal(2400, { ...ramp, tier: 2 })).toBe(2400);
  });
});

describe('tierTargetKcal', () => {
  it('is the full target minus (2 - tier) steps', () => {
    expect(tierTargetKcal(2186, { tier: 0, step_kcal: 250 })).toBe(1686);
    expect(tierTargetKcal(2186, { tier: 1, step_kcal: 250 })).toBe(1936);
    expect(tierTargetKcal(2186, { tier: 2, step_kcal: 250 })).toBe(2186);
  });

  it('never goes under the floor', () => {
    expect(tierTargetKcal(1500, { tier: 0, step_kcal: 400 }, 1295.25)).toBe(1295);
    expect(tierTargetKcal(1500, { tier: 0, step_kcal: 100 }, 1295.25)).toBe(1300);
  });
});

describe('nextTier', () => {
  it('goes 0 -> 1 -> 2 and stays at 2', () => {
    expect(nextTier(0)).toBe(1);
    expect(nextTier(1)).toBe(2);
    expect(nextTier(2)).toBe(2);
  });
});
