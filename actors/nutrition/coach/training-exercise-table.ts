import type { TrainingExercise } from './training-exercise.ts';
import { CORE_EXERCISES } from './training-exercise-core.ts';
import { LOWER_BODY_EXERCISES } from './training-exercise-lower.ts';
import { UPPER_BODY_EXERCISES } from './training-exercise-upper.ts';

/**
 * Every exercise the COACH can program. Within a movement pattern the order is the default
 * preference for a client who can do them all (loadable lifts first); eligibility and ranking
 * narrow it per client.
 */
export const TRAINING_EXERCISES: readonly TrainingExercise[] = [
  ...LOWER_BODY_EXERCISES,
  ...UPPER_BODY_EXERCISES,
  ...CORE_EXERCISES,
];

/** A name as the training log might spell it: lower case, single spaces, no punctuation. */
export function normalizeExerciseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const BY_NAME = new Map(TRAINING_EXERCISES.map((entry) => [normalizeExerciseName(entry.name), entry]));
const BY_ID = new Map(TRAINING_EXERCISES.map((entry) => [entry.id, entry]));

/** The table entry with this display name (any case or punctuation), if there is one. */
export function findTrainingExercise(name: string): TrainingExercise | undefined {
  return BY_NAME.get(normalizeExerciseName(name));
}

/** The table entry with this id; throws for an unknown id, which is a bug in a template. */
export function trainingExerciseById(id: string): TrainingExercise {
  const entry = BY_ID.get(id);
  if (!entry) throw new Error(`Unknown training exercise id "${id}": add it to the exercise table.`);
  return entry;
}
