import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { ExerciseType } from '../../../protocol/trainer/tools/exercise.ts';
import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import { CORE_AND_CARDIO_EXERCISES } from './exercise-library-core-cardio.ts';
import type { ExerciseRole, LibraryExercise } from './exercise-library-entry.ts';
import { LOWER_BODY_EXERCISES } from './exercise-library-lower.ts';
import { UPPER_BODY_EXERCISES } from './exercise-library-upper.ts';

export type { LibraryExercise, ExerciseRole } from './exercise-library-entry.ts';

/** Every exercise of the built-in library, covering all 16 muscles and the 4 exercise types. */
export const EXERCISE_LIBRARY: readonly LibraryExercise[] = [
  ...UPPER_BODY_EXERCISES,
  ...LOWER_BODY_EXERCISES,
  ...CORE_AND_CARDIO_EXERCISES,
];

const byId = new Map(EXERCISE_LIBRARY.map((entry) => [entry.id, entry]));
const byName = new Map(EXERCISE_LIBRARY.map((entry) => [entry.name.toLowerCase(), entry]));

/** Looks an exercise up by its id or, case-insensitively, by its name. */
export function getLibraryExercise(idOrName: string): LibraryExercise | undefined {
  return byId.get(idOrName) ?? byName.get(idOrName.trim().toLowerCase());
}

/**
 * Whether the exercise can be done with `equipment`: every item it needs is there.
 * `undefined` means "no constraint" (any gym); an empty list means bodyweight only.
 */
export function isDoableWith(entry: LibraryExercise, equipment: readonly Equipment[] | undefined): boolean {
  if (equipment === undefined) return true;
  return entry.equipment.every((item) => equipment.includes(item));
}

/** What to look for; every given criterion must hold. */
interface ExerciseQuery {
  /** Exercises whose primary muscles include one of these (secondary ones too with `includeSecondary`). */
  muscles?: readonly Muscle[];
  /** The equipment at hand; undefined means any. */
  equipment?: readonly Equipment[] | undefined;
  type?: ExerciseType | readonly ExerciseType[];
  role?: ExerciseRole | readonly ExerciseRole[];
  /** Exercises serving at least one of these goals. */
  goals?: readonly string[];
  includeSecondary?: boolean;
}

const asList = <T>(value: T | readonly T[] | undefined): readonly T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? (value as readonly T[]) : [value as T];

function muscleScore(entry: LibraryExercise, muscles: readonly Muscle[]): number {
  const primary = entry.primary.filter((muscle) => muscles.includes(muscle)).length;
  const secondary = entry.secondary.filter((muscle) => muscles.includes(muscle)).length;
  return primary * 2 + secondary;
}

/**
 * Exercises matching the query, the best muscle matches first (primary hits count double);
 * ties keep library order, so results are deterministic.
 */
export function findExercises(query: ExerciseQuery = {}): LibraryExercise[] {
  const types = asList(query.type);
  const roles = asList(query.role);
  const muscles = query.muscles;
  const matches = EXERCISE_LIBRARY.filter((entry) => {
    if (!isDoableWith(entry, query.equipment)) return false;
    if (types && !types.includes(entry.type)) return false;
    if (roles && !roles.includes(entry.role)) return false;
    if (query.goals && !entry.goals.some((goal) => query.goals?.includes(goal))) return false;
    if (muscles && muscles.length > 0) {
      const hitsPrimary = entry.primary.some((muscle) => muscles.includes(muscle));
      const hitsSecondary = entry.secondary.some((muscle) => muscles.includes(muscle));
      return hitsPrimary || (query.includeSecondary === true && hitsSecondary);
    }
    return true;
  });
  if (!muscles || muscles.length === 0) return matches;
  return matches
    .map((entry, index) => ({ entry, index, score: muscleScore(entry, muscles) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ entry }) => entry);
}

/**
 * Exercises that can replace `idOrName`: they share a primary muscle with it and are doable with
 * `equipment`. Ranked by shared primary muscles, then same type, then shared secondary muscles.
 * Unknown exercises have no alternatives.
 */
export function alternativesFor(idOrName: string, equipment?: readonly Equipment[]): LibraryExercise[] {
  const target = getLibraryExercise(idOrName);
  if (!target) return [];
  return EXERCISE_LIBRARY.map((entry, index) => {
    const sharedPrimary = entry.primary.filter((muscle) => target.primary.includes(muscle)).length;
    const sharedSecondary = entry.secondary.filter((muscle) => target.secondary.includes(muscle)).length;
    const sameType = entry.type === target.type ? 1 : 0;
    return { entry, index, sharedPrimary, score: sharedPrimary * 4 + sameType * 2 + sharedSecondary };
  })
    .filter(({ entry, sharedPrimary }) => entry.id !== target.id && sharedPrimary > 0 && isDoableWith(entry, equipment))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ entry }) => entry);
}
