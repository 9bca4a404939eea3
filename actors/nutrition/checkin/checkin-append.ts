import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { evaluateCheckin } from './checkin-evaluation.ts';
import type { CheckinHistory } from './checkin-history.ts';

/**
 * The history after `checkin`: the check-in recorded as the next week, and every state change its
 * evaluation made (recalculation weights, ramp tier, calorie adjustments, stall counts, training
 * phase). Pure; `evaluateCheckin(checkin, history).history` is the same value.
 */
export function appendCheckin(history: CheckinHistory, checkin: WeeklyCheckin): CheckinHistory {
  return evaluateCheckin(checkin, history).history;
}
