import fc from 'fast-check';
import { DataSourceNameSchema } from '../../../protocol/trainer/data-source.ts';
import type { Exercise } from '../../../protocol/trainer/tools/exercise.ts';
import { MUSCLES } from '../../../protocol/trainer/tools/muscle.ts';
import type { ReplacementExercise } from '../../../protocol/trainer/tools/swap-exercise.ts';
import type { WorkoutPayload } from '../../../protocol/trainer/tools/workout-payload.ts';

const GOALS = ['strength', 'endurance', 'hypertrophy', 'mobility', 'power', 'cardio'] as const;

/** Shares of `n` items in hundredths that sum to exactly 1. */
function evenShares(n: number): number[] {
  const each = Math.round(100 / n) / 100;
  return [Math.round((1 - each * (n - 1)) * 100) / 100, ...Array.from({ length: n - 1 }, () => each)];
}

export const textArb = fc.string({ minLength: 1, maxLength: 24 });

const muscleSharesArb = fc
  .uniqueArray(fc.constantFrom(...MUSCLES), { minLength: 1, maxLength: 4 })
  .map((muscles) => muscles.map((muscle, i) => ({ muscle, share: evenShares(muscles.length)[i] ?? 0 })));

const goalSharesArb = fc
  .uniqueArray(fc.constantFrom(...GOALS), { minLength: 1, maxLength: 3 })
  .map((goals) => goals.map((goal, i) => ({ goal, share: evenShares(goals.length)[i] ?? 0 })));

const perSet = (sets: number, arb: fc.Arbitrary<number>) => fc.array(arb, { minLength: sets, maxLength: sets });

const repsArb = fc.integer({ min: 1, max: 6 }).chain((sets) =>
  fc
    .record({
      exercise_type: fc.constant('reps' as const),
      sets: fc.constant(sets),
      reps: perSet(sets, fc.integer({ min: 1, max: 30 })),
      rest_sec: fc.integer({ min: 0, max: 300 }),
      load: fc.option(
        fc.record({
          load_each: perSet(sets, fc.integer({ min: 0, max: 200 })),
          load_unit: fc.constantFrom('kg' as const, 'lb' as const),
        }),
        { nil: undefined },
      ),
    })
    .map(({ load, ...rest }) => ({ ...rest, ...(load ?? {}) })),
);

const holdArb = fc.integer({ min: 1, max: 6 }).chain((sets) =>
  fc.record({
    exercise_type: fc.constant('hold' as const),
    sets: fc.constant(sets),
    hold_sec: perSet(sets, fc.integer({ min: 1, max: 120 })),
    rest_sec: fc.integer({ min: 0, max: 300 }),
  }),
);

const durationArb = fc
  .record({
    exercise_type: fc.constant('duration' as const),
    duration_min: fc.integer({ min: 1, max: 90 }),
    distance: fc.option(
      fc.record({
        distance: fc.integer({ min: 1, max: 40 }),
        distance_unit: fc.constantFrom('km' as const, 'mi' as const, 'm' as const),
      }),
      { nil: undefined },
    ),
    target_pace: fc.option(fc.constantFrom('5:00/km', '8:30/mi'), { nil: undefined }),
  })
  .map(({ distance, target_pace, ...rest }) => ({
    ...rest,
    ...(distance ?? {}),
    ...(target_pace ? { target_pace } : {}),
  }));

const intervalsArb = fc.record({
  exercise_type: fc.constant('intervals' as const),
  rounds: fc.integer({ min: 1, max: 12 }),
  work_sec: fc.integer({ min: 5, max: 120 }),
  rest_sec: fc.integer({ min: 0, max: 120 }),
});

/** A valid exercise without its slot fields (order, group): the shape of a swap replacement. */
export const exerciseBodyArb: fc.Arbitrary<ReplacementExercise> = fc
  .tuple(
    fc.record({
      exercise_name: textArb,
      muscles_utilized: muscleSharesArb,
      goals_addressed: goalSharesArb,
      reasoning: textArb,
    }),
    fc.oneof(repsArb, holdArb, durationArb, intervalsArb),
  )
  .map(([common, prescription]) => ({ ...common, ...prescription }) as ReplacementExercise);

/**
 * A valid workout: 1 to 8 exercises with unique orders in 1..100 (listed out of order), and
 * maybe one superset on two neighbours.
 */
export const workoutArb: fc.Arbitrary<WorkoutPayload> = fc
  .array(exerciseBodyArb, { minLength: 1, maxLength: 8 })
  .chain((bodies) =>
    fc.tuple(
      fc.constant(bodies),
      fc.shuffledSubarray(
        Array.from({ length: 100 }, (_, i) => i + 1),
        { minLength: bodies.length, maxLength: bodies.length },
      ),
      bodies.length >= 2
        ? fc.option(fc.integer({ min: 0, max: bodies.length - 2 }), { nil: undefined })
        : fc.constant(undefined),
      textArb,
    ),
  )
  .map(([bodies, orders, pairAt, title]) => {
    const exercises = bodies.map((body, i) => ({ ...body, order: orders[i] ?? i + 1 }) as Exercise);
    if (pairAt !== undefined) {
      const byOrder = [...exercises].sort((a, b) => a.order - b.order);
      [byOrder[pairAt], byOrder[pairAt + 1]].forEach((exercise, k) => {
        if (exercise)
          exercise.group = { id: 'pair', type: 'superset', position: k + 1, ...(k === 0 ? { rounds: 3 } : {}) };
      });
    }
    return { title, exercises };
  });

/** An exercise reference: an order number (maybe out of range) or a made-up id. */
export const exerciseRefArb = fc.oneof(
  fc.integer({ min: 1, max: 9 }).map(String),
  fc.constantFrom('id-3', 'id-4', 'nope'),
);

const adjustmentsArb = fc
  .record(
    {
      sets: fc.integer({ min: 1, max: 6 }),
      rest_sec: fc.integer({ min: 0, max: 300 }),
      reps: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }),
      hold_sec: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 6 }),
      duration_min: fc.integer({ min: 1, max: 60 }),
      rounds: fc.integer({ min: 1, max: 10 }),
      load_each: fc.constant(null),
      exercise_name: textArb,
    },
    { requiredKeys: [] },
  )
  .filter((adjustments) => Object.keys(adjustments).length > 0);

/** Arguments each tool accepts (mostly): the starting point that mutations then break. */
export const validArgsArb: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  message_notify_user: fc.record(
    { message: textArb, artifact_id: fc.constantFrom('art_x', 'art_y') },
    { requiredKeys: ['message'] },
  ),
  message_ask_user: fc.record(
    { question: textArb, options: fc.array(textArb, { maxLength: 4 }) },
    { requiredKeys: ['question'] },
  ),
  idle: fc.record({ reason: textArb }),
  generate_workout: fc.record({ workout: workoutArb }),
  swap_exercise: fc.record(
    { exercise_id: exerciseRefArb, new_exercise: exerciseBodyArb, reason: textArb },
    { requiredKeys: ['exercise_id', 'new_exercise'] },
  ),
  adjust_exercise: fc.record({ exercise_id: exerciseRefArb, adjustments: adjustmentsArb }),
  remove_exercise: fc.record({ exercise_id: exerciseRefArb }),
  log_workout: fc.record({
    completed_exercises: fc
      .uniqueArray(exerciseRefArb, { minLength: 1, maxLength: 3 })
      .map((refs) => refs.map((exercise_id) => ({ exercise_id }))),
  }),
  fetch_data: fc.record(
    {
      sources: fc.uniqueArray(fc.constantFrom(...DataSourceNameSchema.options), { minLength: 1, maxLength: 4 }),
      params: fc.constant({ workout_history: { days_back: 30 } }),
    },
    { requiredKeys: ['sources'] },
  ),
  set_current_location: fc.record(
    { location_id: fc.constantFrom('loc-home', 'loc-x'), location_name: fc.constantFrom('home gym', 'Park') },
    { requiredKeys: [] },
  ),
};

type Json = unknown;

/** Every path to a value inside `value` (the root included). */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => pathsOf(item, [...prefix, i]))];
  if (value !== null && typeof value === 'object') {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
  }
  return here;
}

const MISSING = Symbol('missing');

/** A copy of `value` with the value at `path` replaced; MISSING removes it (as JSON would). */
function setAt(value: Json, path: (string | number)[], replace: (old: Json) => Json): Json {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const next = setAt(value[head as number], rest, replace);
    const copy = [...value];
    if (next === MISSING) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy: Record<string, Json> = { ...(value as Record<string, Json>) };
  const next = setAt(copy[head as string], rest, replace);
  if (next === MISSING) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

/** One mutation of a value: replace, delete or add a key somewhere inside it. */
const mutationArb = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), with: fc.oneof(fc.anything(), fc.constant(MISSING)) }),
  fc.record({
    kind: fc.constant('extra' as const),
    key: fc.constantFrom('id', 'type', 'exercise_type', 'junk', 'order'),
    with: fc.jsonValue(),
  }),
);

/** Breaks `value` at a random place (or leaves it whole), so results are valid and invalid in turn. */
export function mutatedArb(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const paths = pathsOf(value);
    return fc.oneof(
      fc.constant(value as unknown),
      fc.tuple(fc.constantFrom(...paths), mutationArb).map(([path, mutation]) =>
        setAt(value, path, (old) => {
          if (mutation.kind === 'extra') {
            return old !== null && typeof old === 'object' && !Array.isArray(old)
              ? { ...old, [mutation.key]: mutation.with }
              : old;
          }
          return mutation.with;
        }),
      ),
    );
  });
}
