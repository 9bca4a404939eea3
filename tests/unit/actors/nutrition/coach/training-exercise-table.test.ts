import { describe, expect, it } from 'vitest';
import {
  findTrainingExercise,
  normalizeExerciseName,
  TRAINING_EXERCISES,
} from '../../../../../actors/nutrition/coach/training-exercise-table.ts';
import {
  accessesFor,
  EQUIPMENT_KITS,
  fitsKit,
  MAJOR_MUSCLE_GROUPS,
  MUSCLE_GROUPS,
} from '../../../../../actors/nutrition/coach/training-exercise.ts';

describe('TRAINING_EXERCISES', () => {
  it('holds at least 40 exercises with unique ids and names', () => {
    expect(TRAINING_EXERCISES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TRAINING_EXERCISES.map((entry) => entry.id)).size).toBe(TRAINING_EXERCISES.length);
    expect(new Set(TRAINING_EXERCISES.map((entry) => normalizeExerciseName(entry.name))).size).toBe(
      TRAINING_EXERCISES.length,
    );
  });

  it('credits only the muscle groups of the volume summary, each exercise at least one', () => {
    for (const entry of TRAINING_EXERCISES) {
      expect(entry.primary.length, entry.name).toBeGreaterThan(0);
      for (const group of [...entry.primary, ...entry.secondary]) expect(MUSCLE_GROUPS, entry.name).toContain(group);
      expect(
        entry.primary.filter((group) => entry.secondary.includes(group)),
        entry.name,
      ).toEqual([]);
    }
  });

  it('marks every squat, lunge and leg extension as loading the knee', () => {
    const kneeLoaded = TRAINING_EXERCISES.filter(
      (entry) => entry.pattern === 'squat' || entry.pattern === 'lunge' || entry.id === 'leg-extension',
    );
    expect(kneeLoaded.length).toBeGreaterThan(5);
    for (const entry of kneeLoaded) expect(entry.contraindications, entry.name).toContain('knee');
  });

  it('keeps technical lifts out of the anxiety-friendly set', () => {
    for (const entry of TRAINING_EXERCISES.filter((candidate) => candidate.complexity === 3))
      expect(entry.anxietyFriendly, entry.name).toBe(false);
  });

  it('trains every major group with every kit, and the hip thrust of the spec example only with a barbell', () => {
    for (const [access, kit] of Object.entries(EQUIPMENT_KITS)) {
      for (const group of MAJOR_MUSCLE_GROUPS) {
        expect(
          TRAINING_EXERCISES.some((entry) => entry.primary.includes(group) && fitsKit(entry, kit)),
          `${access} ${group}`,
        ).toBe(true);
      }
    }
    const hipThrust = findTrainingExercise('hip thrust')!;
    expect(hipThrust.pattern).toBe('hip_thrust');
    expect(accessesFor(hipThrust)).toEqual(['home_full', 'commercial_gym', 'both']);
    expect(accessesFor(findTrainingExercise('Glute Bridge')!)).toEqual([
      'home_minimal',
      'home_full',
      'commercial_gym',
      'both',
    ]);
  });

  it('finds an exercise by name whatever the case and punctuation', () => {
    expect(findTrainingExercise("farmer's CARRY")?.id).toBe('farmer-carry');
    expect(findTrainingExercise('45-degree back extension')?.id).toBe('back-extension');
    expect(findTrainingExercise('Zercher squat')).toBeUndefined();
  });
});
