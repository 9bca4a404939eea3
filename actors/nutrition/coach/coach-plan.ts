import type { GymAnxietyLevel, TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import {
  fitsKit,
  type Equipment,
  type InjuryArea,
  type MuscleGroup,
  type TrainingExercise,
} from './training-exercise.ts';

// The COACH's working representation: sessions of table exercises with set counts. Selection,
// volume balancing, stall handling and deloads all edit a plan; only the last step renders it
// into the §4.7 payload, so every rule works on exercises, not on display strings.

/** The session templates of a weekly split. */
export type SessionKind = 'full_body_a' | 'full_body_b' | 'lower' | 'upper';

/** Where a session happens, which decides the equipment it can use. */
export type SessionLocation = 'home' | 'gym' | 'gym_quiet_hours';

/**
 * Why an exercise changed on a stall re-run (§7.3 "Training stall -> COACH modifies"): the
 * stalled lift `from` was swapped for a variation, kept with a new rep range, or dropped and its
 * place given to a group below its weekly floor.
 */
export type StallChange = { kind: 'swapped'; from: string } | { kind: 'rep_range' } | { kind: 'dropped'; from: string };

/** One exercise of a planned session. */
export interface PlannedExercise {
  exercise: TrainingExercise;
  sets: number;
  /** Main lifts come first in a session and get the compound prescription. */
  role: 'main' | 'accessory';
  /** Set when a stall changed this exercise on this run. */
  stall?: StallChange;
}

/** Who an exercise must suit: the session's equipment and the client's limits. */
export interface EligibilityCriteria {
  kit: readonly Equipment[];
  areas: readonly InjuryArea[];
  experience: TrainingExperience;
  anxiety: GymAnxietyLevel;
}

/** One planned session. */
export interface PlannedSession {
  day: Weekday;
  kind: SessionKind;
  location: SessionLocation;
  criteria: EligibilityCriteria;
  exercises: PlannedExercise[];
}

/** The most technical lift each experience level is given: barbell and ballistic lifts wait. */
const MAX_COMPLEXITY: Readonly<Record<TrainingExperience, number>> = { none: 2, beginner: 2, intermediate: 3 };

/**
 * Whether an exercise suits the criteria: its equipment is in the kit, it loads no injured
 * area, it is simple enough for the experience, and with high gym anxiety it is an
 * anxiety-friendly, simple movement (machines, dumbbells, bands, bodyweight).
 */
export function isEligible(exercise: TrainingExercise, criteria: EligibilityCriteria): boolean {
  if (!fitsKit(exercise, criteria.kit)) return false;
  if (exercise.contraindications.some((area) => criteria.areas.includes(area))) return false;
  if (exercise.complexity > MAX_COMPLEXITY[criteria.experience]) return false;
  if (criteria.anxiety === 'high' && (!exercise.anxietyFriendly || exercise.complexity > 2)) return false;
  return true;
}

/** Whether two exercises credit exactly the same muscle groups, so swapping them keeps volume. */
export function samePrimaries(a: TrainingExercise, b: TrainingExercise): boolean {
  return a.primary.length === b.primary.length && a.primary.every((group: MuscleGroup) => b.primary.includes(group));
}
