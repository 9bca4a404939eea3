import type { Exercise } from '../../../protocol/trainer/tools/exercise.ts';
import type { WorkoutSession } from '../../../protocol/trainer/tools/workout-session.ts';
import { ClientWorkoutSchema } from '../../../protocol/trainer/tools/client-workout.ts';

type AnyExercise = Exercise & { id?: string };

const sameOrList = (values: readonly number[], unit = '') =>
  values.every((value) => value === values[0]) ? `${values[0]}${unit}` : values.map((v) => `${v}${unit}`).join('/');

/** The prescription of one exercise in a few words: "4 x 8 @ 60kg, rest 90s". */
export function describePrescription(exercise: AnyExercise): string {
  switch (exercise.exercise_type) {
    case 'reps': {
      const load = exercise.load_each ? ` @ ${sameOrList(exercise.load_each)}${exercise.load_unit ?? ''}` : '';
      return `${exercise.sets} x ${sameOrList(exercise.reps)}${load}, rest ${exercise.rest_sec}s`;
    }
    case 'hold':
      return `${exercise.sets} x ${sameOrList(exercise.hold_sec, 's')} hold, rest ${exercise.rest_sec}s`;
    case 'duration': {
      const distance = exercise.distance ? `, ${exercise.distance} ${exercise.distance_unit ?? ''}`.trimEnd() : '';
      const pace = exercise.target_pace ? `, pace ${exercise.target_pace}` : '';
      return `${exercise.duration_min} min${distance}${pace}`;
    }
    case 'intervals':
      return `${exercise.rounds} rounds of ${exercise.work_sec}s work / ${exercise.rest_sec}s rest`;
  }
}

/** One line per exercise: order, name, type, prescription, group and id. */
export function describeExercise(exercise: AnyExercise): string {
  const group = exercise.group ? ` [${exercise.group.type} ${exercise.group.id} #${exercise.group.position}]` : '';
  const id = exercise.id ? ` (id: ${exercise.id})` : '';
  return `${exercise.order}. ${exercise.exercise_name} (${exercise.exercise_type}): ${describePrescription(exercise)}${group}${id}`;
}

/** The workout as the model reads it after an edit. */
export function formatWorkout(workout: WorkoutSession): string {
  if (workout.exercises.length === 0) return `Current workout "${workout.title}" has no exercises left.`;
  return [`Current workout "${workout.title}":`, ...workout.exercises.map(describeExercise)].join('\n');
}

/**
 * The client's `currentWorkout` as a `current_workout_session` knowledge text (spec 001 §3.1
 * `formatCurrentWorkout`): one line per exercise when it has the workout shape, else its JSON,
 * so nothing the client sent is lost to the agent.
 */
export function formatClientWorkout(currentWorkout: unknown): string {
  const parsed = ClientWorkoutSchema.safeParse(currentWorkout);
  if (!parsed.success) return `Current workout (as sent by the app):\n${JSON.stringify(currentWorkout ?? null)}`;
  const { title, exercises } = parsed.data;
  const lines = exercises.map((exercise, index) =>
    describeExercise({ ...exercise, order: exercise.order ?? index + 1 }),
  );
  return [`Current workout in the app${title ? ` "${title}"` : ''}:`, ...lines].join('\n');
}
