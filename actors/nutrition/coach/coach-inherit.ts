import type { TrainingProgram } from '../../../protocol/nutrition/training-program.ts';
import { isEligible, samePrimaries, type PlannedSession } from './coach-plan.ts';
import { applyStall, pickExercise, type SelectionContext } from './coach-selection.ts';
import { isDeloadFocus } from './coach-warmup.ts';
import { findTrainingExercise } from './training-exercise-table.ts';

/**
 * Fills `skeleton` with the previous program as this week's plan (§10 rule 2: delta-aware
 * generation) and says whether it could. It cannot reuse a deload week (its set counts are not
 * the normal ones), other training days, or an exercise missing from the table. Each kept
 * exercise keeps its place and sets; one that no longer suits the client (a new injury, other equipment) is
 * substituted in place, and stalled lifts get their stall change.
 */
export function inheritPlan(previous: TrainingProgram, skeleton: PlannedSession[], context: SelectionContext): boolean {
  const sessions = previous.program.sessions;
  if (sessions.some((session) => isDeloadFocus(session.focus))) return false;
  if (sessions.length !== skeleton.length || skeleton.some((session, index) => sessions[index]?.day !== session.day))
    return false;
  const exercises = sessions.map((session) =>
    session.exercises.map((old) => ({ old, entry: findTrainingExercise(old.name) })),
  );
  if (exercises.some((list) => list.some(({ entry }) => entry === undefined))) return false;
  skeleton.forEach((session, index) => {
    for (const { old, entry } of exercises[index] ?? []) {
      if (!entry) continue;
      const role = entry.kind === 'compound' ? 'main' : 'accessory';
      const kept = isEligible(entry, session.criteria)
        ? entry
        : (pickExercise(
            skeleton,
            index,
            context,
            (candidate) => candidate.pattern === entry.pattern && samePrimaries(candidate, entry),
          ) ??
          pickExercise(skeleton, index, context, (candidate) =>
            candidate.primary.some((group) => entry.primary.includes(group)),
          ));
      if (kept) session.exercises.push(applyStall(skeleton, index, { exercise: kept, sets: old.sets, role }, context));
    }
  });
  return true;
}
