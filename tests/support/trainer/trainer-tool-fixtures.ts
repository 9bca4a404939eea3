import { createDataSources, type DataSourceRegistry } from '../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore, type UserDataStore } from '../../../actors/trainer/user-data/user-data-store.ts';
import { WorkoutState } from '../../../actors/trainer/workout-state.ts';
import type { ToolContext } from '../../../actors/trainer/tools/tool-context.ts';
import type { ToolFailure, ToolOutput } from '../../../actors/trainer/tools/tool-result.ts';
import type { Exercise } from '../../../protocol/trainer/tools/exercise.ts';
import type { WorkoutPayload } from '../../../protocol/trainer/tools/workout-payload.ts';
import { createFakeStore, createStepClock } from './trainer-fakes.ts';

/** Ids `id-1`, `id-2`, ... so tests can name them. */
export function createCounterIds(prefix = 'id'): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

export interface ToolTestContext extends ToolContext {
  workouts: WorkoutState;
  userData: UserDataStore;
  dataSources: DataSourceRegistry;
}

/** A tool context over memory stores, with a step clock and counter ids. */
export function createToolTestContext(overrides: Partial<ToolContext> = {}): ToolTestContext {
  const now = createStepClock();
  const newId = createCounterIds();
  const userData = createUserDataStore(createFakeStore());
  return {
    userId: 'user-1',
    sessionId: 'session-1',
    workouts: new WorkoutState({ now, newId }),
    userData,
    dataSources: createDataSources({ userData, now }),
    now,
    newId,
    ...overrides,
  } as ToolTestContext;
}

const muscles = (...pairs: [Exercise['muscles_utilized'][number]['muscle'], number][]) =>
  pairs.map(([muscle, share]) => ({ muscle, share }));

/** A bench press: reps with loads. */
export function benchPress(order = 1): Exercise {
  return {
    exercise_name: 'Barbell Bench Press',
    exercise_type: 'reps',
    order,
    sets: 3,
    reps: [8, 8, 6],
    rest_sec: 120,
    load_each: [60, 60, 65],
    load_unit: 'kg',
    muscles_utilized: muscles(['Chest', 0.7], ['Triceps', 0.2], ['Shoulders', 0.1]),
    goals_addressed: [{ goal: 'strength', share: 1 }],
    reasoning: 'Main chest press.',
  };
}

/** A plank: hold. */
export function plank(order = 2): Exercise {
  return {
    exercise_name: 'Plank',
    exercise_type: 'hold',
    order,
    sets: 2,
    hold_sec: [45, 45],
    rest_sec: 45,
    muscles_utilized: muscles(['Abs', 0.8], ['Lower Back', 0.2]),
    goals_addressed: [
      { goal: 'stability', share: 0.5 },
      { goal: 'endurance', share: 0.5 },
    ],
    reasoning: 'Core stability.',
  };
}

/** A run: duration. */
export function run(order = 3): Exercise {
  return {
    exercise_name: 'Treadmill Run',
    exercise_type: 'duration',
    order,
    duration_min: 20,
    distance: 4,
    distance_unit: 'km',
    target_pace: '5:00/km',
    muscles_utilized: muscles(['Quadriceps', 0.4], ['Hamstrings', 0.3], ['Calves', 0.3]),
    goals_addressed: [{ goal: 'endurance', share: 1 }],
    reasoning: 'Aerobic base.',
  };
}

/** Burpees: intervals. */
export function burpees(order = 4): Exercise {
  return {
    exercise_name: 'Burpees',
    exercise_type: 'intervals',
    order,
    rounds: 8,
    work_sec: 20,
    rest_sec: 10,
    muscles_utilized: muscles(['Quadriceps', 0.5], ['Chest', 0.5]),
    goals_addressed: [{ goal: 'cardio', share: 1 }],
    reasoning: 'Finisher.',
  };
}

/** A push-up/row superset at orders 5 and 6. */
export function superset(first = 5): Exercise[] {
  return [
    {
      exercise_name: 'Push-Up',
      exercise_type: 'reps',
      order: first,
      sets: 3,
      reps: [12, 12, 12],
      rest_sec: 0,
      muscles_utilized: muscles(['Chest', 1]),
      goals_addressed: [{ goal: 'endurance', share: 1 }],
      reasoning: 'Push half of the superset.',
      group: {
        id: 'superset-1',
        type: 'superset',
        position: 1,
        name: 'Push/Pull',
        rounds: 3,
        rest_between_rounds_sec: 90,
      },
    },
    {
      exercise_name: 'Inverted Row',
      exercise_type: 'reps',
      order: first + 1,
      sets: 3,
      reps: [10, 10, 10],
      rest_sec: 60,
      muscles_utilized: muscles(['Back', 0.8], ['Biceps', 0.2]),
      goals_addressed: [{ goal: 'endurance', share: 1 }],
      reasoning: 'Pull half of the superset.',
      group: { id: 'superset-1', type: 'superset', position: 2 },
    },
  ];
}

/** A workout with all four types and a superset: six exercises. */
export function sampleWorkout(overrides: Partial<WorkoutPayload> = {}): WorkoutPayload {
  return {
    title: 'Full Body Session',
    description: 'A bit of everything.',
    exercises: [benchPress(), plank(), run(), burpees(), ...superset()],
    ...overrides,
  };
}

/** The result of a successful call, typed as the test expects; throws with the error otherwise. */
export function successOf<T extends object>(output: ToolOutput): T {
  if (!output.result.success) throw new Error(`${output.tool} failed: ${output.result.error}`);
  return output.result as unknown as T;
}

/** The failure of a call; throws when the call succeeded. */
export function failureOf(output: ToolOutput): ToolFailure {
  if (output.result.success) throw new Error(`${output.tool} succeeded where a failure was expected`);
  return output.result;
}
