import { describe, expect, it } from 'vitest';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import { ValidationError } from '../../../../../protocol/runtime/runtime-error.ts';
import type { WorkoutHistoryEntry } from '../../../../../protocol/trainer/workout-history.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';

const workout = (id: string, completedAt: string): WorkoutHistoryEntry => ({
  id,
  completed_at: completedAt,
  exercises: [{ exercise_name: 'Squat', exercise_type: 'reps', sets_completed: 3 }],
});

const home = { id: 'home', name: 'Home Gym', current_location: true, equipment: [] };
const office = { id: 'office', name: 'Office Gym', current_location: false, equipment: [] };

describe('createUserDataStore', () => {
  it('reads empty documents, with default units, for a new user', async () => {
    const userData = createUserDataStore(createFakeStore());
    expect(await userData.get('alice', 'user_settings')).toEqual({ weight_unit: 'kg', distance_unit: 'km' });
    expect(await userData.get('alice', 'user_profile')).toEqual({});
    expect(await userData.get('alice', 'all_locations')).toEqual({ locations: [] });
    expect(await userData.get('alice', 'workout_history')).toEqual({ workouts: [] });
  });

  it('stores a valid document per user and source', async () => {
    const userData = createUserDataStore(createFakeStore());
    await userData.put('alice', 'user_settings', { weight_unit: 'lb' });
    await userData.put('alice', 'user_profile', { age: 30 });
    expect(await userData.get('alice', 'user_settings')).toEqual({ weight_unit: 'lb', distance_unit: 'km' });
    expect(await userData.get('alice', 'user_profile')).toEqual({ age: 30 });
    expect(await userData.get('bob', 'user_settings')).toEqual({ weight_unit: 'kg', distance_unit: 'km' });
  });

  it('refuses an invalid document, naming the field, and keeps the stored one', async () => {
    const userData = createUserDataStore(createFakeStore());
    await userData.put('alice', 'user_profile', { age: 30 });
    const bad = userData.put('alice', 'user_profile', { age: 'thirty' });
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
    await expect(bad).rejects.toMatchObject({ status: 400, issues: [{ path: 'age' }] });
    await expect(
      userData.put('alice', 'muscle_goals', { goals: [{ muscle: 'Wings', share: 1 }] }),
    ).rejects.toMatchObject({ issues: [{ path: 'goals.0.muscle' }] });
    expect(await userData.get('alice', 'user_profile')).toEqual({ age: 30 });
  });

  it('updates a document atomically and validates the result', async () => {
    const userData = createUserDataStore(createFakeStore());
    await userData.put('alice', 'all_locations', { locations: [home, office] });
    const moved = await userData.update('alice', 'all_locations', (doc) => ({
      locations: doc.locations.map((location) => ({ ...location, current_location: location.id === 'office' })),
    }));
    expect(moved.locations.map((l) => [l.id, l.current_location])).toEqual([
      ['home', false],
      ['office', true],
    ]);
    const twoCurrent = userData.update('alice', 'all_locations', (doc) => ({
      locations: doc.locations.map((location) => ({ ...location, current_location: true })),
    }));
    await expect(twoCurrent).rejects.toBeInstanceOf(ValidationError);
    expect(await userData.get('alice', 'all_locations')).toEqual(moved);
  });

  it('keeps workouts one per document: add, replace all, newest first', async () => {
    const userData = createUserDataStore(createFakeStore());
    await userData.addWorkout('alice', workout('w1', '2025-03-01T10:00:00Z'));
    await userData.addWorkout('alice', workout('w2', '2025-03-03T10:00:00Z'));
    await userData.addWorkout('alice', workout('w3', '2025-03-02T10:00:00Z'));
    const ids = async () => (await userData.get('alice', 'workout_history')).workouts.map((w) => w.id);
    expect(await ids()).toEqual(['w2', 'w3', 'w1']);
    await userData.put('alice', 'workout_history', {
      workouts: [workout('w9', '2025-03-05T10:00:00Z'), workout('w1', '2025-03-01T10:00:00Z')],
    });
    expect(await ids()).toEqual(['w9', 'w1']);
    await expect(userData.addWorkout('alice', { ...workout('w4', 'yesterday') })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
