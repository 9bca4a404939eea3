import type { SessionKind } from './coach-plan.ts';
import type { MovementPattern, MuscleGroup } from './training-exercise.ts';

/** One place in a session: the patterns that can fill it, in order of preference. */
export interface SessionSlot {
  patterns: readonly MovementPattern[];
  /** The group the slot serves; if no pattern fits the client, any exercise for it may. */
  group: MuscleGroup;
  role: 'main' | 'accessory';
}

const slot = (group: MuscleGroup, role: SessionSlot['role'], ...patterns: MovementPattern[]): SessionSlot => ({
  patterns,
  group,
  role,
});

/**
 * The slots of each session kind, most important first: a session shorter than its template
 * (by experience or by the novelty cap of high gym anxiety) drops slots from the end. Full-body
 * days cover every major group; A and B use different patterns so each week has variety
 * without many new lifts. The glute emphasis of a weight-gain client (hip thrust, §7.1) sits in
 * the first slots of lower and full-body A days.
 */
export const SESSION_TEMPLATES: Readonly<Record<SessionKind, readonly SessionSlot[]>> = {
  full_body_a: [
    slot('quads', 'main', 'squat', 'lunge'),
    slot('glutes', 'main', 'hip_thrust'),
    slot('chest', 'main', 'horizontal_push'),
    slot('back', 'main', 'horizontal_pull', 'vertical_pull'),
    slot('shoulders', 'accessory', 'vertical_push', 'shoulder_isolation'),
    slot('hamstrings', 'accessory', 'knee_flexion', 'hinge'),
    slot('core', 'accessory', 'core_stability'),
  ],
  full_body_b: [
    slot('hamstrings', 'main', 'hinge', 'knee_flexion'),
    slot('quads', 'main', 'lunge', 'squat'),
    slot('back', 'main', 'vertical_pull', 'horizontal_pull'),
    slot('chest', 'main', 'horizontal_push'),
    slot('shoulders', 'accessory', 'shoulder_isolation', 'vertical_push'),
    slot('glutes', 'accessory', 'glute_isolation', 'hip_thrust'),
    slot('core', 'accessory', 'core_stability', 'carry'),
  ],
  lower: [
    slot('glutes', 'main', 'hip_thrust'),
    slot('quads', 'main', 'squat', 'lunge'),
    slot('hamstrings', 'main', 'hinge', 'knee_flexion'),
    slot('quads', 'accessory', 'lunge', 'knee_extension'),
    slot('hamstrings', 'accessory', 'knee_flexion'),
    slot('glutes', 'accessory', 'glute_isolation'),
    slot('core', 'accessory', 'core_stability'),
    slot('calves', 'accessory', 'calf_raise'),
  ],
  upper: [
    slot('chest', 'main', 'horizontal_push'),
    slot('back', 'main', 'vertical_pull', 'horizontal_pull'),
    slot('shoulders', 'main', 'vertical_push', 'shoulder_isolation'),
    slot('back', 'accessory', 'horizontal_pull', 'vertical_pull'),
    slot('shoulders', 'accessory', 'shoulder_isolation'),
    slot('biceps', 'accessory', 'elbow_flexion'),
    slot('triceps', 'accessory', 'elbow_extension'),
    slot('chest', 'accessory', 'chest_isolation', 'horizontal_push'),
  ],
};

/** Most exercises in one session per experience: short sessions for first-timers. */
export const MAX_EXERCISES = { none: 5, beginner: 6, intermediate: 7 } as const;

/**
 * Most lifts a session may introduce that the client has not done before (not in the training
 * log, the previous program or an earlier session this week). Only high anxiety is capped below
 * the session size, so each of those visits has few unfamiliar set-ups to face.
 */
export const MAX_NOVEL_LIFTS = { high: 4, moderate: 7, low: 7 } as const;
