import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { AdjustExerciseParams } from '../../../protocol/trainer/tools/adjust-exercise.ts';
import type { CompletedExercise, LogWorkoutParams } from '../../../protocol/trainer/tools/log-workout.ts';
import type { SwapExerciseParams } from '../../../protocol/trainer/tools/swap-exercise.ts';
import {
  EXERCISE_LIBRARY,
  alternativesFor,
  findExercises,
  getLibraryExercise,
  isDoableWith,
} from '../exercises/exercise-library.ts';
import { toWorkoutExercise } from '../exercises/exercise-library-prescription.ts';
import type { Avoidances } from './context-facts.ts';
import { nameOverlap, positionIn } from './text-cues.ts';
import type { TrackedExercise, TrackedWorkout } from './tracked-workout.ts';

/** The exercise a message points at: by position ("the second", "#2") or by name words. */
export function targetIn(text: string, workout: TrackedWorkout): TrackedExercise | undefined {
  const position = positionIn(text, workout.exercises.length);
  const byPosition = workout.exercises.find((exercise) => exercise.order === position);
  if (byPosition) return byPosition;
  const scored = workout.exercises
    .map((exercise) => ({ exercise, score: nameOverlap(exercise.exercise_name, text) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.exercise.order - b.exercise.order);
  return scored[0]?.exercise;
}

/** Arguments to swap `target` for an alternative that fits the equipment, or the one the user named. */
export function swapArguments(
  target: TrackedExercise,
  text: string,
  workout: TrackedWorkout,
  context: { equipment: Equipment[]; goals: string[]; avoid: Avoidances },
): SwapExerciseParams | undefined {
  const inWorkout = new Set(workout.exercises.map((exercise) => exercise.exercise_name.toLowerCase()));
  const fits = (name: string) =>
    !inWorkout.has(name.toLowerCase()) && !context.avoid.words.some((w) => name.toLowerCase().includes(w));
  // The words after "for"/"with"/"to" name the replacement the user wants, if any.
  const wish = /\b(?:for|with|to|into)\b(.+)$/i.exec(text)?.[1] ?? '';
  const named = wish
    ? EXERCISE_LIBRARY.map((entry) => ({ entry, score: nameOverlap(entry.name, wish) }))
        .filter(({ entry, score }) => score > 0 && fits(entry.name) && isDoableWith(entry, context.equipment))
        .sort((a, b) => b.score - a.score)[0]?.entry
    : undefined;
  const known = getLibraryExercise(target.exercise_name);
  const muscles = target.muscles_utilized.map((share) => share.muscle);
  const candidates = (
    known ? alternativesFor(known.id, context.equipment) : findExercises({ muscles, equipment: context.equipment })
  ).filter((entry) => fits(entry.name));
  // Like for like first: a set/rep lift is better replaced by another than by a sprint.
  const alternative =
    named ??
    candidates.find((entry) => entry.type === target.exercise_type && entry.role === (known?.role ?? entry.role)) ??
    candidates.find((entry) => entry.type === target.exercise_type) ??
    candidates[0];
  if (!alternative) return undefined;
  const { order: _order, ...replacement } = toWorkoutExercise(alternative, {
    order: target.order,
    goals: context.goals,
    reasoning: `Replaces ${target.exercise_name}: works the ${alternative.primary.join(' & ')} with the equipment at hand.`,
  });
  return {
    exercise_id: target.id ?? String(target.order),
    new_exercise: replacement,
    reason: named ? `You asked for ${alternative.name}.` : `Alternative for ${target.exercise_name}.`,
  };
}

/** Resizes a per-set list to `sets` entries, repeating its last value. */
const resize = (values: readonly number[], sets: number) =>
  Array.from({ length: sets }, (_, i) => values[Math.min(i, values.length - 1)] ?? values[0] ?? 1);

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The adjustments a message asks for on `target`, in fields its type has: "5 sets", "12 reps",
 * "rest 90 seconds", "25 minutes", "10 rounds", or "harder"/"easier" (one step of volume).
 * Per-set lists follow a change of sets. Undefined when the message names no change.
 */
export function adjustArguments(target: TrackedExercise, text: string): AdjustExerciseParams | undefined {
  const lower = text.toLowerCase();
  const number = (pattern: RegExp) => {
    const found = pattern.exec(lower)?.[1];
    return found === undefined ? undefined : Number(found);
  };
  const up = /\b(more|harder|increase|longer|heavier|add|bump|tougher)\b/.test(lower);
  const down = /\b(less|fewer|easier|decrease|shorter|lighter|reduce|lower|drop)\b/.test(lower);
  const step = up && !down ? 1 : down && !up ? -1 : 0;
  const adjustments: Record<string, unknown> = {};
  const rest = number(/\brest\D{0,12}(\d{1,3})\s*(?:s|sec|secs|seconds)\b/);
  if (rest !== undefined && target.exercise_type !== 'duration') adjustments['rest_sec'] = clamp(rest, 0, 900);
  switch (target.exercise_type) {
    case 'reps':
    case 'hold': {
      const asked = number(/\b(\d{1,2})\s*sets?\b/);
      const sets = clamp(asked ?? (rest === undefined ? target.sets + step : target.sets), 1, 20);
      const reps = target.exercise_type === 'reps' ? number(/\b(\d{1,3})\s*(?:reps?|repetitions?)\b/) : undefined;
      const hold =
        target.exercise_type === 'hold'
          ? number(/\b(\d{1,4})\s*(?:s|sec|secs|seconds)\s*(?:holds?|each)?\b(?!.*rest)/)
          : undefined;
      if (sets !== target.sets) adjustments['sets'] = sets;
      if (target.exercise_type === 'reps') {
        if (sets !== target.sets || reps !== undefined)
          adjustments['reps'] = resize(reps === undefined ? target.reps : [reps], sets);
        if (sets !== target.sets && target.load_each) adjustments['load_each'] = resize(target.load_each, sets);
      } else if (sets !== target.sets || hold !== undefined) {
        adjustments['hold_sec'] = resize(hold === undefined ? target.hold_sec : [hold], sets);
      }
      break;
    }
    case 'duration': {
      const minutes =
        number(/\b(\d{1,3})\s*(?:min|mins|minutes?)\b/) ?? (step === 0 ? undefined : target.duration_min + step * 5);
      if (minutes !== undefined && minutes !== target.duration_min)
        adjustments['duration_min'] = clamp(minutes, 1, 600);
      break;
    }
    case 'intervals': {
      const rounds = number(/\b(\d{1,3})\s*rounds?\b/) ?? (step === 0 ? undefined : target.rounds + step * 2);
      if (rounds !== undefined && rounds !== target.rounds) adjustments['rounds'] = clamp(rounds, 1, 100);
      break;
    }
  }
  if (Object.keys(adjustments).length === 0) return undefined;
  return { exercise_id: target.id ?? String(target.order), adjustments };
}

/** What was done of one exercise, as prescribed unless the message says it was skipped. */
function completed(exercise: TrackedExercise, skipped: boolean): CompletedExercise {
  const exercise_id = exercise.id ?? String(exercise.order);
  if (skipped) return { exercise_id, skipped: true };
  switch (exercise.exercise_type) {
    case 'reps':
      return {
        exercise_id,
        sets_completed: exercise.sets,
        reps_completed: exercise.reps,
        ...(exercise.load_each && exercise.load_unit
          ? { load_each: exercise.load_each, load_unit: exercise.load_unit }
          : {}),
      };
    case 'hold':
      return { exercise_id, sets_completed: exercise.sets, hold_sec_completed: exercise.hold_sec };
    case 'duration':
      return { exercise_id, duration_min: exercise.duration_min };
    case 'intervals':
      return { exercise_id, rounds_completed: exercise.rounds };
  }
}

/**
 * Logs the whole workout as prescribed; exercises the message says were skipped ("skipped the
 * plank") are logged as skipped. The message becomes the workout notes.
 */
export function logArguments(workout: TrackedWorkout, text: string): LogWorkoutParams {
  const skippedClause = /\b(?:skipped|didn'?t do|missed)\b(.*)$/i.exec(text)?.[1] ?? '';
  const skipped = (exercise: TrackedExercise) =>
    skippedClause !== '' && nameOverlap(exercise.exercise_name, skippedClause) > 0;
  return {
    completed_exercises: workout.exercises.map((exercise) => completed(exercise, skipped(exercise))),
    workout_notes: text.slice(0, 2000),
  };
}
