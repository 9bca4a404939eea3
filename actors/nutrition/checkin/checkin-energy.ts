import type { AdjustmentTrigger } from '../../../protocol/nutrition/adjustment-result.ts';
import type { TrainingPhase } from '../../../protocol/nutrition/client-profile.ts';
import type { MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import type { CalorieTier } from '../../../protocol/nutrition/nutrition-strategy.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';
import type { CheckinHistory } from './checkin-history.ts';
import {
  CALORIE_DECREASE_KCAL,
  CALORIE_INCREASE_KCAL,
  HIGH_GAIN_KG_PER_WEEK,
  LOW_GAIN_KG_PER_WEEK,
  judgeGain,
  kg,
  meanGain,
  type WeeklyGain,
} from './checkin-gain-rules.ts';
import {
  PROTEIN_RECALC_WEEKS,
  TDEE_RECALC_GAIN_KG,
  gainSinceTdeeKg,
  proteinRecalculationDue,
  tdeeRecalculationDue,
  tierProgressionDue,
} from './checkin-schedule-rules.ts';
import { FULL_TIER, nextTier } from '../scientist/scientist-calorie-ramp.ts';
import { calculateMacroTargets } from '../scientist/scientist-macro-targets.ts';

/** The energy side of a weekly evaluation: triggers, notes, the new targets and state. */
interface EnergyOutcome {
  readonly triggers: AdjustmentTrigger[];
  readonly notes: string[];
  readonly amount_kcal: number | undefined;
  readonly targets: MacroTargets;
  readonly state: Pick<
    CheckinHistory,
    | 'tdee_weight_kg'
    | 'tdee_recalc_week'
    | 'protein_weight_kg'
    | 'protein_recalc_week'
    | 'tier'
    | 'tier_since_week'
    | 'calorie_adjustment_kcal'
    | 'last_calorie_adjustment_week'
  >;
}

/**
 * The energy rules of one check-in, in this order: the 5 kg TDEE milestone; the gain rules
 * (low for 2 weeks: +200 kcal, or, while the ramp is below tier 2, the next tier instead, since
 * the ramp is the planned increase; high: -150 kcal); otherwise the normal tier progression; the
 * monthly protein recalculation (fired only when the grams change). The targets are then
 * recomputed from the new state with `calculateMacroTargets`.
 */
export function evaluateEnergy(
  history: CheckinHistory,
  checkin: WeeklyCheckin,
  week: number,
  gains: readonly WeeklyGain[],
  trainingPhase: TrainingPhase,
): EnergyOutcome {
  const before = history.last_macro_targets;
  const triggers: AdjustmentTrigger[] = [];
  const notes: string[] = [];
  const state = {
    tdee_weight_kg: history.tdee_weight_kg,
    tdee_recalc_week: history.tdee_recalc_week,
    protein_weight_kg: history.protein_weight_kg,
    protein_recalc_week: history.protein_recalc_week,
    tier: history.tier as CalorieTier,
    tier_since_week: history.tier_since_week,
    calorie_adjustment_kcal: history.calorie_adjustment_kcal,
    last_calorie_adjustment_week: history.last_calorie_adjustment_week,
  };
  let amount_kcal: number | undefined;
  const weight = checkin.weight_kg;
  const stepUp = (why: string) => {
    const from = state.tier;
    state.tier = nextTier(from);
    state.tier_since_week = week;
    state.last_calorie_adjustment_week = week;
    triggers.push('tier_progression');
    notes.push(
      `${why}: calorie ramp moves from tier ${from} to tier ${state.tier} (+${history.ramp_step_kcal} kcal/day)`,
    );
  };

  if (tdeeRecalculationDue(history, weight)) {
    triggers.push('tdee_recalculation');
    notes.push(
      `Weight ${weight} kg is ${kg(gainSinceTdeeKg(history, weight))} kg above the last TDEE calculation at ${history.tdee_weight_kg} kg (milestone every ${TDEE_RECALC_GAIN_KG} kg) — BMR and TDEE recalculated`,
    );
    state.tdee_weight_kg = weight;
    state.tdee_recalc_week = week;
  }

  const verdict = judgeGain(history, gains);
  const latestGain = gains.at(-1)?.gain_kg ?? 0;
  if (verdict.kind === 'low') {
    const rates = verdict.gains.map((gain) => kg(gain.gain_kg)).join(' and ');
    const why = `Gain rate ${kg(meanGain(verdict.gains))} kg/week for 2 consecutive weeks (${rates}) — below ${LOW_GAIN_KG_PER_WEEK} kg/week threshold`;
    if (state.tier < FULL_TIER)
      stepUp(`${why}; the ramp is not complete, so instead of +${CALORIE_INCREASE_KCAL} kcal`);
    else {
      triggers.push('calorie_increase');
      notes.push(why);
      amount_kcal = CALORIE_INCREASE_KCAL;
      state.calorie_adjustment_kcal += CALORIE_INCREASE_KCAL;
      state.last_calorie_adjustment_week = week;
    }
  } else if (verdict.kind === 'high') {
    triggers.push('calorie_decrease');
    notes.push(
      `Gain rate ${kg(verdict.gain.gain_kg)} kg/week in week ${verdict.gain.week} — above ${HIGH_GAIN_KG_PER_WEEK} kg/week threshold`,
    );
    amount_kcal = CALORIE_DECREASE_KCAL;
    state.calorie_adjustment_kcal += CALORIE_DECREASE_KCAL;
    state.last_calorie_adjustment_week = week;
  } else if (tierProgressionDue(history, checkin, week, latestGain, HIGH_GAIN_KG_PER_WEEK)) {
    stepUp(
      `Week ${week}: ${week - history.tier_since_week} weeks on tier ${history.tier} with at most 2 minimum viable days`,
    );
  }

  const proteinDue = proteinRecalculationDue(history, week);
  if (proteinDue) {
    state.protein_weight_kg = weight;
    state.protein_recalc_week = week;
  }

  const compute = () =>
    calculateMacroTargets(history.intake, {
      weeks_on_program: week,
      current_weight_kg: weight,
      tdee_weight_kg: state.tdee_weight_kg,
      protein_weight_kg: state.protein_weight_kg,
      ramp: { tier: state.tier, step_kcal: history.ramp_step_kcal },
      calorie_adjustment_kcal: state.calorie_adjustment_kcal,
      training_phase: trainingPhase,
    }).macro_targets;
  let targets = compute();

  // A decrease the BMR floor swallows whole changes nothing, so it is not reported as fired.
  if (amount_kcal !== undefined && targets.target_intake_kcal === before.target_intake_kcal) {
    triggers.splice(triggers.indexOf(amount_kcal > 0 ? 'calorie_increase' : 'calorie_decrease'), 1);
    notes.push(`The ${amount_kcal} kcal adjustment is not applied: the target is already at the BMR floor`);
    state.calorie_adjustment_kcal = history.calorie_adjustment_kcal;
    state.last_calorie_adjustment_week = history.last_calorie_adjustment_week;
    amount_kcal = undefined;
    targets = compute();
  }

  if (proteinDue) {
    const monthly = `Monthly protein recalculation (every ${PROTEIN_RECALC_WEEKS} weeks) at ${weight} kg x ${targets.protein_g_per_kg} g/kg`;
    if (targets.protein_g !== before.protein_g) {
      triggers.push('protein_recalculation');
      notes.push(
        `${monthly}: protein ${before.protein_g} g -> ${targets.protein_g} g, carbohydrates rebalanced to keep ${targets.target_intake_kcal} kcal`,
      );
    } else notes.push(`${monthly}: protein unchanged at ${targets.protein_g} g`);
  }
  if (targets.target_intake_kcal !== before.target_intake_kcal) {
    notes.push(describeEnergyChange(before, targets));
  }
  return { triggers, notes, amount_kcal, targets, state };
}

/** "Target 2450 -> 2650 kcal (+200): carbohydrates +35 g, fat +7 g, protein unchanged". */
function describeEnergyChange(before: MacroTargets, after: MacroTargets): string {
  const delta = after.target_intake_kcal - before.target_intake_kcal;
  const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);
  const part = (name: string, from: number, to: number) =>
    to === from ? `${name} unchanged` : `${name} ${signed(to - from)} g`;
  const carbsKcal = 4 * (after.carbs_g - before.carbs_g);
  const mostly = Math.abs(carbsKcal) >= Math.abs(delta) / 2 ? ', mostly from carbohydrates' : '';
  return (
    `Target ${before.target_intake_kcal} -> ${after.target_intake_kcal} kcal (${signed(delta)})${mostly}: ` +
    `${part('carbohydrates', before.carbs_g, after.carbs_g)}, ${part('fat', before.fat_g, after.fat_g)}, ${part('protein', before.protein_g, after.protein_g)}`
  );
}
