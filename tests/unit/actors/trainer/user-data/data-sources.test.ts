import { describe, expect, it } from 'vitest';
import {
  createDataSources,
  fetchDataSource,
  fetchMultipleDataSources,
  type DataSourceRegistry,
} from '../../../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import { DataSourceNameSchema } from '../../../../../protocol/trainer/data-source.ts';
import type { WorkoutHistoryEntry } from '../../../../../protocol/trainer/workout-history.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';

const NOW = new Date('2025-03-31T12:00:00.000Z');

function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
}

function workout(id: string, days: number, exercises: WorkoutHistoryEntry['exercises'] = []): WorkoutHistoryEntry {
  return { id, completed_at: daysAgo(days), title: `Workout ${id}`, exercises };
}

function setup() {
  const userData = createUserDataStore(createFakeStore());
  const sources = createDataSources({ userData, now: () => NOW });
  return { userData, sources };
}

describe('createDataSources', () => {
  it('registers all eight sources, each with a description and display name', () => {
    const { sources } = setup();
    expect(Object.keys(sources).sort()).toEqual([...DataSourceNameSchema.options].sort());
    for (const source of Object.values(sources)) {
      expect(source.description).not.toBe('');
      expect(source.displayName).not.toBe('');
    }
  });

  it('formats the profile with body stats and experience', async () => {
    const { userData, sources } = setup();
    await userData.put('alice', 'user_profile', {
      display_name: 'Alice',
      age: 31,
      height_cm: 168.5,
      experience_level: 'beginner',
    });
    expect(await fetchDataSource(sources, 'user_profile', 'alice')).toBe(
      'Name: Alice\nAge: 31\nHeight: 168.5cm\nExperience: beginner',
    );
    expect(await fetchDataSource(sources, 'user_profile', 'bob')).toBe('No profile data recorded.');
  });

  it('lists every location with its id and marks the current one', async () => {
    const { userData, sources } = setup();
    await userData.put('alice', 'all_locations', {
      locations: [
        {
          id: 'home',
          name: 'Home',
          description: 'Garage',
          equipment: [{ name: 'Kettlebell', weights: [16], weight_unit: 'kg' }],
        },
        { id: 'gym', name: 'City Gym', current_location: true },
      ],
    });
    expect(await fetchDataSource(sources, 'all_locations', 'alice')).toBe(
      [
        '- Home [id: home]',
        '  Garage',
        '  Equipment:',
        '    - Kettlebell: 16kg',
        '- City Gym [id: gym] (current)',
        '  Equipment: none listed',
      ].join('\n'),
    );
  });

  it('formats goals as percentages', async () => {
    const { userData, sources } = setup();
    await userData.put('alice', 'category_goals', {
      goals: [
        { category: 'strength', share: 0.6 },
        { category: 'endurance', share: 0.4, description: 'run a 10k' },
      ],
    });
    await userData.put('alice', 'muscle_goals', { goals: [{ muscle: 'Chest', share: 0.25 }] });
    expect(await fetchDataSource(sources, 'category_goals', 'alice')).toBe(
      '- strength: 60%\n- endurance: 40% (run a 10k)',
    );
    expect(await fetchDataSource(sources, 'muscle_goals', 'alice')).toBe('- Chest: 25%');
    expect(await fetchDataSource(sources, 'muscle_goals', 'bob')).toBe('No muscle goals set.');
  });

  it('keeps only active, unexpired preferences', async () => {
    const { userData, sources } = setup();
    await userData.put('alice', 'active_preferences', {
      preferences: [
        { id: 'p1', type: 'injury', description: 'No jumping', expires_at: daysAgo(-5) },
        { id: 'p2', description: 'Paused', active: false },
        { id: 'p3', description: 'Expired', expires_at: daysAgo(1) },
        { id: 'p4', description: 'Short workouts' },
      ],
    });
    const active = await sources.active_preferences.fetch('alice');
    expect(active.map((p) => p.id)).toEqual(['p1', 'p4']);
    expect(sources.active_preferences.format(active)).toBe(
      `- [injury] No jumping (until ${daysAgo(-5).slice(0, 10)})\n- [general] Short workouts`,
    );
  });

  describe('workout_history', () => {
    it('returns the 10 most recent workouts by default', async () => {
      const { userData, sources } = setup();
      for (let day = 12; day >= 1; day--) await userData.addWorkout('alice', workout(`w${day}`, day));
      const history = await sources.workout_history.fetch('alice');
      expect(history.limit).toBe(10);
      expect(history.workouts.map((w) => w.id)).toEqual(['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8', 'w9', 'w10']);
      const limited = await sources.workout_history.fetch('alice', { limit: 2 });
      expect(limited.workouts.map((w) => w.id)).toEqual(['w1', 'w2']);
    });

    it('honours days_back', async () => {
      const { userData, sources } = setup();
      for (const day of [1, 6, 8, 30]) await userData.addWorkout('alice', workout(`w${day}`, day));
      const week = await sources.workout_history.fetch('alice', { days_back: 7 });
      expect(week.workouts.map((w) => w.id)).toEqual(['w1', 'w6']);
      await userData.addWorkout('bob', workout('old', 9));
      expect(await fetchDataSource(sources, 'workout_history', 'bob', { days_back: 7 })).toBe(
        'No workouts logged in the last 7 days.',
      );
    });

    it('formats each workout with what was done', async () => {
      const { userData, sources } = setup();
      await userData.addWorkout('alice', {
        ...workout('w1', 2, [
          {
            exercise_name: 'Bench Press',
            exercise_type: 'reps',
            sets_completed: 3,
            reps_completed: [8, 8, 6],
            load_each: [60, 60, 62.5],
            load_unit: 'kg',
            rpe: 8,
          },
          { exercise_name: 'Plank', exercise_type: 'hold', hold_sec_completed: [60, 45] },
          { exercise_name: 'Run', exercise_type: 'duration', duration_min: 30, distance: 5, distance_unit: 'km' },
          { exercise_name: 'Burpees', exercise_type: 'intervals', skipped: true },
        ]),
        duration_min: 50,
        notes: 'felt strong',
      });
      expect(await fetchDataSource(sources, 'workout_history', 'alice')).toBe(
        [
          '1 workout, most recent first (limit 10):',
          `- ${daysAgo(2).slice(0, 10)} Workout w1 (50 min)`,
          '  - Bench Press (reps): 3 sets, reps 8/8/6, load 60/60/62.5kg, RPE 8',
          '  - Plank (hold): hold 60/45s',
          '  - Run (duration): 30 min, 5km',
          '  - Burpees (intervals): skipped',
          '  Notes: felt strong',
        ].join('\n'),
      );
    });
  });

  describe('exercise_distribution', () => {
    it('spreads the shares of done exercises over muscles and goals, within 30 days by default', async () => {
      const { userData, sources } = setup();
      const bench = {
        exercise_name: 'Bench',
        exercise_type: 'reps' as const,
        muscles_utilized: [
          { muscle: 'Chest' as const, share: 0.75 },
          { muscle: 'Triceps' as const, share: 0.25 },
        ],
        goals_addressed: [{ goal: 'strength', share: 1 }],
      };
      const squat = {
        exercise_name: 'Squat',
        exercise_type: 'reps' as const,
        muscles_utilized: [{ muscle: 'Quadriceps' as const, share: 1 }],
        goals_addressed: [
          { goal: 'strength', share: 0.5 },
          { goal: 'hypertrophy', share: 0.5 },
        ],
      };
      await userData.addWorkout('alice', workout('recent', 3, [bench, squat, { ...squat, skipped: true }]));
      await userData.addWorkout('alice', workout('old', 45, [squat, squat]));
      const distribution = await sources.exercise_distribution.fetch('alice');
      expect(distribution).toMatchObject({ days_back: 30, workout_count: 1, exercise_count: 2 });
      expect(distribution.muscles).toEqual([
        { muscle: 'Quadriceps', share: 0.5 },
        { muscle: 'Chest', share: 0.375 },
        { muscle: 'Triceps', share: 0.125 },
      ]);
      expect(distribution.goals).toEqual([
        { goal: 'strength', share: 0.75 },
        { goal: 'hypertrophy', share: 0.25 },
      ]);
      expect(sources.exercise_distribution.format(distribution)).toBe(
        [
          'Exercise distribution over the last 30 days (1 workouts, 2 exercises):',
          'Muscles:',
          '  - Quadriceps: 50%',
          '  - Chest: 38%',
          '  - Triceps: 13%',
          'Goals:',
          '  - strength: 75%',
          '  - hypertrophy: 25%',
        ].join('\n'),
      );
      const wide = await sources.exercise_distribution.fetch('alice', { days_back: 60 });
      expect(wide.exercise_count).toBe(4);
    });
  });
});

describe('fetchMultipleDataSources', () => {
  it('fetches in parallel and reports a failing source without failing the others', async () => {
    const { sources } = setup();
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = <T>(value: T) =>
      new Promise<T>((resolve) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          resolve(value);
        }, 5);
      });
    const registry: DataSourceRegistry = {
      ...sources,
      user_settings: { ...sources.user_settings, fetch: () => slow({ weight_unit: 'kg', distance_unit: 'mi' }) },
      muscle_goals: { ...sources.muscle_goals, fetch: () => slow([]) },
      category_goals: { ...sources.category_goals, fetch: () => Promise.reject(new Error('database down')) },
    };
    const results = await fetchMultipleDataSources(
      registry,
      ['user_settings', 'category_goals', 'muscle_goals'],
      'alice',
    );
    expect(results).toEqual([
      { source: 'user_settings', displayName: 'Settings', formatted: 'Weight: kg\nDistance: mi' },
      { source: 'category_goals', displayName: 'Goals', error: 'database down' },
      { source: 'muscle_goals', displayName: 'Muscle Goals', formatted: 'No muscle goals set.' },
    ]);
    expect(maxInFlight).toBe(2);
  });

  it('passes each source its own parameters', async () => {
    const { userData, sources } = setup();
    for (let day = 1; day <= 5; day++) await userData.addWorkout('alice', workout(`w${day}`, day));
    const [history] = await fetchMultipleDataSources(sources, ['workout_history'], 'alice', {
      workout_history: { limit: 2 },
    });
    expect(history?.error).toBeUndefined();
    expect(history && 'formatted' in history ? history.formatted : '').toMatch(
      /^2 workouts, most recent first \(limit 2\)/,
    );
  });
});
