import type { AdjustmentResult, AdjustmentTrigger, NewMacros } from '../../../protocol/nutrition/adjustment-result.ts';
import type { MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import { agentsToRerun } from '../reexecution-map.ts';

/**
 * Which fired trigger a result is "about" (§7.4 `adjustment_type`) when several fire: energy
 * changes first (they move the most agents and carry `adjustment_amount_kcal`), then the rest in
 * the order of §10's map.
 */
const TRIGGER_PRIORITY: readonly AdjustmentTrigger[] = [
  'calorie_increase',
  'calorie_decrease',
  'tdee_recalculation',
  'tier_progression',
  'protein_recalculation',
  'waist_hip_ratio_flag',
  'training_stall',
  'phase_transition',
  'compliance_issue',
  'cycle_phase_adjustment',
  'physician_advisory',
];

/** The parts of a weekly result. */
interface AdjustmentParts {
  readonly triggers: ReadonlySet<AdjustmentTrigger>;
  /** Signed kcal of a calorie_increase (+200) or calorie_decrease (-150); undefined otherwise. */
  readonly amount_kcal: number | undefined;
  readonly before: MacroTargets;
  readonly after: MacroTargets;
  readonly notes: readonly string[];
}

/** The macros of `after` when any of protein, fat, carbs differs from `before`; else undefined. */
export function changedMacros(before: MacroTargets, after: MacroTargets): NewMacros | undefined {
  const same = before.protein_g === after.protein_g && before.fat_g === after.fat_g && before.carbs_g === after.carbs_g;
  return same ? undefined : { protein_g: after.protein_g, fat_g: after.fat_g, carbs_g: after.carbs_g };
}

/**
 * The §7.4 payload. No trigger: the `no_change` form (`adjustment_type: null`, nothing re-runs).
 * Otherwise the change form, a delta: `new_target_intake_kcal` only when the target changed,
 * `new_macros` only when a macro changed, the agent lists from the §10 map.
 */
export function buildAdjustmentResult(parts: AdjustmentParts): AdjustmentResult {
  const fired = TRIGGER_PRIORITY.filter((trigger) => parts.triggers.has(trigger));
  const [adjustment_type] = fired;
  const { agents_re_run, agents_unchanged } = agentsToRerun(fired);
  if (adjustment_type === undefined) {
    return { triggers_fired: [], adjustment_type: null, agents_re_run: [], agents_unchanged, notes: [...parts.notes] };
  }
  const new_macros = changedMacros(parts.before, parts.after);
  const targetChanged = parts.before.target_intake_kcal !== parts.after.target_intake_kcal;
  return {
    triggers_fired: fired,
    adjustment_type,
    ...(parts.amount_kcal !== undefined ? { adjustment_amount_kcal: parts.amount_kcal } : {}),
    ...(targetChanged ? { new_target_intake_kcal: parts.after.target_intake_kcal } : {}),
    ...(new_macros ? { new_macros } : {}),
    agents_re_run,
    agents_unchanged,
    notes: [...parts.notes],
  };
}
