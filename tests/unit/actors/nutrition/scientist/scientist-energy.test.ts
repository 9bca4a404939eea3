import { describe, expect, it } from 'vitest';
import {
  dailySurplusKcal,
  estimateEnergy,
  mifflinStJeorBmr,
  stepActivityBand,
  weeklyGainTargetKg,
} from '../../../../../actors/nutrition/scientist/scientist-energy.ts';
import { intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

describe('mifflinStJeorBmr', () => {
  it('gives 1295.25 kcal for a 25-year-old woman of 165 cm and 55 kg', () => {
    // 10 x 55 + 6.25 x 165 - 5 x 25 - 161 = 550 + 1031.25 - 125 - 161
    expect(mifflinStJeorBmr({ weightKg: 55, heightCm: 165, age: 25, sex: 'female' })).toBe(1295.25);
  });

  it('uses +5 instead of -161 for a man', () => {
    // 10 x 70 + 6.25 x 180 - 5 x 30 + 5 = 700 + 1125 - 150 + 5
    expect(mifflinStJeorBmr({ weightKg: 70, heightCm: 180, age: 30, sex: 'male' })).toBe(1680);
  });
});

describe('stepActivityBand', () => {
  it.each([
    [1000, 1.2],
    [4999, 1.2],
    [5000, 1.375],
    [7499, 1.375],
    [7500, 1.45],
    [9999, 1.45],
    [10000, 1.55],
    [12499, 1.55],
    [12500, 1.725],
    [25000, 1.725],
  ])('maps %i steps to a multiplier of %f', (steps, multiplier) => {
    expect(stepActivityBand(steps).multiplier).toBe(multiplier);
  });
});

describe('weeklyGainTargetKg', () => {
  it.each([
    [45, 0.25], // 0.225 clamped up to the spec's 0.25
    [50, 0.25],
    [55, 0.28], // 0.275 to the hundredth
    [60, 0.3],
    [80, 0.4],
    [100, 0.5],
    [130, 0.5], // 0.65 clamped down to 0.5
  ])('targets 0.5 %% of %i kg per week within 0.25-0.5: %f kg', (weight, target) => {
    expect(weeklyGainTargetKg(weight)).toBe(target);
  });
});

describe('dailySurplusKcal', () => {
  it('turns a weekly gain into kcal/day at 7,700 kcal per kg', () => {
    expect(dailySurplusKcal(0.25)).toBe(275); // 0.25 x 7700 / 7
    expect(dailySurplusKcal(0.28)).toBe(308);
    expect(dailySurplusKcal(0.5)).toBe(550);
  });
});

describe('estimateEnergy', () => {
  it('works the example through: BMR, TDEE at 8,000 steps, surplus and full target', () => {
    const energy = estimateEnergy(intakeFixture());
    expect(energy.bmr_kcal).toBe(1295.25);
    expect(energy.activity_multiplier).toBe(1.45);
    expect(energy.tdee_kcal).toBe(1878); // 1295.25 x 1.45 = 1878.11
    expect(energy.weekly_weight_target_kg).toBe(0.28);
    expect(energy.surplus_kcal).toBe(308);
    expect(energy.full_target_kcal).toBe(2186);
  });

  it('defaults to female and honours sex: male', () => {
    const female = estimateEnergy(intakeFixture());
    const male = estimateEnergy(intakeFixture({ sex: 'male' }));
    expect(male.bmr_kcal - female.bmr_kcal).toBe(166);
  });

  it('recalculates at another weight (a 5 kg milestone)', () => {
    // 10 x 60 + 1031.25 - 125 - 161 = 1345.25; x 1.45 = 1950.61; gain 0.3 -> 330 kcal
    const energy = estimateEnergy(intakeFixture(), 60);
    expect(energy.bmr_kcal).toBe(1345.25);
    expect(energy.tdee_kcal).toBe(1951);
    expect(energy.full_target_kcal).toBe(1951 + 330);
  });
});
