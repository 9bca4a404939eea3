import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import type { GenerateWorkoutResult } from '../../../../../actors/trainer/tools/generate-workout.ts';
import { ArtifactSchema } from '../../../../../protocol/trainer/artifact.ts';
import { WorkoutArtifactPayloadSchema } from '../../../../../protocol/trainer/tools/workout-session.ts';
import type { Exercise } from '../../../../../protocol/trainer/tools/exercise.ts';
import {
  benchPress,
  burpees,
  createToolTestContext,
  failureOf,
  plank,
  run,
  sampleWorkout,
  successOf,
  superset,
} from '../../../../support/trainer/trainer-tool-fixtures.ts';

const generate = (workout: unknown, ctx = createToolTestContext()) => executeTool('generate_workout', { workout }, ctx);

/** A workout of the given exercises, each a plain object the test may break. */
const workoutOf = (...exercises: object[]) => ({ title: 'Test', exercises });

/** Drops a key from a copy of an exercise. */
function without(exercise: Exercise, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...exercise };
  delete copy[key];
  return copy;
}

describe('generate_workout', () => {
  it('creates an exercise_list artifact with an art_ id and the exercises in order', async () => {
    const ctx = createToolTestContext();
    const output = await generate(sampleWorkout({ auto_start: true }), ctx);
    const result = successOf<GenerateWorkoutResult>(output);
    expect(result.artifact_id).toMatch(/^art_[A-Za-z0-9_-]+$/);
    expect(result.exercise_count).toBe(6);
    const artifact = ArtifactSchema.parse(output.createdArtifact);
    expect(artifact).toMatchObject({
      artifact_id: result.artifact_id,
      type: 'exercise_list',
      schema_version: '1.0',
      title: 'Full Body Session',
      auto_start: true,
    });
    const payload = WorkoutArtifactPayloadSchema.parse(artifact.payload);
    expect(payload.exercises.map((e) => e.exercise_name)).toEqual([
      'Barbell Bench Press',
      'Plank',
      'Treadmill Run',
      'Burpees',
      'Push-Up',
      'Inverted Row',
    ]);
    expect(artifact.summary).toMatchObject({ exercise_count: 6, groups: 1 });
  });

  it('stores the exercises in memory for the session, with ids (spec 001 §12.4)', async () => {
    const ctx = createToolTestContext();
    const result = successOf<GenerateWorkoutResult>(await generate(sampleWorkout(), ctx));
    const stored = ctx.workouts.get('session-1');
    expect(stored?.artifact_id).toBe(result.artifact_id);
    expect(stored?.exercises.map((e) => e.id)).toEqual(result.exercises.map((e) => e.id));
    expect(new Set(stored?.exercises.map((e) => e.id)).size).toBe(6);
    expect(ctx.workouts.get('session-2')).toBeUndefined();
  });

  it('instructs the agent to deliver the artifact with message_notify_user (spec 001 §12.4)', async () => {
    const output = await generate(sampleWorkout());
    const { artifact_id } = successOf<GenerateWorkoutResult>(output);
    expect(output.rawFormatted).toContain(
      `IMPORTANT: You MUST now call message_notify_user with artifact_id=${artifact_id}`,
    );
    expect(output.formatted.startsWith('<tool_result name="generate_workout">')).toBe(true);
  });

  it('sorts exercises by their order and numbers them 1..n', async () => {
    const ctx = createToolTestContext();
    await generate(workoutOf(run(30), benchPress(10), plank(20)), ctx);
    const stored = ctx.workouts.get('session-1');
    expect(stored?.exercises.map((e) => [e.order, e.exercise_name])).toEqual([
      [1, 'Barbell Bench Press'],
      [2, 'Plank'],
      [3, 'Treadmill Run'],
    ]);
  });

  it('replaces the previous workout of the session', async () => {
    const ctx = createToolTestContext();
    const first = successOf<GenerateWorkoutResult>(await generate(sampleWorkout(), ctx));
    const second = successOf<GenerateWorkoutResult>(await generate(workoutOf(plank(1)), ctx));
    expect(second.artifact_id).not.toBe(first.artifact_id);
    expect(ctx.workouts.get('session-1')?.exercises).toHaveLength(1);
  });

  it('uses the stated duration, or estimates one', async () => {
    const stated = successOf<GenerateWorkoutResult>(await generate(sampleWorkout({ estimated_duration_min: 55 })));
    expect(stated.summary.estimated_duration_min).toBe(55);
    const estimated = successOf<GenerateWorkoutResult>(await generate(workoutOf(run(1))));
    expect(estimated.summary.estimated_duration_min).toBe(21); // 20 min run + 1 min changeover
  });
});

describe('generate_workout exercise rules (spec 001 §6.4)', () => {
  it.each([
    ['reps', benchPress(), ['sets', 'reps', 'rest_sec']],
    ['hold', plank(), ['sets', 'hold_sec', 'rest_sec']],
    ['duration', run(), ['duration_min']],
    ['intervals', burpees(), ['rounds', 'work_sec', 'rest_sec']],
  ] as const)('requires every field of a %s exercise', async (_type, exercise, fields) => {
    for (const field of fields) {
      const failure = failureOf(await generate(workoutOf(without(exercise, field))));
      expect(failure.error_code, field).toBe('invalid_arguments');
      expect(
        failure.issues?.map((issue) => issue.path),
        field,
      ).toContain(`workout.exercises.0.${field}`);
    }
  });

  it.each(['exercise_name', 'exercise_type', 'order', 'muscles_utilized', 'goals_addressed', 'reasoning'])(
    'requires the common field %s',
    async (field) => {
      const failure = failureOf(await generate(workoutOf(without(benchPress(), field))));
      expect(failure.error).toContain(field === 'exercise_type' ? 'exercise_type' : `workout.exercises.0.${field}`);
    },
  );

  it("accepts the optional fields of each type and refuses another type's fields", async () => {
    expect((await generate(workoutOf(benchPress(), run(2)))).status).toBe('done');
    const failure = failureOf(await generate(workoutOf({ ...benchPress(), hold_sec: [30, 30, 30] })));
    expect(failure.error).toContain('hold_sec');
  });

  it('knows exactly four exercise types', async () => {
    const failure = failureOf(await generate(workoutOf({ ...benchPress(), exercise_type: 'stretch' })));
    expect(failure.issues?.[0]?.path).toBe('workout.exercises.0.exercise_type');
  });

  it('accepts only the 16 preset muscles, each once', async () => {
    const bad = { ...plank(1), muscles_utilized: [{ muscle: 'Hip Flexors', share: 1 }] };
    expect(failureOf(await generate(workoutOf(bad))).error).toContain('muscles_utilized.0.muscle');
    const twice = {
      ...plank(1),
      muscles_utilized: [
        { muscle: 'Abs', share: 0.5 },
        { muscle: 'Abs', share: 0.5 },
      ],
    };
    expect(failureOf(await generate(workoutOf(twice))).error).toContain('each muscle may appear once');
  });

  it('needs muscle and goal shares between 0 and 1 that sum to about 1.0', async () => {
    const short = {
      ...plank(1),
      muscles_utilized: [
        { muscle: 'Abs', share: 0.5 },
        { muscle: 'Lower Back', share: 0.3 },
      ],
    };
    expect(failureOf(await generate(workoutOf(short))).error).toContain('muscle shares must sum to 1.0');
    const close = {
      ...plank(1),
      muscles_utilized: [
        { muscle: 'Abs', share: 0.67 },
        { muscle: 'Lower Back', share: 0.34 },
      ],
    };
    expect((await generate(workoutOf(close))).status).toBe('done');
    const goals = { ...plank(1), goals_addressed: [{ goal: 'strength', share: 0.6 }] };
    expect(failureOf(await generate(workoutOf(goals))).error).toContain('goal shares must sum to 1.0');
    const negative = {
      ...plank(1),
      muscles_utilized: [
        { muscle: 'Abs', share: 1.2 },
        { muscle: 'Neck', share: -0.2 },
      ],
    };
    expect(failureOf(await generate(workoutOf(negative))).issues?.length).toBeGreaterThan(0);
  });

  it('needs one reps, load and hold entry per set, and a unit for loads and distances', async () => {
    expect(failureOf(await generate(workoutOf({ ...benchPress(), reps: [8, 8] }))).error).toContain(
      'reps needs one entry per set (3)',
    );
    expect(failureOf(await generate(workoutOf({ ...benchPress(), load_each: [60] }))).error).toContain('load_each');
    expect(failureOf(await generate(workoutOf({ ...plank(), hold_sec: [45] }))).error).toContain('hold_sec');
    expect(failureOf(await generate(workoutOf(without(benchPress(), 'load_unit')))).error).toContain('load_unit');
    expect(failureOf(await generate(workoutOf(without(run(), 'distance_unit')))).error).toContain('distance_unit');
  });

  it('needs a 1-indexed order, unique within the workout', async () => {
    expect(failureOf(await generate(workoutOf(benchPress(0)))).error).toContain('order');
    const failure = failureOf(await generate(workoutOf(benchPress(1), plank(1))));
    expect(failure.error).toContain('order 1 is already used');
  });

  it('needs at least one exercise', async () => {
    expect(failureOf(await generate({ title: 'Empty', exercises: [] })).error).toContain('workout.exercises');
  });
});

describe('generate_workout grouping rules (spec 001 §6.4)', () => {
  const [push, pull] = superset(1) as [Exercise, Exercise];
  const group = (exercise: Exercise, patch: object) => ({ ...exercise, group: { ...exercise.group, ...patch } });

  it('accepts a superset, a giant set, a circuit and warmup/cooldown/sequence groups', async () => {
    const giant = [benchPress(3), plank(4), burpees(5)].map((e, i) => ({
      ...e,
      group: { id: 'g', type: 'giant_set', position: i + 1 },
    }));
    const warm = { ...run(6), group: { id: 'w', type: 'warmup', position: 1 } };
    const output = await generate(workoutOf(push, pull, ...giant, warm));
    expect(output.status).toBe('done');
  });

  it('pairs exactly two exercises in a superset and three or more in a giant set', async () => {
    const third = { ...plank(3), group: { id: 'superset-1', type: 'superset', position: 3 } };
    expect(failureOf(await generate(workoutOf(push, pull, third))).error).toContain('needs exactly 2 exercises, got 3');
    const giant = [push, pull].map((e) => group(e, { type: 'giant_set', id: 'giant' }));
    expect(failureOf(await generate(workoutOf(...giant))).error).toContain('needs at least 3 exercises, got 2');
    const lonely = { ...plank(1), group: { id: 'c', type: 'circuit', position: 1 } };
    expect(failureOf(await generate(workoutOf(lonely))).error).toContain('needs at least 2');
  });

  it('keeps name, rounds and rest_between_rounds_sec on the first exercise of a group', async () => {
    const failure = failureOf(await generate(workoutOf(push, group(pull, { rounds: 3 }))));
    expect(failure.issues?.map((issue) => issue.path)).toContain('workout.exercises.1.group.rounds');
  });

  it('numbers group positions 1..k in workout order, with one group type', async () => {
    expect(failureOf(await generate(workoutOf(push, group(pull, { position: 3 })))).error).toContain(
      'positions must run 1..2',
    );
    expect(failureOf(await generate(workoutOf(push, group(pull, { type: 'circuit' })))).error).toContain(
      'mixes superset and circuit',
    );
  });

  it('needs the members of a group to be consecutive', async () => {
    const gap = workoutOf(push, plank(2), { ...pull, order: 3 });
    expect(failureOf(await generate(gap)).error).toContain('must be consecutive');
  });
});
