import type { PlannedSession, SessionKind, SessionLocation } from './coach-plan.ts';
import type { InjuryArea } from './training-exercise.ts';

const KIND_LABELS: Readonly<Record<SessionKind, string>> = {
  full_body_a: 'Full body A - squat and hip thrust first (glute emphasis)',
  full_body_b: 'Full body B - hinge and single-leg work',
  lower: 'Lower body - glute emphasis',
  upper: 'Upper body',
};

const LOCATION_LABELS: Readonly<Record<SessionLocation, string>> = {
  home: 'home',
  gym: 'gym',
  gym_quiet_hours: 'gym at quiet hours, machines in a fixed order',
};

/** The §4.7 session `focus`: the session's aim, where it happens, and whether it is a deload. */
export function sessionFocus(session: PlannedSession, deload: boolean): string {
  return `${KIND_LABELS[session.kind]} (${LOCATION_LABELS[session.location]})${deload ? ' - deload week' : ''}`;
}

/** Whether a focus line marks a deload week (used to read a previous program back). */
export function isDeloadFocus(focus: string): boolean {
  return focus.endsWith(' - deload week');
}

/**
 * The warm-up: a few minutes of easy cardio to raise tissue temperature, dynamic mobility for
 * the joints the session uses, a low-load activation drill, then ramp-up sets of the first lift
 * (the RAMP structure: raise, activate/mobilise, potentiate; Jeffreys 2007).
 */
export function sessionWarmup(session: PlannedSession, areas: readonly InjuryArea[]): string[] {
  const lower = session.kind !== 'upper';
  const upper = session.kind !== 'lower';
  const warmup: string[] = [];
  if (session.location === 'gym_quiet_hours') {
    warmup.push(
      'Go at an off-peak hour (mid-morning, early afternoon or late evening); the machines below are done in order, so there is no waiting for racks.',
    );
  }
  warmup.push(
    session.location === 'home'
      ? '5 min easy cardio: brisk walk, stairs or marching on the spot.'
      : '5 min easy cardio on a bike, rower or treadmill.',
  );
  if (lower) warmup.push('Hip circles, leg swings and bodyweight good mornings: 8 each, easy range first.');
  if (upper) warmup.push('Arm circles and thoracic rotations: 8 each side.');
  warmup.push(lower ? 'Glute bridges: 2 x 10 with a 2-second squeeze at the top.' : 'Band pull-aparts: 2 x 15.');
  const first = session.exercises[0]?.exercise;
  if (first) {
    warmup.push(
      first.load === 'external'
        ? `Ramp-up sets of ${first.name}: about 50 % of the working load x 8, then 75 % x 4.`
        : `One easy set of ${first.name} at half effort.`,
    );
  }
  if (areas.length > 0) {
    warmup.push(
      `Protected areas (${areas.join(', ').replace(/_/g, ' ')}): move them gently through a pain-free range; skip anything that hurts.`,
    );
  }
  return warmup;
}
