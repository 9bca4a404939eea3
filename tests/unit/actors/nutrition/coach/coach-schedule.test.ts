import { describe, expect, it } from 'vitest';
import {
  chooseTrainingDays,
  kitFor,
  sessionFrequency,
  sessionKinds,
  sessionLocations,
} from '../../../../../actors/nutrition/coach/coach-schedule.ts';
import { EQUIPMENT_KITS } from '../../../../../actors/nutrition/coach/training-exercise.ts';

describe('coach schedule', () => {
  it('caps the sessions per week by experience', () => {
    expect([2, 3, 4, 5, 6].map((days) => sessionFrequency('none', days))).toEqual([2, 3, 3, 3, 3]);
    expect([2, 3, 4, 5, 6].map((days) => sessionFrequency('beginner', days))).toEqual([2, 3, 4, 4, 4]);
    expect([2, 3, 4, 5, 6].map((days) => sessionFrequency('intermediate', days))).toEqual([2, 3, 4, 5, 5]);
  });

  it('spreads the sessions over the available days with the longest shortest rest', () => {
    const all = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
    expect(chooseTrainingDays([...all], 2)).toEqual(['monday', 'thursday']);
    expect(chooseTrainingDays([...all], 3)).toEqual(['monday', 'wednesday', 'friday']);
    expect(chooseTrainingDays(['friday', 'monday', 'tuesday', 'wednesday'], 2)).toEqual(['monday', 'friday']);
    expect(chooseTrainingDays(['sunday', 'monday'], 2)).toEqual(['monday', 'sunday']);
  });

  it('uses full body up to three sessions and upper/lower from four', () => {
    expect(sessionKinds(2)).toEqual(['full_body_a', 'full_body_b']);
    expect(sessionKinds(3)).toEqual(['full_body_a', 'full_body_b', 'full_body_a']);
    expect(sessionKinds(4)).toEqual(['lower', 'upper', 'lower', 'upper']);
    expect(sessionKinds(5)).toHaveLength(5);
  });

  it('keeps high anxiety at home first and sends it to the gym only at quiet hours', () => {
    expect(sessionLocations('both', 'high', 'foundation', 3)).toEqual(['home', 'home', 'home']);
    expect(sessionLocations('both', 'high', 'hypertrophy', 3)).toEqual(['home', 'home', 'gym_quiet_hours']);
    expect(sessionLocations('commercial_gym', 'high', 'foundation', 2)).toEqual(['gym_quiet_hours', 'gym_quiet_hours']);
    expect(sessionLocations('both', 'low', 'foundation', 2)).toEqual(['gym', 'gym']);
    expect(sessionLocations('home_full', 'high', 'strength', 2)).toEqual(['home', 'home']);
    expect(kitFor('both', 'home')).toEqual(EQUIPMENT_KITS.home_minimal);
    expect(kitFor('home_full', 'home')).toEqual(EQUIPMENT_KITS.home_full);
  });
});
