import type { TrainingInput } from '../../../protocol/nutrition/training-input.ts';
import type { TrainingProgram } from '../../../protocol/nutrition/training-program.ts';
import { parseRange } from './coach-prescription.ts';
import { normalizeExerciseName } from './training-exercise-table.ts';

/** Stalled sessions that make a lift count as stalled (§7.3: "Training stall >=3 sessions"). */
export const STALL_SESSIONS = 3;

/**
 * The lifts the COACH must modify (normalised names), from the SCIENTIST's stall signal
 * (§7.3 "Training stall >=3 sessions on >=2 lifts -> COACH modifies").
 *
 * The SCIENTIST's word wins (§8 rank 5): when its `adjustment_note` names logged lifts, those
 * are the stalled ones. Otherwise a logged lift is stalled when its last session stayed below
 * the top of the range it was prescribed, because under double progression reaching the top is
 * what moves the load up. Without a previous program to compare with, every logged lift is.
 */
export function stalledLifts(input: TrainingInput, previous: TrainingProgram | undefined): Set<string> {
  const { stall_detected, consecutive_stall_sessions, training_log } = input.progress_data;
  if (!stall_detected && consecutive_stall_sessions < STALL_SESSIONS) return new Set();
  const note = normalizeExerciseName(input.scientist_triggers.adjustment_note ?? '');
  const named = training_log.filter((entry) => ` ${note} `.includes(` ${normalizeExerciseName(entry.name)} `));
  if (named.length > 0) return new Set(named.map((entry) => normalizeExerciseName(entry.name)));
  const prescribed = new Map<string, number>();
  for (const session of previous?.program.sessions ?? []) {
    for (const exercise of session.exercises) {
      const range = parseRange(exercise.reps);
      if (range) prescribed.set(normalizeExerciseName(exercise.name), range[1]);
    }
  }
  const stalled = training_log.filter((entry) => {
    const top = prescribed.get(normalizeExerciseName(entry.name));
    return top === undefined || entry.reps < top;
  });
  return new Set((stalled.length > 0 ? stalled : training_log).map((entry) => normalizeExerciseName(entry.name)));
}
