import type { TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { CoachPhase } from './coach-phase.ts';
import type { TrainingExercise } from './training-exercise.ts';

/** A rep (or, for holds, second) range: low and high end. */
type RepRange = readonly [number, number];

/** What one exercise is prescribed. */
interface Prescription {
  range: RepRange;
  reps: string;
  rest_sec: number;
  target_rpe: number;
  progression_rule: string;
}

/** What the prescription depends on besides the exercise. */
export interface PrescriptionContext {
  phase: CoachPhase;
  experience: TrainingExperience;
  deload: boolean;
  /** Lowest applicable RPE cap (experience, poor sleep, PHYSICIAN advisory, deload). */
  rpeCap: number;
}

/**
 * Rep ranges per phase: moderate reps to learn the lifts, 8-12 (6-15 works, Schoenfeld et al.
 * 2017 load meta-analysis) for hypertrophy, 5-8 on compounds for strength. Isolation work stays
 * higher because heavy singles on small joints add risk, not growth.
 */
const RANGES: Readonly<Record<CoachPhase, Readonly<Record<TrainingExercise['kind'] | 'hold', RepRange>>>> = {
  foundation: { compound: [10, 12], isolation: [12, 15], core: [8, 10], hold: [20, 30] },
  hypertrophy: { compound: [8, 12], isolation: [10, 15], core: [10, 12], hold: [30, 45] },
  strength: { compound: [5, 8], isolation: [8, 12], core: [10, 12], hold: [30, 45] },
};

/** Target RPE of main lifts per phase, before the experience offset and caps. */
const PHASE_RPE: Readonly<Record<CoachPhase, number>> = { foundation: 6.5, hypertrophy: 7.5, strength: 8 };

/**
 * RPE by experience: novices rate effort poorly (Helms et al. 2016 RIR-based RPE), so they
 * stay 3-4 reps from failure; intermediates train 1-2 reps from it.
 */
const EXPERIENCE_RPE: Readonly<Record<TrainingExperience, { offset: number; cap: number }>> = {
  none: { offset: -0.5, cap: 7 },
  beginner: { offset: 0, cap: 8 },
  intermediate: { offset: 0.5, cap: 9 },
};

/** The RPE ceiling of an experience level. */
export function experienceRpeCap(experience: TrainingExperience): number {
  return EXPERIENCE_RPE[experience].cap;
}

/** RPE ceiling in a deload week: 4 or more reps in reserve. */
export const DELOAD_RPE_CAP = 6;

/** The phase's default range for an exercise. */
export function defaultRange(exercise: TrainingExercise, phase: CoachPhase): RepRange {
  return RANGES[phase][exercise.hold ? 'hold' : exercise.kind];
}

/**
 * The range a stalled lift moves to (§7.3 stall: "change rep range"): heavier and lower when it
 * sat at 8 reps or more, lighter and higher when it was already heavy. Holds go longer.
 */
export function alternativeRange(exercise: TrainingExercise, [low, high]: RepRange): RepRange {
  if (exercise.hold) return [high, high + 15];
  return low >= 8 ? [Math.max(4, low - 3), low - 1] : [high + 2, high + 5];
}

/** "8-12", "8-12 per side" or "30-45 s". */
export function formatRange(exercise: TrainingExercise, [low, high]: RepRange): string {
  const unit = exercise.hold ? ' s' : '';
  return `${low}-${high}${unit}${exercise.unilateral ? ' per side' : ''}`;
}

/** Reads the range back from a rendered `reps` value ("8-12 per side" -> [8, 12]). */
export function parseRange(reps: string | number): RepRange | undefined {
  if (typeof reps === 'number') return [reps, reps];
  const match = /(\d+)\s*-\s*(\d+)/.exec(reps) ?? /(\d+)/.exec(reps);
  if (!match) return undefined;
  const low = Number(match[1]);
  return [low, Number(match[2] ?? low)];
}

const LOWER_BODY_PATTERNS = new Set(['squat', 'lunge', 'hinge', 'hip_thrust']);

/** The prescription of one exercise in the given phase, for the given range. */
export function prescribe(exercise: TrainingExercise, range: RepRange, context: PrescriptionContext): Prescription {
  const { offset } = EXPERIENCE_RPE[context.experience];
  const isolated = exercise.kind !== 'compound' ? 0.5 : 0;
  const cap = context.deload ? Math.min(context.rpeCap, DELOAD_RPE_CAP) : context.rpeCap;
  const target_rpe = Math.min(cap, PHASE_RPE[context.phase] + offset + isolated);
  return {
    range,
    reps: formatRange(exercise, range),
    rest_sec: restSeconds(exercise, context.phase),
    target_rpe,
    progression_rule: progressionRule(exercise, range, target_rpe, context),
  };
}

/** Rest between sets: 2-3 min on compounds keeps the volume of the next set up (Schoenfeld et al. 2016 rest study). */
function restSeconds(exercise: TrainingExercise, phase: CoachPhase): number {
  if (exercise.kind === 'core') return 45;
  if (exercise.kind === 'isolation') return phase === 'strength' ? 90 : 60;
  return { foundation: 90, hypertrophy: 120, strength: 180 }[phase];
}

/**
 * Double progression (the usual novice-to-intermediate model): stay at a load until every set
 * reaches the top of the range at the target RPE, then add the smallest step and start again
 * at the bottom. Bodyweight and band work progress by variation or band instead of load.
 */
function progressionRule(
  exercise: TrainingExercise,
  [low, high]: RepRange,
  rpe: number,
  context: PrescriptionContext,
): string {
  if (context.deload) {
    return `Deload week: keep last week's load, do ${low}-${high}${exercise.hold ? ' s' : ' reps'} and stop at RPE ${rpe} or lower; double progression resumes next week.`;
  }
  if (exercise.hold) {
    return `Add 5 s per set each week until every set reaches ${high} s at RPE ${rpe}, then progress to a harder variation and restart at ${low} s.`;
  }
  const first = context.experience === 'none' ? 'Reps first: add a rep or two per session with clean form. ' : '';
  if (exercise.load === 'band') {
    return `${first}Double progression: when every set reaches ${high} reps at RPE ${rpe} or lower, move to the next-stronger band and restart at ${low} reps.`;
  }
  if (exercise.load === 'bodyweight') {
    return `${first}Double progression: when every set reaches ${high} reps at RPE ${rpe} or lower, make it harder (3-second lowering, a pause or the next variation) and restart at ${low} reps.`;
  }
  const step =
    exercise.kind !== 'compound'
      ? 'the smallest step available (about 1-2 kg)'
      : LOWER_BODY_PATTERNS.has(exercise.pattern)
        ? '2.5-5 kg'
        : '1-2.5 kg (the next dumbbell)';
  return `${first}Double progression: when every set reaches ${high} reps at RPE ${rpe} or lower, add ${step} and restart at ${low} reps.`;
}
