import { describe, expect, it } from 'vitest';
import { ExerciseSchema, ExerciseTypeSchema } from '../../../../../protocol/trainer/tools/exercise.ts';
import { MUSCLES } from '../../../../../protocol/trainer/tools/muscle.ts';
import {
  EXERCISE_LIBRARY,
  alternativesFor,
  findExercises,
  getLibraryExercise,
  isDoableWith,
} from '../../../../../actors/trainer/exercises/exercise-library.ts';
import {
  normalizeEquipmentList,
  normalizeEquipmentName,
} from '../../../../../actors/trainer/exercises/exercise-library-equipment.ts';
import { toWorkoutExercise } from '../../../../../actors/trainer/exercises/exercise-library-prescription.ts';

describe('EXERCISE_LIBRARY', () => {
  it('holds at least 80 exercises with unique ids and names', () => {
    expect(EXERCISE_LIBRARY.length).toBeGreaterThanOrEqual(80);
    expect(new Set(EXERCISE_LIBRARY.map((e) => e.id)).size).toBe(EXERCISE_LIBRARY.length);
    expect(new Set(EXERCISE_LIBRARY.map((e) => e.name.toLowerCase())).size).toBe(EXERCISE_LIBRARY.length);
  });

  it('trains each of the 16 muscles as a primary muscle of at least three exercises', () => {
    for (const muscle of MUSCLES) {
      const count = EXERCISE_LIBRARY.filter((e) => e.primary.includes(muscle)).length;
      expect(count, muscle).toBeGreaterThanOrEqual(3);
    }
  });

  it('offers a bodyweight exercise for each muscle, so a location without equipment still gets a workout', () => {
    for (const muscle of MUSCLES) {
      expect(
        EXERCISE_LIBRARY.some((e) => e.primary.includes(muscle) && e.equipment.length === 0),
        muscle,
      ).toBe(true);
    }
  });

  it('has exercises of all four types', () => {
    for (const type of ExerciseTypeSchema.options) {
      expect(
        EXERCISE_LIBRARY.some((e) => e.type === type),
        type,
      ).toBe(true);
    }
  });

  it('never lists a muscle as both primary and secondary, and its defaults match its type', () => {
    for (const entry of EXERCISE_LIBRARY) {
      expect(entry.primary.length, entry.id).toBeGreaterThan(0);
      expect(
        entry.primary.filter((m) => entry.secondary.includes(m)),
        entry.id,
      ).toEqual([]);
      expect(entry.defaults.type, entry.id).toBe(entry.type);
      expect(entry.goals.length, entry.id).toBeGreaterThan(0);
    }
  });

  it('turns every entry into an exercise that passes the exercise schema, at any volume', () => {
    for (const entry of EXERCISE_LIBRARY) {
      for (const volume of [0.5, 1, 1.5]) {
        const exercise = toWorkoutExercise(entry, { order: 3, volume, goals: ['strength'] });
        const parsed = ExerciseSchema.safeParse(exercise);
        expect(parsed.success ? [] : parsed.error.issues, `${entry.id} x${volume}`).toEqual([]);
        expect(exercise.exercise_type).toBe(entry.type);
      }
    }
  });
});

describe('getLibraryExercise', () => {
  it('finds an exercise by id or case-insensitive name', () => {
    expect(getLibraryExercise('push-up')?.name).toBe('Push-Up');
    expect(getLibraryExercise('  barbell back squat ')?.id).toBe('barbell-back-squat');
    expect(getLibraryExercise('no such exercise')).toBeUndefined();
  });
});

describe('findExercises', () => {
  it('with an empty equipment list returns bodyweight exercises only', () => {
    const found = findExercises({ equipment: [] });
    expect(found.length).toBeGreaterThan(20);
    expect(found.every((e) => e.equipment.length === 0)).toBe(true);
  });

  it('returns only exercises doable with the equipment, hitting a requested primary muscle, best first', () => {
    const found = findExercises({ muscles: ['Chest', 'Triceps'], equipment: ['dumbbell', 'bench'] });
    expect(found.map((e) => e.id)).toContain('dumbbell-bench-press');
    expect(found.map((e) => e.id)).not.toContain('barbell-bench-press');
    for (const e of found) {
      expect(e.equipment.every((item) => ['dumbbell', 'bench'].includes(item))).toBe(true);
      expect(e.primary.some((m) => m === 'Chest' || m === 'Triceps')).toBe(true);
    }
    // Dumbbell bench press works chest (primary) and triceps (secondary): it outranks a triceps-only move.
    const ids = found.map((e) => e.id);
    expect(ids.indexOf('dumbbell-bench-press')).toBeLessThan(ids.indexOf('overhead-triceps-extension'));
  });

  it('filters by type, role and goal', () => {
    expect(findExercises({ type: 'intervals' }).every((e) => e.type === 'intervals')).toBe(true);
    expect(findExercises({ type: ['hold', 'duration'] }).every((e) => e.type === 'hold' || e.type === 'duration')).toBe(
      true,
    );
    expect(findExercises({ role: 'cooldown' }).every((e) => e.role === 'cooldown')).toBe(true);
    const power = findExercises({ goals: ['power'] });
    expect(power.length).toBeGreaterThan(0);
    expect(power.every((e) => e.goals.includes('power'))).toBe(true);
  });

  it('includes secondary-muscle matches only when asked', () => {
    const strict = findExercises({ muscles: ['Forearms'] });
    const wide = findExercises({ muscles: ['Forearms'], includeSecondary: true });
    expect(strict.every((e) => e.primary.includes('Forearms'))).toBe(true);
    expect(wide.length).toBeGreaterThan(strict.length);
    expect(wide.map((e) => e.id)).toContain('pull-up');
  });
});

describe('alternativesFor', () => {
  it('offers exercises sharing a primary muscle, doable with the equipment, never the exercise itself', () => {
    const alternatives = alternativesFor('barbell-bench-press', ['dumbbell', 'bench']);
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives[0]?.primary).toContain('Chest');
    for (const e of alternatives) {
      expect(e.id).not.toBe('barbell-bench-press');
      expect(e.primary.includes('Chest')).toBe(true);
      expect(isDoableWith(e, ['dumbbell', 'bench'])).toBe(true);
    }
  });

  it('accepts a name, and gives nothing for an unknown exercise', () => {
    expect(alternativesFor('Pull-Up', []).length).toBeGreaterThan(0);
    expect(alternativesFor('Pull-Up', []).every((e) => e.equipment.length === 0 && e.primary.includes('Back'))).toBe(
      true,
    );
    expect(alternativesFor('Moon Walk')).toEqual([]);
  });
});

describe('normalizeEquipmentName', () => {
  it('maps the spec example names and common variants onto the vocabulary', () => {
    expect(normalizeEquipmentName('Dumbbells (free_weights)')).toBe('dumbbell');
    expect(normalizeEquipmentName('Pull-up Bar')).toBe('pull_up_bar');
    expect(normalizeEquipmentName('Power Rack')).toBe('squat_rack');
    expect(normalizeEquipmentName('EZ Curl Bar')).toBe('ez_bar');
    expect(normalizeEquipmentName('Olympic Barbell')).toBe('barbell');
    expect(normalizeEquipmentName('Leg Press Machine')).toBe('leg_press_machine');
    expect(normalizeEquipmentName('TRX')).toBe('suspension_trainer');
    expect(normalizeEquipmentName('Spin Bike')).toBe('stationary_bike');
    expect(normalizeEquipmentName('Sauna')).toBeUndefined();
  });

  it('normalizes a list without duplicates and drops unknown names', () => {
    expect(normalizeEquipmentList(['Dumbbells', 'Adjustable Dumbbells', 'Sauna', 'Flat Bench'])).toEqual([
      'dumbbell',
      'bench',
    ]);
  });
});
