import type { TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { PlannedSession } from './coach-plan.ts';
import { MAJOR_MUSCLE_GROUPS, MUSCLE_GROUPS, type MuscleGroup } from './training-exercise.ts';

/** Weekly working sets allowed for one muscle group. */
export interface VolumeRange {
  min: number;
  max: number;
}

/**
 * Weekly direct sets per major muscle group by experience. Gains rise with volume up to about
 * 10+ sets a week (Schoenfeld, Ogborn & Krieger 2017 dose-response meta-analysis) but novices
 * grow on far less, and more only adds soreness that hurts adherence: 4-8 for first-timers,
 * 6-10 for beginners, 10-16 for intermediates.
 */
const BASE_RANGES: Readonly<Record<TrainingExperience, VolumeRange>> = {
  none: { min: 4, max: 8 },
  beginner: { min: 6, max: 10 },
  intermediate: { min: 10, max: 16 },
};

/**
 * The glutes are the priority muscle of this weight-gain client (§7.1 tracks the hip thrust),
 * so they get a higher band; specialising one muscle with more sets is the usual way to bring
 * it up without raising whole-body fatigue.
 */
const GLUTE_RANGES: Readonly<Record<TrainingExperience, VolumeRange>> = {
  none: { min: 6, max: 10 },
  beginner: { min: 8, max: 12 },
  intermediate: { min: 12, max: 18 },
};

/**
 * The weekly range of every group. Arms, calves and core get indirect work from the compounds,
 * so they have no floor, only the same ceiling as the major groups.
 */
export function weeklyVolumeRanges(experience: TrainingExperience): Record<MuscleGroup, VolumeRange> {
  const base = BASE_RANGES[experience];
  const entries = MUSCLE_GROUPS.map((group): [MuscleGroup, VolumeRange] => {
    if (group === 'glutes') return [group, GLUTE_RANGES[experience]];
    return [group, MAJOR_MUSCLE_GROUPS.includes(group) ? base : { min: 0, max: base.max }];
  });
  return Object.fromEntries(entries) as Record<MuscleGroup, VolumeRange>;
}

/** Fewest and most working sets of one exercise in one session. */
export function setBounds(experience: TrainingExperience): VolumeRange {
  return { min: 2, max: experience === 'intermediate' ? 5 : 4 };
}

/** Starting sets before balancing: two for first-timers, three for main lifts after that. */
export function initialSets(experience: TrainingExperience, role: 'main' | 'accessory'): number {
  if (experience === 'none') return 2;
  return role === 'main' || experience === 'intermediate' ? 3 : 2;
}

/**
 * Working sets per week for every group: each set of an exercise counts one set for each of its
 * primary groups (direct-work counting), so the §4.7 summary is an exact count of the sessions.
 */
export function weeklyVolume(plan: readonly PlannedSession[]): Record<MuscleGroup, number> {
  const volume = Object.fromEntries(MUSCLE_GROUPS.map((group) => [group, 0])) as Record<MuscleGroup, number>;
  for (const session of plan) {
    for (const { exercise, sets } of session.exercises) {
      for (const group of exercise.primary) volume[group] += sets;
    }
  }
  return volume;
}
