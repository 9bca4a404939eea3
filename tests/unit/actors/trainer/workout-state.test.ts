import { describe, expect, it } from 'vitest';
import { WorkoutState } from '../../../../actors/trainer/workout-state.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import type { WorkoutSession } from '../../../../protocol/trainer/tools/workout-session.ts';
import { artifactData } from '../../../support/trainer/trainer-events.ts';
import { benchPress, createCounterIds, plank, superset } from '../../../support/trainer/trainer-tool-fixtures.ts';

const NOW = new Date('2025-03-01T10:00:00.000Z');
const state = () => new WorkoutState({ now: () => NOW, newId: createCounterIds('ex') });

function workout(sessionId: string): WorkoutSession {
  return {
    session_id: sessionId,
    artifact_id: 'art_1',
    title: 'Chest',
    source: 'generated',
    exercises: [{ ...benchPress(1), id: 'e1' }],
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

describe('WorkoutState', () => {
  it('keeps one workout per session, replaced by set and dropped by clear', () => {
    const workouts = state();
    workouts.set(workout('s1'));
    workouts.set({ ...workout('s2'), title: 'Legs' });
    expect(workouts.get('s1')?.title).toBe('Chest');
    workouts.set({ ...workout('s1'), title: 'Arms' });
    expect(workouts.get('s1')?.title).toBe('Arms');
    expect(workouts.clear('s1')).toBe(true);
    expect(workouts.clear('s1')).toBe(false);
    expect(workouts.get('s1')).toBeUndefined();
    expect(workouts.get('s2')?.title).toBe('Legs');
  });

  it('refuses to store an invalid workout, keeping the old one', () => {
    const workouts = state();
    workouts.set(workout('s1'));
    const broken = { ...workout('s1'), exercises: [{ ...benchPress(1), id: 'e1', reps: [1] }] };
    expect(() => workouts.set(broken)).toThrow(ValidationError);
    expect(workouts.get('s1')?.exercises[0]).toMatchObject({ reps: [8, 8, 6] });
  });

  it('remembers artifacts per session, and forgets a session whole', () => {
    const workouts = state();
    workouts.rememberArtifact('s1', artifactData('art_a'));
    expect(workouts.getArtifact('s1', 'art_a')?.title).toBe('Chest Day');
    expect(workouts.getArtifact('s2', 'art_a')).toBeUndefined();
    workouts.set(workout('s1'));
    workouts.forget('s1');
    expect(workouts.getArtifact('s1', 'art_a')).toBeUndefined();
    expect(workouts.get('s1')).toBeUndefined();
  });
});

describe('WorkoutState.seedFromClient', () => {
  it('mends what it can: a superset the client shows half of becomes a plain exercise', () => {
    const workouts = state();
    expect(workouts.seedFromClient('s1', { exercises: [superset(1)[0]] })).toMatchObject({ seeded: true });
    expect(workouts.get('s1')?.exercises[0]?.group).toBeUndefined();
  });

  it('takes over the client workout when none is in memory, keeping its ids and giving ids to the rest', () => {
    const workouts = state();
    const client = {
      title: 'From the phone',
      artifact_id: 'art_old',
      started_at: '10:00', // unknown top-level fields pass
      exercises: [{ ...plank(2), id: 'keep-me' }, benchPress(1)],
    };
    const result = workouts.seedFromClient('s1', client);
    expect(result.seeded).toBe(true);
    const seeded = workouts.get('s1');
    expect(seeded).toMatchObject({ title: 'From the phone', artifact_id: 'art_old', source: 'client' });
    expect(seeded?.exercises.map((e) => [e.order, e.exercise_name, e.id])).toEqual([
      [1, 'Barbell Bench Press', 'ex-1'],
      [2, 'Plank', 'keep-me'],
    ]);
  });

  it('numbers exercises in list order when the client gives no orders', () => {
    const workouts = state();
    const { order: _a, ...first } = plank();
    const { order: _b, ...second } = benchPress();
    workouts.seedFromClient('s1', { exercises: [first, second] });
    expect(workouts.get('s1')?.exercises.map((e) => e.exercise_name)).toEqual(['Plank', 'Barbell Bench Press']);
  });

  it('leaves a workout already in memory alone', () => {
    const workouts = state();
    workouts.set(workout('s1'));
    const result = workouts.seedFromClient('s1', { exercises: [plank(1)] });
    expect(result).toMatchObject({ seeded: false, reason: 'already_active' });
    expect(workouts.get('s1')?.exercises[0]?.exercise_name).toBe('Barbell Bench Press');
  });

  it('refuses an invalid client workout, naming the field, and stores nothing', () => {
    const workouts = state();
    const result = workouts.seedFromClient('s1', { exercises: [{ ...plank(1), exercise_type: 'yoga' }] });
    expect(result).toMatchObject({ seeded: false, reason: 'invalid' });
    if (result.seeded || result.reason !== 'invalid') throw new Error('expected invalid');
    expect(result.issues[0]?.path).toBe('exercises.0.exercise_type');
    expect(workouts.get('s1')).toBeUndefined();
    const sameIds = workouts.seedFromClient('s1', {
      exercises: [
        { ...plank(1), id: 'x' },
        { ...benchPress(2), id: 'x' },
      ],
    });
    expect(sameIds).toMatchObject({ seeded: false, reason: 'invalid' });
    expect(workouts.get('s1')).toBeUndefined();
    expect(workouts.seedFromClient('s1', 'not a workout')).toMatchObject({ seeded: false, reason: 'invalid' });
  });
});
