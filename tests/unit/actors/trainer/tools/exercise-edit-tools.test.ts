import { beforeEach, describe, expect, it } from 'vitest';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import type { AdjustExerciseResult } from '../../../../../actors/trainer/tools/adjust-exercise.ts';
import type { RemoveExerciseResult } from '../../../../../actors/trainer/tools/remove-exercise.ts';
import type { SwapExerciseResult } from '../../../../../actors/trainer/tools/swap-exercise.ts';
import type { ReplacementExercise } from '../../../../../protocol/trainer/tools/swap-exercise.ts';
import {
  benchPress,
  createToolTestContext,
  failureOf,
  plank,
  sampleWorkout,
  successOf,
  type ToolTestContext,
} from '../../../../support/trainer/trainer-tool-fixtures.ts';

let ctx: ToolTestContext;
const current = () => ctx.workouts.get('session-1')?.exercises ?? [];
const idAt = (order: number) => current().find((e) => e.order === order)?.id ?? 'missing';

beforeEach(async () => {
  ctx = createToolTestContext();
  await executeTool('generate_workout', { workout: sampleWorkout() }, ctx);
});

const dips: ReplacementExercise = {
  exercise_name: 'Bench Dip',
  exercise_type: 'reps',
  sets: 3,
  reps: [12, 12, 12],
  rest_sec: 60,
  muscles_utilized: [
    { muscle: 'Triceps', share: 0.7 },
    { muscle: 'Chest', share: 0.3 },
  ],
  goals_addressed: [{ goal: 'strength', share: 1 }],
  reasoning: 'No barbell today.',
};

describe('edit tools without a workout', () => {
  it.each([
    ['swap_exercise', { exercise_id: '1', new_exercise: dips }],
    ['adjust_exercise', { exercise_id: '1', adjustments: { sets: 4 } }],
    ['remove_exercise', { exercise_id: '1' }],
    ['log_workout', { completed_exercises: [{ exercise_id: '1' }] }],
  ])('%s fails with no_active_workout', async (tool, args) => {
    const output = await executeTool(tool, args, { ...ctx, sessionId: 'session-without-workout' });
    expect(failureOf(output).error_code).toBe('no_active_workout');
  });
});

describe('exercise_id (spec 001 §12.4: UUID or order number)', () => {
  it.each(['swap_exercise', 'adjust_exercise', 'remove_exercise'])(
    '%s accepts both forms and refuses an unknown one',
    async (tool) => {
      const argsFor = (ref: string) =>
        tool === 'swap_exercise'
          ? { exercise_id: ref, new_exercise: dips }
          : tool === 'adjust_exercise'
            ? { exercise_id: ref, adjustments: { rest_sec: 30 } }
            : { exercise_id: ref };
      const byOrder = await executeTool(tool, argsFor('2'), ctx);
      expect(byOrder.status, 'by order').toBe('done');
      const byId = await executeTool(tool, argsFor(idAt(1)), ctx);
      expect(byId.status, 'by id').toBe('done');
      const missing = failureOf(await executeTool(tool, argsFor('99'), ctx));
      expect(missing.error_code).toBe('exercise_not_found');
      expect(missing.issues?.[0]?.path).toBe('exercise_id');
    },
  );
});

describe('swap_exercise', () => {
  it('replaces the exercise in place with a new id and reports both', async () => {
    const old = current()[0];
    const result = successOf<SwapExerciseResult>(
      await executeTool('swap_exercise', { exercise_id: '1', new_exercise: dips, reason: 'no barbell' }, ctx),
    );
    expect(result.old_exercise).toEqual(old);
    expect(result.new_exercise).toMatchObject({ exercise_name: 'Bench Dip', order: 1, id: result.new_id });
    expect(result.new_id).not.toBe(old?.id);
    expect(current()[0]?.exercise_name).toBe('Bench Dip');
    expect(current()).toHaveLength(6);
  });

  it("keeps the old exercise's order and group, ignoring an order in the replacement", async () => {
    const output = await executeTool('swap_exercise', { exercise_id: '6', new_exercise: { ...dips, order: 1 } }, ctx);
    const result = successOf<SwapExerciseResult>(output);
    expect(result.new_exercise.order).toBe(6);
    expect(result.new_exercise.group).toEqual({ id: 'superset-1', type: 'superset', position: 2 });
  });

  it('refuses a replacement that would break the workout, and leaves it unchanged', async () => {
    const before = current();
    const badGroup = { ...dips, group: { id: 'superset-1', type: 'circuit', position: 2 } };
    const failure = failureOf(await executeTool('swap_exercise', { exercise_id: '6', new_exercise: badGroup }, ctx));
    expect(failure.error_code).toBe('invalid_workout');
    expect(failure.error).toContain('mixes superset and circuit');
    expect(current()).toEqual(before);
  });
});

describe('adjust_exercise', () => {
  it('changes the named fields and reports their old values', async () => {
    const result = successOf<AdjustExerciseResult>(
      await executeTool(
        'adjust_exercise',
        { exercise_id: '1', adjustments: { rest_sec: 90, reps: [10, 10, 10] } },
        ctx,
      ),
    );
    expect(result.exercise_name).toBe('Barbell Bench Press');
    expect(result.old_values).toEqual({ rest_sec: 120, reps: [8, 8, 6] });
    expect(result.adjustments).toEqual({ rest_sec: 90, reps: [10, 10, 10] });
    expect(current()[0]).toMatchObject({ rest_sec: 90, reps: [10, 10, 10], sets: 3 });
  });

  it.each(['id', 'type', 'exercise_type'])(
    'refuses to change the protected field %s (spec 001 §12.4)',
    async (field) => {
      const before = current();
      const failure = failureOf(
        await executeTool('adjust_exercise', { exercise_id: '1', adjustments: { [field]: 'hold', sets: 2 } }, ctx),
      );
      expect(failure.error_code).toBe('invalid_arguments');
      expect(failure.error).toContain(`"${field}" cannot be adjusted`);
      expect(failure.error).toContain('protected');
      expect(current()).toEqual(before);
    },
  );

  it('resizes the per-set lists when only sets changes', async () => {
    const result = successOf<AdjustExerciseResult>(
      await executeTool('adjust_exercise', { exercise_id: '1', adjustments: { sets: 5 } }, ctx),
    );
    expect(result.exercise).toMatchObject({ sets: 5, reps: [8, 8, 6, 6, 6], load_each: [60, 60, 65, 65, 65] });
    const fewer = successOf<AdjustExerciseResult>(
      await executeTool('adjust_exercise', { exercise_id: '2', adjustments: { sets: 1 } }, ctx),
    );
    expect(fewer.exercise).toMatchObject({ sets: 1, hold_sec: [45] });
  });

  it('clears an optional field set to null', async () => {
    const result = successOf<AdjustExerciseResult>(
      await executeTool(
        'adjust_exercise',
        { exercise_id: '1', adjustments: { load_each: null, load_unit: null } },
        ctx,
      ),
    );
    expect(result.exercise).not.toHaveProperty('load_each');
    expect(result.old_values).toEqual({ load_each: [60, 60, 65], load_unit: 'kg' });
  });

  it('refuses fields that do not fit the exercise type or break its rules, naming them', async () => {
    const wrongType = failureOf(
      await executeTool('adjust_exercise', { exercise_id: '1', adjustments: { hold_sec: [30, 30, 30] } }, ctx),
    );
    expect(wrongType.error).toContain('hold_sec');
    expect(wrongType.error).toContain('reps exercise');
    const mismatch = failureOf(
      await executeTool('adjust_exercise', { exercise_id: '1', adjustments: { reps: [5] } }, ctx),
    );
    expect(mismatch.issues?.map((issue) => issue.path)).toContain('adjustments.reps');
    const empty = failureOf(await executeTool('adjust_exercise', { exercise_id: '1', adjustments: {} }, ctx));
    expect(empty.error).toContain('adjustments');
  });
});

describe('remove_exercise', () => {
  it('removes the exercise and renumbers the rest', async () => {
    const result = successOf<RemoveExerciseResult>(
      await executeTool('remove_exercise', { exercise_id: '2', reason: 'sore' }, ctx),
    );
    expect(result.removed_exercise.exercise_name).toBe('Plank');
    expect(result.remaining_count).toBe(5);
    expect(current().map((e) => e.order)).toEqual([1, 2, 3, 4, 5]);
    expect(current().map((e) => e.exercise_name)).not.toContain('Plank');
  });

  it('dissolves a superset left with one exercise', async () => {
    await executeTool('remove_exercise', { exercise_id: '6' }, ctx);
    expect(current().find((e) => e.exercise_name === 'Push-Up')?.group).toBeUndefined();
  });

  it("hands a removed leader's name and rounds to the next member of a larger group", async () => {
    ctx = createToolTestContext();
    const circuit = [benchPress(1), plank(2), { ...benchPress(3), exercise_name: 'Floor Press' }].map((e, i) => ({
      ...e,
      group: { id: 'c1', type: 'circuit', position: i + 1, ...(i === 0 ? { name: 'Finisher', rounds: 3 } : {}) },
    }));
    await executeTool('generate_workout', { workout: { title: 'C', exercises: circuit } }, ctx);
    await executeTool('remove_exercise', { exercise_id: '1' }, ctx);
    expect(current().map((e) => e.group)).toEqual([
      { id: 'c1', type: 'circuit', position: 1, name: 'Finisher', rounds: 3 },
      { id: 'c1', type: 'circuit', position: 2 },
    ]);
  });

  it('can empty the workout', async () => {
    ctx = createToolTestContext();
    await executeTool('generate_workout', { workout: { title: 'One', exercises: [plank(1)] } }, ctx);
    const result = successOf<RemoveExerciseResult>(await executeTool('remove_exercise', { exercise_id: '1' }, ctx));
    expect(result.remaining_count).toBe(0);
    expect(failureOf(await executeTool('remove_exercise', { exercise_id: '1' }, ctx)).error_code).toBe(
      'exercise_not_found',
    );
  });
});
