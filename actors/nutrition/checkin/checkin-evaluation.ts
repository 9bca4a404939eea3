import type { AdjustmentResult, AdjustmentTrigger } from '../../../protocol/nutrition/adjustment-result.ts';
import { ADAPTATION_WEEKS, type MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import type { ScientistTriggers, TrainingInput } from '../../../protocol/nutrition/training-input.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import { buildAdjustmentResult, changedMacros } from './checkin-adjustment-result.ts';
import { evaluateEnergy } from './checkin-energy.ts';
import { HIGH_GAIN_KG_PER_WEEK, LOW_GAIN_KG_PER_WEEK, kg, weeklyGains, type WeeklyGain } from './checkin-gain-rules.ts';
import { currentWeek, type CheckinHistory } from './checkin-history.ts';
import {
  MAX_MINIMUM_VIABLE_DAYS,
  complianceIssue,
  cyclePhaseChange,
  girthChange,
  waistOutpacesHips,
} from './checkin-schedule-rules.ts';
import { evaluateTraining } from './checkin-training.ts';
import { detectCheckinRedFlags, type RedFlag } from '../physician/red-flags.ts';
import { REEXECUTION_MAP } from '../reexecution-map.ts';
import { WEEKLY_GAIN_MAX_KG, WEEKLY_GAIN_MIN_KG } from '../scientist/scientist-energy.ts';
import { buildTrainingInput } from '../scientist/scientist-training-input.ts';

/** What one weekly check-in leads to (§7.3, §7.4). */
export interface CheckinEvaluation {
  /** The week this check-in closes. */
  readonly week: number;
  /** The triggers that fired, most important first (empty: no change). */
  readonly triggers: AdjustmentTrigger[];
  /** The §7.4 `adjustment_result` payload (delta form, or `no_change`). */
  readonly adjustment: AdjustmentResult;
  /** The SCIENTIST's new targets, when a number changed (the NUTRITIONIST re-runs from them). */
  readonly newMacroTargets?: MacroTargets;
  /** The signals for the COACH, when the COACH re-runs. */
  readonly trainingTriggers?: ScientistTriggers;
  /** The full COACH input, when the COACH re-runs. */
  readonly trainingInput?: TrainingInput;
  /** Red flags this check-in shows (a BMI under 16): batch them into one PHYSICIAN query. */
  readonly redFlags: RedFlag[];
  /** The history with this check-in appended (what `appendCheckin` returns). */
  readonly history: CheckinHistory;
}

/** The first note of every result: where the week's gain stands. */
function gainStatus(week: number, gain: WeeklyGain): string {
  const rate = `gain rate ${kg(gain.gain_kg)} kg/week`;
  if (gain.week <= ADAPTATION_WEEKS) {
    return `Week ${week}: ${rate} — adaptation period (week ${week} of ${ADAPTATION_WEEKS}); gain-based calorie rules start after week ${ADAPTATION_WEEKS}`;
  }
  if (gain.gain_kg < LOW_GAIN_KG_PER_WEEK) return `Week ${week}: ${rate} — below ${LOW_GAIN_KG_PER_WEEK} kg/week`;
  if (gain.gain_kg > HIGH_GAIN_KG_PER_WEEK) return `Week ${week}: ${rate} — above ${HIGH_GAIN_KG_PER_WEEK} kg/week`;
  if (gain.gain_kg <= WEEKLY_GAIN_MAX_KG) {
    return `Week ${week}: ${rate} — within target range (${WEEKLY_GAIN_MIN_KG}-${WEEKLY_GAIN_MAX_KG} kg/week)`;
  }
  return `Week ${week}: ${rate} — above the ${WEEKLY_GAIN_MAX_KG} kg/week target, not above the ${HIGH_GAIN_KG_PER_WEEK} kg/week adjustment threshold`;
}

/**
 * The SCIENTIST's weekly evaluation (§7.3): every trigger rule on the check-in and the history,
 * then the §7.4 result with the §10 agent lists. Pure: the history is not changed; the next
 * history comes back in `history`.
 *
 * Rules (numbers in the notes): gain < 0.25 kg/week x 2 weeks post-adaptation -> +200 kcal
 * (the next ramp tier while below tier 2); gain > 0.75 kg/week post-adaptation -> -150 kcal;
 * waist growing faster than hips -> full review; >= 3 stalled sessions on >= 2 lifts -> COACH;
 * every 5 kg gained -> TDEE recalculation; every 4 weeks -> protein recalculation; 2 weeks on a
 * ramp tier -> next tier; phase transition when due; > 2 minimum viable days -> DIETITIAN/CHEF;
 * a change into or out of the luteal phase -> DIETITIAN/CHEF.
 */
export function evaluateCheckin(checkin: WeeklyCheckin, history: CheckinHistory): CheckinEvaluation {
  const week = currentWeek(history) + 1;
  const gains = weeklyGains(history, checkin, week);
  const training = evaluateTraining(history, checkin, week);
  const energy = evaluateEnergy(history, checkin, week, gains, training.state.training_phase);
  const triggers = new Set<AdjustmentTrigger>([...energy.triggers, ...training.triggers]);
  const notes = [gainStatus(week, gains.at(-1)!), ...energy.notes];

  const girth = girthChange(history, checkin);
  if (waistOutpacesHips(girth)) {
    triggers.add('waist_hip_ratio_flag');
    notes.push(
      `Waist +${girth.waist_delta_cm} cm vs hips ${girth.hip_delta_cm >= 0 ? '+' : ''}${girth.hip_delta_cm} cm since week ${girth.previous_week} (waist-to-hip ratio ${girth.ratio_before} -> ${girth.ratio_after}) — waist growing faster than hips, flagged for full review`,
    );
  }
  notes.push(...training.notes);
  if (complianceIssue(checkin)) {
    triggers.add('compliance_issue');
    notes.push(
      `${checkin.minimum_viable_days_count} minimum viable days this week (limit ${MAX_MINIMUM_VIABLE_DAYS}) — DIETITIAN simplifies the plan, CHEF adapts recipes`,
    );
  }
  const cycle = cyclePhaseChange(history, checkin);
  if (cycle) {
    triggers.add('cycle_phase_adjustment');
    notes.push(
      `Cycle phase ${cycle.from ?? 'not reported'} -> ${cycle.to}${checkin.cycle_day ? ` (cycle day ${checkin.cycle_day})` : ''} — DIETITIAN applies the ${cycle.to} strategy`,
    );
  }

  const before = history.last_macro_targets;
  const adjustment = buildAdjustmentResult({
    triggers,
    amount_kcal: energy.amount_kcal,
    before,
    after: energy.targets,
    notes,
  });
  const next: CheckinHistory = {
    ...history,
    ...energy.state,
    ...training.state,
    last_macro_targets: energy.targets,
    checkins: [...history.checkins, { week, checkin }],
    training_signals: training.signals,
  };
  const numbersChanged =
    before.target_intake_kcal !== energy.targets.target_intake_kcal ||
    changedMacros(before, energy.targets) !== undefined;
  const coachReruns = [...triggers].some((trigger) => REEXECUTION_MAP[trigger].agents_re_run.includes('COACH'));
  const trainingInput = coachReruns ? buildTrainingInput(history.intake, { history: next }) : undefined;
  return {
    week,
    triggers: adjustment.triggers_fired,
    adjustment,
    ...(numbersChanged ? { newMacroTargets: energy.targets } : {}),
    ...(trainingInput ? { trainingTriggers: trainingInput.scientist_triggers, trainingInput } : {}),
    redFlags: detectCheckinRedFlags(checkin, history.intake),
    history: next,
  };
}
