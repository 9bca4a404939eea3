import type { AdjustmentTrigger } from '../../../protocol/nutrition/adjustment-result.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import type { CheckinHistory, TrainingSignals } from './checkin-history.ts';
import {
  LOW_RECOVERY_SCORE,
  STALL_SESSIONS,
  STALLED_LIFTS,
  dueTransition,
  isTrainingStall,
  lowRecovery,
  stalledLifts,
  updateLiftStalls,
} from './checkin-training-rules.ts';

/** The training side of a weekly evaluation. */
interface TrainingOutcome {
  readonly triggers: AdjustmentTrigger[];
  readonly notes: string[];
  readonly signals: TrainingSignals;
  readonly state: Pick<CheckinHistory, 'lift_stall_sessions' | 'training_phase' | 'phase_started_week' | 'coach_phase'>;
}

/**
 * The training rules of one check-in: the stall (>= 3 sessions on >= 2 lifts; the stalled lifts'
 * counts start again from 0 afterwards, because the COACH changes their programming), the phase
 * transition (`dueTransition`), and the deload signal (a stall, or low energy and sleep).
 */
export function evaluateTraining(history: CheckinHistory, checkin: WeeklyCheckin, week: number): TrainingOutcome {
  const triggers: AdjustmentTrigger[] = [];
  const notes: string[] = [];
  const stalls = updateLiftStalls(history.lift_stall_sessions, checkin);
  const stalled = stalledLifts(stalls);
  const stall = isTrainingStall(stalls);
  const longest = Math.min(100, Math.max(0, ...Object.values(stalls)));
  const kept = { ...stalls };
  if (stall) {
    triggers.push('training_stall');
    const listed = stalled.map(([lift, sessions]) => `${lift} ${sessions} sessions`).join(', ');
    notes.push(
      `Training stall: ${stalled.length} lifts without progress for >= ${STALL_SESSIONS} sessions (${listed}; threshold ${STALLED_LIFTS} lifts) — COACH modifies the program`,
    );
    for (const [lift] of stalled) kept[lift] = 0;
  }

  let training_phase = history.training_phase;
  let phase_started_week = history.phase_started_week;
  let coach_phase = history.coach_phase;
  const transition = dueTransition(history, week);
  if (transition) {
    triggers.push('phase_transition');
    notes.push(transition.reason);
    training_phase = transition.next_phase;
    phase_started_week = week;
    // The plan is spent; the COACH's next program is recorded again after its re-run.
    coach_phase = null;
  }

  const tired = lowRecovery(checkin);
  if (tired) {
    notes.push(
      `Energy ${checkin.subjective_markers?.energy}/10 and sleep quality ${checkin.subjective_markers?.sleep_quality}/10 (both <= ${LOW_RECOVERY_SCORE}) — deload recommended to the COACH`,
    );
  }
  const trainingNotes = [...notes];
  return {
    triggers,
    notes,
    signals: {
      stall_detected: stall,
      consecutive_stall_sessions: longest,
      phase_transition_due: transition !== undefined,
      deload_recommended: stall || tired,
      adjustment_note: trainingNotes.length > 0 ? trainingNotes.join('; ') : null,
    },
    state: { lift_stall_sessions: kept, training_phase, phase_started_week, coach_phase },
  };
}
