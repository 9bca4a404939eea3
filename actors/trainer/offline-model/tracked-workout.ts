import { AdjustExerciseParamsSchema } from '../../../protocol/trainer/tools/adjust-exercise.ts';
import { ClientWorkoutSchema } from '../../../protocol/trainer/tools/client-workout.ts';
import type { Exercise, ExerciseType } from '../../../protocol/trainer/tools/exercise.ts';
import { GenerateWorkoutParamsSchema } from '../../../protocol/trainer/tools/generate-workout.ts';
import { RemoveExerciseParamsSchema } from '../../../protocol/trainer/tools/remove-exercise.ts';
import { SwapExerciseParamsSchema } from '../../../protocol/trainer/tools/swap-exercise.ts';
import { getLibraryExercise } from '../exercises/exercise-library.ts';
import { muscleSharesOf } from '../exercises/exercise-library-prescription.ts';
import { findExercise, removeExerciseAt, renumberExercises } from '../tools/workout-edits.ts';

/** An exercise of the workout as the conversation shows it; `id` when the client gave one. */
export type TrackedExercise = Exercise & { id?: string };

/** The session's current workout, rebuilt from the conversation (the policy has no other memory). */
export interface TrackedWorkout {
  title: string;
  exercises: TrackedExercise[];
}

/**
 * Applies one successful tool call to the tracked workout, mirroring what the tool did:
 * generate replaces it, swap/adjust/remove edit it, log clears it. Arguments that do not parse
 * leave it as it was (the tool would have refused them too).
 */
export function applyToolCall(
  workout: TrackedWorkout | undefined,
  name: string,
  input: unknown,
): TrackedWorkout | undefined {
  if (name === 'generate_workout') {
    const parsed = GenerateWorkoutParamsSchema.safeParse(input);
    if (!parsed.success) return workout;
    return { title: parsed.data.workout.title, exercises: renumberExercises(parsed.data.workout.exercises) };
  }
  if (name === 'log_workout') return undefined;
  if (workout === undefined) return workout;
  if (name === 'swap_exercise') {
    const parsed = SwapExerciseParamsSchema.safeParse(input);
    const found = parsed.success ? findExercise(workout.exercises, parsed.data.exercise_id) : undefined;
    if (!parsed.success || !found) return workout;
    const { order: _order, group, ...fields } = parsed.data.new_exercise;
    const keptGroup = group ?? found.exercise.group;
    const replacement = {
      ...fields,
      order: found.exercise.order,
      ...(keptGroup ? { group: keptGroup } : {}),
    } as TrackedExercise;
    return { ...workout, exercises: workout.exercises.map((e, i) => (i === found.index ? replacement : e)) };
  }
  if (name === 'remove_exercise') {
    const parsed = RemoveExerciseParamsSchema.safeParse(input);
    const found = parsed.success ? findExercise(workout.exercises, parsed.data.exercise_id) : undefined;
    return found ? { ...workout, exercises: removeExerciseAt(workout.exercises, found.index) } : workout;
  }
  if (name === 'adjust_exercise') {
    const parsed = AdjustExerciseParamsSchema.safeParse(input);
    const found = parsed.success ? findExercise(workout.exercises, parsed.data.exercise_id) : undefined;
    if (!parsed.success || !found) return workout;
    const merged: Record<string, unknown> = { ...found.exercise };
    for (const [key, value] of Object.entries(parsed.data.adjustments)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    return {
      ...workout,
      exercises: workout.exercises.map((e, i) => (i === found.index ? (merged as TrackedExercise) : e)),
    };
  }
  return workout;
}

const TYPES = new Set<string>(['reps', 'hold', 'duration', 'intervals']);

/** "4 x 8 @ 60kg, rest 90s", "3 x 45s hold, rest 30s", "20 min", "8 rounds of 30s work / 15s rest". */
function prescriptionOf(type: ExerciseType, text: string): Record<string, unknown> {
  const numbers = (list: string) => list.split('/').map((n) => Number.parseFloat(n));
  const rest = Number(/rest (\d+)s/.exec(text)?.[1] ?? 60);
  const setsOf = /(\d+) x ([\d/.]+)/.exec(text);
  const sets = Number(setsOf?.[1] ?? 3);
  const perSet = (list: string | undefined, fallback: number) => {
    const values = list === undefined ? [fallback] : numbers(list);
    return Array.from({ length: sets }, (_, i) => Math.round(values[i] ?? values[0] ?? fallback));
  };
  switch (type) {
    case 'reps':
      return { sets, reps: perSet(setsOf?.[2], 10), rest_sec: rest };
    case 'hold':
      return { sets, hold_sec: perSet(setsOf?.[2], 30), rest_sec: rest };
    case 'duration':
      return { duration_min: Number(/([\d.]+) min/.exec(text)?.[1] ?? 20) };
    case 'intervals': {
      const [, rounds = '6', work = '30', pause = '30'] = /(\d+) rounds of (\d+)s work \/ (\d+)s rest/.exec(text) ?? [];
      return { rounds: Number(rounds), work_sec: Number(work), rest_sec: Number(pause) };
    }
  }
}

/**
 * Reads a workout the client sent (`current_workout_session` knowledge): JSON with `exercises`,
 * or a heading with the title in quotes and lines like "1. Push-Up (reps): 3 x 15, rest 60s (id: ...)".
 */
export function workoutFromText(text: string): TrackedWorkout | undefined {
  try {
    // The JSON may follow a heading line ("Current workout (as sent by the app):").
    const parsed = ClientWorkoutSchema.safeParse(JSON.parse(text.slice(Math.max(0, text.indexOf('{')))));
    if (parsed.success) {
      const exercises = parsed.data.exercises.map((e, i) => ({ ...e, order: e.order ?? i + 1 })) as TrackedExercise[];
      return { title: parsed.data.title ?? 'Current workout', exercises: renumberExercises(exercises) };
    }
  } catch {
    // Not JSON: read it as lines.
  }
  const lines = [...text.matchAll(/(?:^|\n)\s*(\d{1,2})\. (.+?) \((reps|hold|duration|intervals)\)(?::? ([^\n]*))?/g)];
  const exercises: TrackedExercise[] = [];
  for (const [, order = '1', name = '', type = '', rest = ''] of lines) {
    if (!TYPES.has(type)) continue;
    const entry = getLibraryExercise(name);
    const id = /\(id: ([^)]+)\)/.exec(rest)?.[1];
    exercises.push({
      exercise_name: name,
      exercise_type: type,
      order: Number(order),
      muscles_utilized: entry ? muscleSharesOf(entry) : [],
      goals_addressed: [],
      reasoning: 'From the client workout.',
      ...(id ? { id } : {}),
      ...prescriptionOf(type as ExerciseType, rest),
    } as unknown as TrackedExercise);
  }
  if (exercises.length === 0) return undefined;
  const title = /^[^\n]*?"([^"\n]+)"/.exec(text)?.[1] ?? 'Current workout';
  return { title, exercises: renumberExercises(exercises) };
}
