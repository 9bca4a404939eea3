import { beforeEach, describe, expect, it } from 'vitest';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import type { LogWorkoutResult } from '../../../../../actors/trainer/tools/log-workout.ts';
import {
  createToolTestContext,
  failureOf,
  sampleWorkout,
  successOf,
  type ToolTestContext,
} from '../../../../support/trainer/trainer-tool-fixtures.ts';

let ctx: ToolTestContext;

beforeEach(async () => {
  ctx = createToolTestContext();
  await executeTool('generate_workout', { workout: sampleWorkout() }, ctx);
});

const history = async () => (await ctx.userData.get('user-1', 'workout_history')).workouts;

describe('log_workout', () => {
  it('appends the completed exercises to the history and clears the workout (spec 001 §12.4)', async () => {
    const benchId = ctx.workouts.get('session-1')?.exercises[0]?.id ?? '';
    const output = await executeTool(
      'log_workout',
      {
        completed_exercises: [
          {
            exercise_id: benchId,
            sets_completed: 3,
            reps_completed: [8, 8, 5],
            load_each: [60, 60, 65],
            load_unit: 'kg',
            rpe: 8,
          },
          { exercise_id: '2', hold_sec_completed: [45, 40] },
          { exercise_id: '4', skipped: true },
        ],
        workout_notes: 'Felt strong',
      },
      ctx,
    );
    const result = successOf<LogWorkoutResult>(output);
    expect(result).toMatchObject({ logged_count: 3, total_in_workout: 6, title: 'Full Body Session' });
    expect(ctx.workouts.get('session-1')).toBeUndefined();
    const [entry] = await history();
    expect(entry).toMatchObject({ id: result.history_id, title: 'Full Body Session', notes: 'Felt strong' });
    expect(entry?.exercises.map((e) => [e.exercise_name, e.exercise_type])).toEqual([
      ['Barbell Bench Press', 'reps'],
      ['Plank', 'hold'],
      ['Burpees', 'intervals'],
    ]);
    expect(entry?.exercises[0]).toMatchObject({
      reps_completed: [8, 8, 5],
      rpe: 8,
      muscles_utilized: expect.any(Array),
    });
    expect(entry?.exercises[2]).toMatchObject({ skipped: true });
    expect(output.rawFormatted).toContain('Logged 3 of 6 exercises');
  });

  it('fails with no_active_workout once the workout is logged', async () => {
    await executeTool('log_workout', { completed_exercises: [{ exercise_id: '1' }] }, ctx);
    const again = failureOf(await executeTool('log_workout', { completed_exercises: [{ exercise_id: '1' }] }, ctx));
    expect(again.error_code).toBe('no_active_workout');
    expect(await history()).toHaveLength(1);
  });

  it('refuses an exercise that is not in the workout, naming it, and keeps the workout', async () => {
    const failure = failureOf(
      await executeTool('log_workout', { completed_exercises: [{ exercise_id: '1' }, { exercise_id: '42' }] }, ctx),
    );
    expect(failure.error_code).toBe('exercise_not_found');
    expect(failure.issues?.[0]?.path).toBe('completed_exercises.1.exercise_id');
    expect(ctx.workouts.get('session-1')).toBeDefined();
    expect(await history()).toHaveLength(0);
  });

  it('refuses the same exercise twice, by id and by order number', async () => {
    const id = ctx.workouts.get('session-1')?.exercises[0]?.id ?? '';
    const failure = failureOf(
      await executeTool('log_workout', { completed_exercises: [{ exercise_id: id }, { exercise_id: '1' }] }, ctx),
    );
    expect(failure.error).toContain('logged twice');
    const literal = failureOf(
      await executeTool('log_workout', { completed_exercises: [{ exercise_id: '1' }, { exercise_id: '1' }] }, ctx),
    );
    expect(literal.error_code).toBe('invalid_arguments');
  });

  it('fails cleanly without a user data store, keeping the workout', async () => {
    const { userData: _none, ...bare } = ctx;
    const failure = failureOf(await executeTool('log_workout', { completed_exercises: [{ exercise_id: '1' }] }, bare));
    expect(failure.error_code).toBe('data_unavailable');
    expect(ctx.workouts.get('session-1')).toBeDefined();
  });
});
