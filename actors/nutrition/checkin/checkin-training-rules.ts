import type { TrainingPhase } from '../../../protocol/nutrition/client-profile.ts';
import { ADAPTATION_WEEKS } from '../../../protocol/nutrition/macro-targets.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import type { CheckinHistory } from './checkin-history.ts';

// The training rules of §7.3 and §10: training stall, phase transition, and the deload signal.

/** A lift has stalled after this many consecutive sessions without progress (§7.3). */
export const STALL_SESSIONS = 3;
/** A stall needs this many stalled lifts (§7.3). */
export const STALLED_LIFTS = 2;
/** Length of a training block in active training; a phase transition is due at its end. */
const TRAINING_BLOCK_WEEKS = 8;
/** Energy and sleep-quality scores (1-10) at or under this, together, recommend a deload. */
export const LOW_RECOVERY_SCORE = 4;

/** The key a lift is counted under: its name, trimmed and in lower case ("Hip Thrust" = "hip thrust"). */
function liftKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Consecutive stalled sessions per lift after this check-in. The check-in gives each lift's best
 * set per week, not per session, so a lift that did not progress this week counts every session
 * completed this week as stalled (the programs are full-body: each main lift in every session);
 * a lift that progressed goes back to 0. Lifts not logged this week are dropped (no longer in the
 * program). No training log: the counts stay as they were.
 */
export function updateLiftStalls(
  previous: Readonly<Record<string, number>>,
  checkin: WeeklyCheckin,
): Record<string, number> {
  const log = checkin.training_log;
  if (!log) return { ...previous };
  const next: Record<string, number> = {};
  for (const exercise of log.exercises) {
    const key = liftKey(exercise.name);
    next[key] = exercise.progressed ? 0 : (previous[key] ?? 0) + log.sessions_completed;
  }
  return next;
}

/** The lifts stalled for at least `STALL_SESSIONS` sessions, with their counts, longest first. */
export function stalledLifts(stalls: Readonly<Record<string, number>>): Array<[string, number]> {
  return Object.entries(stalls)
    .filter(([, sessions]) => sessions >= STALL_SESSIONS)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}

/** True for a §7.3 training stall: at least 2 lifts stalled for at least 3 sessions. */
export function isTrainingStall(stalls: Readonly<Record<string, number>>): boolean {
  return stalledLifts(stalls).length >= STALLED_LIFTS;
}

/** A due phase transition: the phase after it, and why. */
interface PhaseTransition {
  readonly next_phase: TrainingPhase;
  readonly reason: string;
}

/**
 * When the training phase changes (§10 "Phase transition (training)"). With the COACH's plan
 * known (`recordTrainingProgram`): when its current phase is planned to end, i.e. the weeks since
 * the program was made reach `total_weeks_remaining_in_phase + 1` (the program's own week counts).
 * Without it: from `pre_training` to `active_training` once the 4-week adaptation period is
 * complete (week >= 4), and in `active_training` every 8 weeks (a mesocycle). Either way the
 * client is in `active_training` afterwards.
 */
export function dueTransition(history: CheckinHistory, week: number): PhaseTransition | undefined {
  const plan = history.coach_phase;
  if (plan) {
    const done = week - plan.recorded_week;
    const planned = plan.weeks_remaining + 1;
    return done >= planned
      ? {
          next_phase: 'active_training',
          reason: `Week ${week}: the COACH's ${plan.phase} phase is planned to end (${done} weeks since week ${plan.recorded_week}, ${planned} planned) — next phase due`,
        }
      : undefined;
  }
  if (history.training_phase === 'pre_training') {
    return week >= ADAPTATION_WEEKS
      ? {
          next_phase: 'active_training',
          reason: `Week ${week}: adaptation period complete (>= ${ADAPTATION_WEEKS} weeks) — moving from pre_training to active_training`,
        }
      : undefined;
  }
  const inPhase = week - history.phase_started_week;
  return inPhase >= TRAINING_BLOCK_WEEKS
    ? {
        next_phase: 'active_training',
        reason: `Week ${week}: ${inPhase} weeks in the current training block (block length ${TRAINING_BLOCK_WEEKS}) — next block due`,
      }
    : undefined;
}

/**
 * A deload is recommended when a stall fires, or when the client reports both energy and sleep
 * quality at or under 4 of 10 (recovery, §10 rule 4).
 */
export function lowRecovery(checkin: WeeklyCheckin): boolean {
  const markers = checkin.subjective_markers;
  return !!markers && markers.energy <= LOW_RECOVERY_SCORE && markers.sleep_quality <= LOW_RECOVERY_SCORE;
}
