import type { MenstrualStatus } from '../../../protocol/nutrition/client-profile.ts';
import type { MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import type { MedicalContext } from '../../../protocol/nutrition/medical-context.ts';
import type { CycleAdjustments } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { isAverted, normalizeFood } from './nutritionist-food-aversions.ts';

// The NUTRITIONIST's special considerations and cycle strategies (§4.3). Words only: the
// SCIENTIST's numbers are never changed here (§8 rank 2).

/** Energy-dense foods offered in place of the averted nut butters, filtered by aversion. */
const DENSE_SWAPS = ['olive oil', 'seeds', 'cheese', 'avocado', 'dried fruit', 'granola'];

/** What the considerations depend on. */
interface ConsiderationInputs {
  readonly targets: MacroTargets;
  readonly fiber_target_g: number;
  readonly medical_context?: MedicalContext;
}

/**
 * Considerations, most important first: a PHYSICIAN advisory attached to a `continue` (§5), the
 * appetite, the food aversions with safe energy-dense swaps, who cooks, and calcium-iron
 * separation (dairy calcium blunts non-heme iron absorption, Hallberg L et al. 1991, Am J Clin
 * Nutr 53(1):112-119; iron status matters for menstruating women).
 */
export function specialConsiderations(inputs: ConsiderationInputs): string[] {
  const { targets } = inputs;
  const constraints = targets.client_constraints;
  const notes: string[] = [];
  const medical = inputs.medical_context;
  if (medical) {
    const referral = medical.referral_target ? ` Referral: ${medical.referral_target} (${medical.urgency}).` : '';
    notes.push(`PHYSICIAN advisory (${medical.pipeline_action}): ${medical.response}${referral}`);
  }
  const appetite = {
    low: `Low appetite: energy before volume (liquid and dense calories first); fiber kept at ${inputs.fiber_target_g} g because fiber fills`,
    normal: `Normal appetite: regular meals cover most of the ${targets.target_intake_kcal} kcal; add the shake only on days a slot is missed`,
    high: `High appetite: portion each slot to its spec; the surplus for ${targets.weekly_weight_target_kg} kg/week is easy to overshoot`,
  }[constraints.appetite_level];
  notes.push(appetite);
  const swaps = DENSE_SWAPS.filter((food) => !isAverted(food, constraints.food_aversions));
  notes.push(
    `Never use: ${constraints.food_aversions.map(normalizeFood).join(', ')}` +
      (swaps.length > 0 ? `; energy-dense swaps: ${swaps.join(', ')}` : ''),
  );
  notes.push(
    constraints.partner_cooks
      ? 'Partner cooks: share the slot specs with the partner; the solo-week protocol covers weeks the partner is away'
      : `Cooks alone (${constraints.cooking_skill} skill): recipes and prep times must match that skill`,
  );
  notes.push(
    'Calcium-iron separation: keep dairy and any calcium supplement at least 2 h away from iron-rich meals (red meat, legumes, fortified cereal) and any iron supplement; add vitamin C to iron-rich meals; no iron supplement without a blood test',
  );
  return notes;
}

/**
 * Follicular and luteal strategies. The daily totals stay the SCIENTIST's in both phases; only
 * food placement changes. In the luteal phase resting energy and appetite rise a little
 * (Benton MJ et al. 2020, PLoS One 15(7):e0236025) and bloating is common. When the cycle
 * is absent (amenorrhea, under medical follow-up) there is nothing to adjust to.
 */
export function cycleAdjustments(targets: MacroTargets, menstrualStatus?: MenstrualStatus): CycleAdjustments {
  if (menstrualStatus === 'amenorrhea') {
    const same =
      'No cycle to follow (amenorrhea, under medical follow-up): the standard plan all month, same daily totals';
    return { follicular: same, luteal: same };
  }
  const lowAppetite = targets.client_constraints.appetite_level === 'low';
  return {
    follicular: `Standard plan at ${targets.target_intake_kcal} kcal: largest carbohydrate portions around training, when insulin sensitivity is highest${lowAppetite ? '; appetite is often lowest now, so lean on the shake' : ''}`,
    luteal: `Same ${targets.target_intake_kcal} kcal and macros: move some carbohydrate from dinner to the snack and pre-sleep slots for cravings, favour magnesium-rich foods (oats, legumes, seeds, cocoa), salt food normally and keep fluids up against bloating${lowAppetite ? '; appetite usually rises, a good week to finish every slot' : ''}`,
  };
}
