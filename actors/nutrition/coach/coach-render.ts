import type { ProgramExercise } from '../../../protocol/nutrition/training-program.ts';
import type { PlannedExercise } from './coach-plan.ts';
import {
  alternativeRange,
  defaultRange,
  formatRange,
  parseRange,
  prescribe,
  type PrescriptionContext,
} from './coach-prescription.ts';
import { STALL_SESSIONS } from './coach-stall.ts';

/** What rendering one exercise needs besides the planned exercise. */
interface RenderContext {
  prescription: PrescriptionContext;
  /** The same day's exercises in the previous program, when they may be kept as they were. */
  keepable: readonly ProgramExercise[];
  /** The same day's exercises in the previous program, to read a stalled lift's last range. */
  previous: readonly ProgramExercise[];
  stallSessions: number;
  adjustmentNote: string | null;
}

/**
 * The §4.7 exercise for a planned one. Delta-aware: an exercise the previous program had on the
 * same day with the same sets and RPE is returned unchanged (keeping any rep range an earlier
 * stall set), so a re-run changes only what it has a reason to change.
 */
export function renderExercise(entry: PlannedExercise, context: RenderContext): ProgramExercise {
  const { exercise, sets, stall } = entry;
  const standard = prescribe(exercise, defaultRange(exercise, context.prescription.phase), context.prescription);
  if (!stall) {
    const kept = context.keepable.find((old) => old.name === exercise.name);
    if (kept && kept.sets === sets && kept.target_rpe === standard.target_rpe) return kept;
  }
  const notes = [exercise.cue];
  let chosen = standard;
  const stalledFor = `${Math.max(context.stallSessions, STALL_SESSIONS)} stalled sessions`;
  if (stall?.kind === 'rep_range') {
    const last = context.previous.find((old) => old.name === exercise.name);
    const from = (last && parseRange(last.reps)) ?? standard.range;
    chosen = prescribe(exercise, alternativeRange(exercise, from), context.prescription);
    notes.push(
      `After ${stalledFor} the rep range moves from ${formatRange(exercise, from)} to ${chosen.reps}: pick a load that reaches the bottom of it at RPE ${chosen.target_rpe}.`,
    );
  } else if (stall?.kind === 'swapped') {
    notes.push(
      `Replaces ${stall.from} after ${stalledFor}: start about 10 % lighter and rebuild with double progression.`,
    );
  } else if (stall?.kind === 'dropped') {
    notes.push(`Takes the place of ${stall.from}, dropped after ${stalledFor}.`);
  }
  if (stall && context.adjustmentNote) notes.push(`SCIENTIST: ${context.adjustmentNote}`);
  if (context.prescription.deload) notes.push('Deload: same load as last week, fewer sets, easy finish.');
  return {
    name: exercise.name,
    sets,
    reps: chosen.reps,
    rest_sec: chosen.rest_sec,
    notes: notes.join(' '),
    target_rpe: chosen.target_rpe,
    progression_rule: chosen.progression_rule,
  };
}

/** One `progression_rules` line per stall change of this run, each lift once. */
export function stallChangeLines(entries: readonly PlannedExercise[], rendered: readonly ProgramExercise[]): string[] {
  const lines = entries.flatMap((entry, index) => {
    const output = rendered[index];
    if (!entry.stall || !output) return [];
    if (entry.stall.kind === 'swapped')
      return [`Stall change: ${entry.stall.from} -> ${entry.exercise.name} (a variation for the same muscles).`];
    if (entry.stall.kind === 'dropped')
      return [`Stall change: ${entry.stall.from} dropped this week; ${entry.exercise.name} takes its place.`];
    return [`Stall change: ${entry.exercise.name} now ${output.reps} reps.`];
  });
  return [...new Set(lines)];
}
