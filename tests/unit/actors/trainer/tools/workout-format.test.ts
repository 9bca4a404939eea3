import { describe, expect, it } from 'vitest';
import { describePrescription, formatClientWorkout } from '../../../../../actors/trainer/tools/index.ts';
import { benchPress, burpees, plank, run } from '../../../../support/trainer/trainer-tool-fixtures.ts';

describe('describePrescription', () => {
  it('says each type in a few words', () => {
    expect(describePrescription(benchPress())).toBe('3 x 8/8/6 @ 60/60/65kg, rest 120s');
    expect(describePrescription(plank())).toBe('2 x 45s hold, rest 45s');
    expect(describePrescription(run())).toBe('20 min, 4 km, pace 5:00/km');
    expect(describePrescription(burpees())).toBe('8 rounds of 20s work / 10s rest');
  });
});

describe('formatClientWorkout', () => {
  it('lists the exercises of a workout-shaped currentWorkout', () => {
    const text = formatClientWorkout({ title: 'Push Day', exercises: [{ ...benchPress(1), id: 'e1' }] });
    expect(text).toBe(
      'Current workout in the app "Push Day":\n1. Barbell Bench Press (reps): 3 x 8/8/6 @ 60/60/65kg, rest 120s (id: e1)',
    );
  });

  it('keeps anything else as JSON rather than dropping it', () => {
    expect(formatClientWorkout({ progress: 3 })).toBe('Current workout (as sent by the app):\n{"progress":3}');
    expect(formatClientWorkout(undefined)).toContain('null');
  });
});
