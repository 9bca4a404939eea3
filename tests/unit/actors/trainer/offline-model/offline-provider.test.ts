import { describe, expect, it } from 'vitest';
import {
  formatCategoryGoals,
  formatMuscleGoals,
  formatPreferences,
} from '../../../../../actors/trainer/user-data/data-sources-format.ts';
import { getLibraryExercise, isDoableWith } from '../../../../../actors/trainer/exercises/exercise-library.ts';
import { normalizeEquipmentList } from '../../../../../actors/trainer/exercises/exercise-library-equipment.ts';
import { ModelError } from '../../../../../actors/models/model-error.ts';
import { createOfflineProvider } from '../../../../../actors/trainer/offline-model/offline-provider.ts';
import { cacheHitRate } from '../../../../../actors/trainer/events/session-cost.ts';
import { estimatePromptTokens } from '../../../../../actors/models/token-estimate.ts';
import { formatClientWorkout } from '../../../../../actors/trainer/tools/workout-format.ts';
import type { UserLocation } from '../../../../../protocol/trainer/user-locations.ts';
import { benchPress, plank } from '../../../../support/trainer/trainer-tool-fixtures.ts';
import { createLoopDriver, type DrivenAction } from './offline-loop-driver.ts';

const HOME: UserLocation = {
  id: 'loc-home',
  name: 'Home',
  current_location: true,
  equipment: [
    { name: 'Dumbbells', type: 'free_weights', weights: [5, 10, 15, 20], weight_unit: 'kg' },
    { name: 'Pull-up Bar' },
  ],
};
const GYM: UserLocation = {
  id: 'loc-gym',
  name: 'City Gym',
  current_location: false,
  equipment: ['Barbell', 'Bench', 'Squat Rack', 'Cable Machine', 'Dumbbells', 'Treadmill', 'Leg Press'].map((name) => ({
    name,
  })),
};

async function driverAt(locations: UserLocation[], store: 'formatted' | 'json' = 'formatted') {
  const driver = createLoopDriver({ provider: createOfflineProvider(), store });
  if (locations.length > 0) await driver.ctx.userData.put('user-1', 'all_locations', { locations });
  return driver;
}

const tools = (actions: DrivenAction[]) => actions.map((action) => action.tool);
const artifactOf = (actions: DrivenAction[]) =>
  actions.find((a) => a.tool === 'generate_workout')?.output.createdArtifact;
type ArtifactExercise = {
  exercise_name: string;
  exercise_type: string;
  muscles_utilized: { muscle: string }[];
  goals_addressed: unknown[];
};
const exercisesOf = (actions: DrivenAction[]) =>
  (artifactOf(actions)?.payload['exercises'] ?? []) as ArtifactExercise[];

/** Every exercise exists in the library and can be done with the location's equipment. */
function expectDoableAt(exercises: ArtifactExercise[], location: UserLocation) {
  const equipment = normalizeEquipmentList(location.equipment.map((item) => item.name));
  for (const exercise of exercises) {
    const entry = getLibraryExercise(exercise.exercise_name);
    expect(entry, exercise.exercise_name).toBeDefined();
    expect(isDoableWith(entry!, equipment), `${exercise.exercise_name} at ${location.name}`).toBe(true);
  }
}

describe.each(['formatted', 'json'] as const)('offline model, tool results stored as %s', (store) => {
  it('builds a workout for the current location, delivers its artifact, then goes idle (spec 001 §12.9)', async () => {
    const driver = await driverAt([HOME, GYM], store);
    const actions = await driver.turn('Give me a quick chest workout');
    expect(tools(actions)).toEqual(['generate_workout', 'message_notify_user', 'idle']);
    const [generate, notify] = actions;
    expect(generate?.output.status).toBe('done');
    const artifactId = (generate?.output.result as { artifact_id?: string }).artifact_id;
    expect(artifactId).toMatch(/^art_/);
    expect(notify?.args['artifact_id']).toBe(artifactId);
    expect(notify?.output.deliveredArtifact?.artifact_id).toBe(artifactId);
    const exercises = exercisesOf(actions);
    expect(exercises.length).toBeGreaterThanOrEqual(3);
    expectDoableAt(exercises, HOME);
    for (const exercise of exercises) {
      expect(['reps', 'hold', 'duration', 'intervals']).toContain(exercise.exercise_type);
      expect(exercise.muscles_utilized.length).toBeGreaterThan(0);
      expect(exercise.goals_addressed.length).toBeGreaterThan(0);
    }
    const main = exercises.filter((e) => !/warm|circle|stretch/i.test(e.exercise_name));
    expect(main[0]?.muscles_utilized.map((m) => m.muscle)).toContain('Chest');
  });

  it('edits the workout it made: swap, adjust, remove, then logs it', async () => {
    const driver = await driverAt([HOME], store);
    await driver.turn('Give me a back and biceps workout');
    const before = driver.ctx.workouts.get('session-1')!.exercises;

    const swap = await driver.turn('swap exercise 2 for something else');
    expect(tools(swap)).toEqual(['swap_exercise', 'message_notify_user', 'idle']);
    expect(swap[0]?.output.status).toBe('done');
    const afterSwap = driver.ctx.workouts.get('session-1')!.exercises;
    expect(afterSwap[1]?.exercise_name).not.toBe(before[1]?.exercise_name);
    expect(afterSwap.map((e) => e.exercise_name)).not.toContain(before[1]?.exercise_name);

    const adjust = await driver.turn('make the third one 5 sets');
    expect(tools(adjust)).toEqual(['adjust_exercise', 'message_notify_user', 'idle']);
    expect(adjust[0]?.output.status).toBe('done');
    const third = driver.ctx.workouts.get('session-1')!.exercises[2]!;
    expect('sets' in third ? third.sets : undefined).toBe(5);

    const remove = await driver.turn('remove the last one');
    expect(tools(remove)).toEqual(['remove_exercise', 'message_notify_user', 'idle']);
    expect(driver.ctx.workouts.get('session-1')!.exercises).toHaveLength(before.length - 1);

    const log = await driver.turn('I finished my workout, log it');
    expect(tools(log)).toEqual(['log_workout', 'message_notify_user', 'idle']);
    expect(log[0]?.output.status).toBe('done');
    expect(driver.ctx.workouts.get('session-1')).toBeUndefined();
    const history = await driver.ctx.userData.get('user-1', 'workout_history');
    expect(history.workouts[0]?.exercises).toHaveLength(before.length - 1);
  });

  it('switches location, fetching the saved locations first, and plans with the new equipment', async () => {
    const driver = await driverAt([HOME, GYM], store);
    const moved = await driver.turn("I'm at the gym");
    expect(tools(moved)).toEqual(['fetch_data', 'set_current_location', 'message_notify_user', 'idle']);
    expect(moved[1]?.args).toEqual({ location_id: 'loc-gym' });
    const { locations } = await driver.ctx.userData.get('user-1', 'all_locations');
    expect(locations.find((l) => l.current_location)?.id).toBe('loc-gym');

    const legs = await driver.turn('Show me a leg workout');
    expectDoableAt(exercisesOf(legs), GYM);
    expect(exercisesOf(legs).some((e) => /barbell|leg press/i.test(e.exercise_name))).toBe(true);
  });

  it('fetches data the user asks to see and tells them what it found', async () => {
    const driver = await driverAt([HOME], store);
    await driver.ctx.userData.put('user-1', 'user_profile', { display_name: 'Sam', age: 31, weight_kg: 80 });
    const actions = await driver.turn('show my profile');
    expect(tools(actions)).toEqual(['fetch_data', 'message_notify_user', 'idle']);
    expect(actions[0]?.args).toEqual({ sources: ['user_profile'] });
    expect(String(actions[1]?.args['message'])).toContain('Name: Sam');
  });

  it('asks when the request is unclear, and carries on from the answer', async () => {
    const driver = await driverAt([HOME], store);
    expect(tools(await driver.turn('hmm'))).toEqual(['message_ask_user']);
    await driver.turn('Give me a full body workout');
    const which = await driver.turn('swap one');
    expect(tools(which)).toEqual(['message_ask_user']);
    expect(which[0]?.args['options']).toContain(
      `2. ${driver.ctx.workouts.get('session-1')!.exercises[1]!.exercise_name}`,
    );
    const answered = await driver.turn('2');
    expect(tools(answered)).toEqual(['swap_exercise', 'message_notify_user', 'idle']);
    expect(answered[0]?.args['exercise_id']).toBe('2');
  });
});

describe('offline model with the client workout (current_workout_session)', () => {
  const clientWorkout = {
    title: 'Morning Push',
    exercises: [
      { ...benchPress(1), id: 'client-1' },
      { ...plank(2), id: 'client-2' },
    ],
  };

  it.each([
    ['as lines', formatClientWorkout(clientWorkout)],
    ['as JSON', `Current workout (as sent by the app):\n${JSON.stringify(clientWorkout)}`],
  ])('edits the workout the app sent (%s), by its ids', async (_how, data) => {
    const driver = await driverAt([GYM]);
    driver.ctx.workouts.seedFromClient('session-1', clientWorkout);
    const swap = await driver.turn('swap the bench press for something else', [['current_workout_session', data]]);
    expect(tools(swap)).toEqual(['swap_exercise', 'message_notify_user', 'idle']);
    expect(swap[0]?.args['exercise_id']).toBe('client-1');
    expect(swap[0]?.output.status).toBe('done');
    const remove = await driver.turn('remove the plank');
    expect(remove[0]?.args['exercise_id']).toBe('client-2');
    expect(remove[0]?.output.status).toBe('done');
  });
});

describe('offline model judgement', () => {
  it('answers small talk with one message, then idles', async () => {
    const driver = await driverAt([HOME]);
    expect(tools(await driver.turn('Hi there!'))).toEqual(['message_notify_user', 'idle']);
  });

  it('offers to create a workout when asked to edit one that does not exist', async () => {
    const driver = await driverAt([HOME]);
    const actions = await driver.turn('remove the squats');
    expect(tools(actions)).toEqual(['message_ask_user']);
    expect(tools(await driver.turn('yes please'))).toEqual(['generate_workout', 'message_notify_user', 'idle']);
  });

  it('follows goals and preferences from the knowledge, and covers all four exercise types', async () => {
    const driver = await driverAt([HOME, GYM]);
    await driver.ctx.userData.put('user-1', 'all_locations', {
      locations: [
        { ...HOME, current_location: false },
        { ...GYM, current_location: true },
      ],
    });
    const goals = formatCategoryGoals([
      { category: 'endurance', share: 0.6 },
      { category: 'strength', share: 0.4 },
    ]);
    const muscleGoals = formatMuscleGoals([
      { muscle: 'Back', share: 0.5 },
      { muscle: 'Shoulders', share: 0.3 },
    ]);
    const noBurpees = formatPreferences([
      { id: 'p1', type: 'exercise', description: 'No burpees please', active: true },
    ]);
    const knowledge: [string, string][] = [
      ['category_goals', goals],
      ['muscle_goals', muscleGoals],
      ['active_preferences', noBurpees],
    ];
    const workout = exercisesOf(await driver.turn('What should I train today?', knowledge));
    expect(workout.find((e) => e.exercise_type === 'reps')?.muscles_utilized[0]?.muscle).toBe('Back');
    expect(workout.some((e) => e.exercise_type === 'intervals' || e.exercise_type === 'duration')).toBe(true);

    const hiit = exercisesOf(await driver.turn('Give me a HIIT session'));
    expect(hiit.every((e) => e.exercise_type === 'intervals')).toBe(true);
    expect(hiit.map((e) => e.exercise_name)).not.toContain('Burpees');
    const core = exercisesOf(await driver.turn('A core workout with planks'));
    expect(core.some((e) => e.exercise_type === 'hold')).toBe(true);
    const run = exercisesOf(await driver.turn('A 30 minute cardio workout with running'));
    expect(run.some((e) => e.exercise_type === 'duration')).toBe(true);
  });

  it('keeps to bodyweight when no location is set, and says so', async () => {
    const driver = await driverAt([]);
    const actions = await driver.turn('Give me a chest workout');
    expectDoableAt(exercisesOf(actions), { id: 'none', name: 'none', current_location: true, equipment: [] });
    expect(String(actions[1]?.args['message'])).toMatch(/bodyweight/);
  });

  it('reports §11.4 estimates with cache reads, costs nothing, and is deterministic', async () => {
    const first = await (await driverAt([HOME])).turn('Give me a quick chest workout');
    const again = await (await driverAt([HOME])).turn('Give me a quick chest workout');
    expect(first.map((a) => a.args)).toEqual(again.map((a) => a.args));
    expect(first.map((a) => a.response.toolCall?.id)).toEqual(again.map((a) => a.response.toolCall?.id));
    const [call1, call2] = first;
    expect(call1?.response.usage.cached).toBe(0);
    // The whole prompt is input on the first call, within a few percent of characters / 4.
    const estimate = estimatePromptTokens(call1!.request);
    expect(Math.abs(call1!.response.usage.prompt - estimate) / estimate).toBeLessThan(0.05);
    expect(call1?.response.usage.prompt).toBeGreaterThan(1000);
    expect(cacheHitRate(call2!.response.usage)).toBeGreaterThan(50);
    expect(first.every((a) => a.response.costCents === 0)).toBe(true);
    expect(first.every((a) => a.response.usage.completion > 0)).toBe(true);
    expect(new Set(first.map((a) => a.response.toolCall?.id)).size).toBe(first.length);
  });

  it('refuses an aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    const call = createOfflineProvider().call(
      { model: 'claude-haiku-4-5', system: [], tools: [], messages: [] },
      controller.signal,
    );
    await expect(call).rejects.toBeInstanceOf(ModelError);
  });
});
